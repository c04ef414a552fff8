# Sourced by the server's load scripts (with `root` set to the repository): installs wrk if
# missing, builds the server in release, starts it with an unleased identity on a free port of
# loopback, killed when the script exits, and waits until it answers. Sets `port` and
# `server`.
if ! command -v wrk >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq wrk >/dev/null
    else
        echo "wrk is missing: install it (Debian: apt-get install wrk)" >&2
        exit 1
    fi
fi
# SERVER_BIN: a binary built elsewhere (another commit's, to compare), instead of this tree's.
if [ -z "${SERVER_BIN:-}" ]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p snowflake-server
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${SERVER_BIN:-$root/target/release/snowflake-server}" --listen "127.0.0.1:$port" --dc 1 --machine 1 >/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.05
done
