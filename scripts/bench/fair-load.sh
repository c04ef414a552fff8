#!/usr/bin/env bash
# /v1/id while /v1/ids?count=4096 is under load, both at once, on loopback (#19):
#   /v1/id: non-2xx answers (must be 0) and p99 latency; /v1/ids: IDs per second;
#   the server's threads, sampled through the run (bounded: its workers and no blocking pool).
# Usage: bash scripts/bench/fair-load.sh [SECONDS] [BULK_CONNECTIONS]
#   (default 10 s, 200 connections of /v1/ids; installs wrk if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-10}
bulk=${2:-200}
# wrk, and a release build of the server on a free port of loopback (`$port`, `$server`).
source "$root/scripts/bench/server-up.sh"
out=$(mktemp -d)
wrk -t1 -c"$bulk" -d"${seconds}s" "http://127.0.0.1:$port/v1/ids?count=4096" >"$out/ids" &
bulk_pid=$!
wrk -t1 -c8 -d"${seconds}s" --latency "http://127.0.0.1:$port/v1/id" >"$out/id" &
id_pid=$!
threads=0
while kill -0 "$bulk_pid" 2>/dev/null; do
    now=$(awk '/^Threads:/ { print $2 }' "/proc/$server/status")
    [ "$now" -gt "$threads" ] && threads=$now
    sleep 0.2
done
wait "$bulk_pid" "$id_pid"
non2xx() { awk '/Non-2xx/ { print $NF; found=1 } END { if (!found) print 0 }' "$1"; }
id_rps=$(awk '/Requests\/sec/ { print $2 }' "$out/id")
id_p99=$(awk '$1 == "99%" { print $2 }' "$out/id")
ids_rps=$(awk '/Requests\/sec/ { print $2 }' "$out/ids")
echo "| while $bulk connections ask /v1/ids?count=4096 | figure |"
echo "| --- | ---: |"
echo "| \`/v1/id\` requests/s (8 connections) | $id_rps |"
echo "| \`/v1/id\` non-2xx answers | $(non2xx "$out/id") |"
echo "| \`/v1/id\` p99 latency | $id_p99 |"
awk -v a="$ids_rps" 'BEGIN { printf "| `/v1/ids` IDs/s | %.0f (%.1f%% of 4,096,000) |\n", a * 4096, 100 * a * 4096 / 4096000 }'
echo "| \`/v1/ids\` non-2xx answers | $(non2xx "$out/ids") |"
echo "| the server's threads, most seen | $threads |"
rm -rf "$out"
