#!/usr/bin/env bash
# The page in Lighthouse, all four categories, in each language, and its size: the figures of
# snowflake-bench/README.md ("The page"), for the page that snowflake-server serves and for
# the static site of scripts/site.sh (served by Python's http.server under /sub/, with no
# server). Performance is timing, so run it on an idle machine; the tests judge the other
# three (snowflake-server/tests/browser.rs).
#   bash scripts/bench/lighthouse.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# Lighthouse (pinned there), Chromium and wasm-opt, as the tests have them.
bash scripts/test.sh --deps-only >/dev/null
cargo build --release --quiet -p snowflake-server
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
"$root/target/release/snowflake-server" --listen "127.0.0.1:$port" >/dev/null &
server=$!
work=$(mktemp -d)
static_port=$(free_port)
bash scripts/site.sh "$work/root/sub" >"$work/site.txt"
python3 -m http.server "$static_port" --bind 127.0.0.1 --directory "$work/root" >/dev/null 2>&1 &
static=$!
trap 'kill $server $static 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && curl -s "http://127.0.0.1:$static_port/" >/dev/null 2>&1 && break
    sleep 0.05
done
flags="--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
printf '| page | performance | accessibility | best practices | SEO | bytes | gzip -9 |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for url in "http://127.0.0.1:$port/"{id,he,en}/ "http://127.0.0.1:$static_port/sub/"{id,he,en}/; do
    name=$(echo "$url" | tr -c 'a-z0-9' '-')
    CHROME_PATH=/usr/bin/chromium target/lighthouse/node_modules/.bin/lighthouse "$url" --quiet \
        --output=json --output-path="$work/$name.json" \
        --chrome-flags="$flags --user-data-dir=$work/profile-$name"
    curl -s "$url" >"$work/$name.html"
    bytes=$(wc -c <"$work/$name.html")
    gzipped=$(gzip -9 -c "$work/$name.html" | wc -c)
    page=${url#http://127.0.0.1:"$port"}
    page=${page#http://127.0.0.1:"$static_port"}
    [ "$page" = "${page#/sub/}" ] || page="static $page"
    python3 - "$work/$name.json" "$page" "$bytes" "$gzipped" <<'PY'
import json, sys
report, page, size, gzipped = sys.argv[1:]
c = json.load(open(report))["categories"]
scores = [round(c[k]["score"] * 100) for k in ("performance", "accessibility", "best-practices", "seo")]
print(f"| `{page}` | " + " | ".join(map(str, scores)) + f" | {int(size):,} | {int(gzipped):,} |")
PY
done
cat "$work/site.txt"
echo "the module gzip -9: $(gzip -9 -c "$work/root/sub/snowflake-page.wasm" | wc -c) bytes"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
