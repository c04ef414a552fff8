#!/usr/bin/env bash
# The page in Lighthouse, all four categories, in each language, and its size: the figures of
# snowflake-bench/README.md ("The page"). Performance is timing, so run it on an idle machine;
# the tests judge the other three (snowflake-server/tests/browser.rs).
#   bash scripts/bench/lighthouse.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# Lighthouse (pinned there) and Chromium, as the tests have them.
bash scripts/test.sh --deps-only >/dev/null
cargo build --release --quiet -p snowflake-server
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$root/target/release/snowflake-server" --listen "127.0.0.1:$port" >/dev/null &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
    curl -s "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.05
done
flags="--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
printf '| page | performance | accessibility | best practices | SEO | bytes | gzip -9 |\n'
printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for lang in id he en; do
    url="http://127.0.0.1:$port/$lang/"
    CHROME_PATH=/usr/bin/chromium target/lighthouse/node_modules/.bin/lighthouse "$url" --quiet \
        --output=json --output-path="$work/$lang.json" \
        --chrome-flags="$flags --user-data-dir=$work/profile-$lang"
    curl -s "$url" >"$work/$lang.html"
    bytes=$(wc -c <"$work/$lang.html")
    gzipped=$(gzip -9 -c "$work/$lang.html" | wc -c)
    python3 - "$work/$lang.json" "/$lang/" "$bytes" "$gzipped" <<'PY'
import json, sys
report, page, size, gzipped = sys.argv[1:]
c = json.load(open(report))["categories"]
scores = [round(c[k]["score"] * 100) for k in ("performance", "accessibility", "best-practices", "seo")]
print(f"| `{page}` | " + " | ".join(map(str, scores)) + f" | {int(size):,} | {int(gzipped):,} |")
PY
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
