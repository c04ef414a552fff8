#!/usr/bin/env bash
# snowflake-server under wrk on loopback, in one run:
#   an idle server's CPU over 10 s, as a share of a core (bar: under 1%);
#   /v1/id requests per second as a ratio to /healthz (bar: at least 0.9), and its p99 latency;
#   /v1/ids?count=4096 in IDs per second as a share of the format's 4,096,000 (bar: at least
#   99%), at 32 connections and at 1, and the server's CPU per answer (bar: at most 0.35 ms);
#   the size of a 4,096-ID answer in each form.
# Usage: bash scripts/bench/server-load.sh [SECONDS]   (default 10 s per endpoint; installs wrk if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-10}
# wrk, and a release build of the server on a free port of loopback (`$port`, `$server`).
source "$root/scripts/bench/server-up.sh"

# The server's CPU time so far, user and system, in clock ticks (/proc/PID/stat).
cpu() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
ticks=$(getconf CLK_TCK)

# Idle first: the server started, answered once, and nothing more for 10 s.
before=$(cpu)
sleep 10
idle=$(awk -v t=$(($(cpu) - before)) -v hz="$ticks" 'BEGIN { printf "%.2f", 100 * t / hz / 10 }')

# One wrk thread and 32 connections (or $2): the server gets the rest of the two cores.
run() { # path [connections] -> "requests/s p99 server-CPU-ms-per-1000-answers"
    local out before after
    before=$(cpu)
    out=$(wrk -t1 -c"${2:-32}" -d"${seconds}s" --latency "http://127.0.0.1:$port$1")
    after=$(cpu)
    local rps p99 requests
    rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$out")
    requests=$(awk '/requests in/ { print $1 }' <<<"$out")
    echo "$rps $p99 $(awk -v t=$((after - before)) -v hz="$ticks" -v n="$requests" 'BEGIN { printf "%.1f", 1000 * 1000 * t / hz / n }')"
}
# A warm-up, then the two endpoints to compare in turns, twice: the better run of each.
wrk -t1 -c32 -d2s "http://127.0.0.1:$port/healthz" >/dev/null
health_runs=$(run /healthz)
id_runs=$(run /v1/id)
health_runs+=$'\n'$(run /healthz)
id_runs+=$'\n'$(run /v1/id)
read -r health_rps health_p99 health_cpu < <(sort -g -r <<<"$health_runs" | head -1)
read -r id_rps id_p99 id_cpu < <(sort -g -r <<<"$id_runs" | head -1)
read -r ids_rps ids_p99 ids_cpu < <(run '/v1/ids?count=4096')
read -r one_rps one_p99 one_cpu < <(run '/v1/ids?count=4096' 1)
size() { curl -s "http://127.0.0.1:$port/v1/ids?count=4096$1" | wc -c; }

echo "| endpoint | requests/s | p99 latency | server CPU per 1,000 answers | figure |"
echo "| --- | ---: | ---: | ---: | --- |"
echo "| \`/healthz\` | $health_rps | $health_p99 | $health_cpu ms | |"
awk -v a="$id_rps" -v b="$health_rps" -v p="$id_p99" -v c="$id_cpu" 'BEGIN { printf "| `/v1/id` | %s | %s | %s ms | %.2fx `/healthz` (bar: at least 0.9) |\n", a, p, c, a / b }'
batch() { # label rps p99 cpu
    awk -v l="$1" -v a="$2" -v p="$3" -v c="$4" 'BEGIN { printf "| `/v1/ids?count=4096`, %s | %s | %s | %s ms | %.1f%% of 4,096,000 IDs/s (bar: at least 99%%); %.2f ms of CPU per answer (bar: at most 0.35) |\n", l, a, p, c, 100 * a * 4096 / 4096000, c / 1000 }'
}
batch "32 connections" "$ids_rps" "$ids_p99" "$ids_cpu"
batch "1 connection" "$one_rps" "$one_p99" "$one_cpu"
echo
echo "Idle for 10 s: $idle% of a core (bar: under 1%)."
echo "A 4,096-ID answer: $(size '') bytes in both forms (the default), $(size '&form=decimal') in decimal, $(size '&form=base32') in base32."
