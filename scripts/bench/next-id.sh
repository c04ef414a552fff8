#!/usr/bin/env bash
# IDs issued by PostgreSQL, in one run on one server of its own: `snowflake.next_id()` beside
# `nextval` (the floor: a bare sequence) and Instagram's PL/pgSQL `next_id` (the practice,
# as its blog published it), each as time per ID and as a ratio:
#   one session, ROWS calls in one statement;
#   four sessions at once, ROWS calls each;
#   an INSERT ... SELECT of ROWS rows into a table whose key defaults to each.
# The best of three runs of each. Usage: bash scripts/bench/next-id.sh [ROWS]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
rows=${1:-1000000}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed: apt-get install postgresql" >&2; exit 1; }
dir=$(mktemp -d /tmp/next-id-bench.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# PostgreSQL refuses root: its own user then.
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_server "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync >/dev/null
as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=''" start >/dev/null
trap 'as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null; rm -rf "$dir"' EXIT
sql() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -t -A -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres "$@"; }

cargo run --locked --quiet -p snowflake-cli -- sql postgres --next-id | sql >/dev/null
sql -c "CALL snowflake.claim_identity()"
sql <<'EOF'
CREATE SCHEMA insta5;
CREATE SEQUENCE insta5.table_id_seq;
-- Instagram's function, as its blog gives it (2012), `%%` read as `%`.
CREATE OR REPLACE FUNCTION insta5.next_id(OUT result bigint) AS $$
DECLARE
    our_epoch bigint := 1314220021721;
    seq_id bigint;
    now_millis bigint;
    shard_id int := 5;
BEGIN
    SELECT nextval('insta5.table_id_seq') % 1024 INTO seq_id;
    SELECT FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) INTO now_millis;
    result := (now_millis - our_epoch) << 23;
    result := result | (shard_id << 10);
    result := result | (seq_id);
END;
$$ LANGUAGE PLPGSQL;
CREATE SEQUENCE floor_seq;
EOF

declare -A calls=([floor]="nextval('floor_seq')" [instagram]="insta5.next_id()" [next_id]="snowflake.next_id()")
kinds=(floor instagram next_id)

# Seconds a command takes, by the wall clock.
timed() { local t0; t0=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $t0" | bc -l; }
one() { sql -c "SELECT count($1) FROM generate_series(1, $rows)"; }
four() { for _ in 1 2 3 4; do one "$1" & done; wait; }
insert() {
    sql -c "DROP TABLE IF EXISTS t_$1; CREATE TABLE t_$1 (id bigint PRIMARY KEY DEFAULT $2, n integer)"
    sql -c "INSERT INTO t_$1 (n) SELECT g FROM generate_series(1, $rows) g"
}
best() { sort -g | head -1; }

declare -A one_s four_s insert_s
for kind in "${kinds[@]}"; do
    one_s[$kind]=$(for _ in 1 2 3; do timed one "${calls[$kind]}"; done | best)
    four_s[$kind]=$(for _ in 1 2 3; do timed four "${calls[$kind]}"; done | best)
    insert_s[$kind]=$(for _ in 1 2 3; do timed insert "$kind" "${calls[$kind]}"; done | best)
done
# The four sessions' and the million rows' IDs, distinct: a check, not a figure.
[ "$(sql -c "SELECT count(DISTINCT id) FROM t_next_id")" = "$rows" ]

per_id() { printf '%.3f' "$(echo "1000000 * $1 / $2" | bc -l)"; }
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
echo "PostgreSQL $(sql -c 'SHOW server_version'), $(nproc) cores, $rows IDs a run, the best of 3"
echo
echo "| | nextval (floor) | Instagram's next_id | snowflake.next_id() | ours / Instagram's | ours / floor |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
row() { # label, associative array name, IDs per run
    local -n times=$2
    printf '| %s | %s µs | %s µs | %s µs | %s | %s |\n' "$1" \
        "$(per_id "${times[floor]}" "$3")" "$(per_id "${times[instagram]}" "$3")" "$(per_id "${times[next_id]}" "$3")" \
        "$(ratio "${times[next_id]}" "${times[instagram]}")" "$(ratio "${times[next_id]}" "${times[floor]}")"
}
row "one session, per ID" one_s "$rows"
row "four sessions at once, per ID" four_s "$((4 * rows))"
row "INSERT ... SELECT of the rows, per row" insert_s "$rows"
