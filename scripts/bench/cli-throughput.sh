#!/usr/bin/env bash
# Throughput of the `snowflake` binary into a file, measured on this machine:
#   1. `generate -n N > file` beside `decode < ids > file` (N IDs generated first), for the
#      human format (rows, as into any file) and for --json, interleaved round by round,
#      best of 3 each; and the ratio decode/generate per format (the goal: decode no slower
#      than generate); `decode --layout card` beside them, for information;
#   2. with strace installed, the average bytes per write(2) to stdout of each command
#      (the goal: at least 4 KiB into a file or a pipe).
# Usage: bash scripts/bench/cli-throughput.sh [N]   (N defaults to 1000000; from anywhere)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-1000000}
work="$root/target/cli-throughput"
rm -rf "$work"
mkdir -p "$work"

cargo build --release --manifest-path "$root/Cargo.toml" -p snowflake-cli -q
bin="$root/target/release/snowflake"
"$bin" generate --dc 1 --machine 1 -n "$n" >"$work/ids"

seconds() { # stdin file, stdout file, arguments: prints the wall time in seconds
    local input=$1 output=$2 start end
    shift 2
    # Not timed: truncating the last run's output (up to 215 MB) would count against
    # whichever command came next.
    rm -f "$output"
    sync
    start=$(date +%s.%N)
    "$bin" "$@" <"$input" >"$output"
    end=$(date +%s.%N)
    awk "BEGIN { printf \"%.3f\", $end - $start }"
}

runs=3
declare -A best bytes
names=(generate decode generate-json decode-json decode-card)
run() { # name: runs that command once
    case $1 in
    generate) seconds /dev/null "$work/out" generate --dc 2 --machine 2 -n "$n" ;;
    decode) seconds "$work/ids" "$work/out" decode ;;
    generate-json) seconds /dev/null "$work/out" generate --dc 2 --machine 2 -n "$n" --json ;;
    decode-json) seconds "$work/ids" "$work/out" decode --json ;;
    decode-card) seconds "$work/ids" "$work/out" decode --layout card ;;
    esac
}
for _ in $(seq $runs); do
    # Round by round, so that a slow moment of the machine weighs on every command alike.
    for name in "${names[@]}"; do
        t=$(run "$name")
        best[$name]=$(awk "BEGIN { b = \"${best[$name]:-}\"; print (b == \"\" || $t < b) ? $t : b }")
        bytes[$name]=$(wc -c <"$work/out")
    done
done

echo "## $n IDs into a file (release build, best of $runs)"
# The human formats differ in size: generate writes the IDs alone, decode a row for each
# (or a card, in the last line).
echo "| format | generate -n $n (s) | decode < ids (s) | decode / generate | MB written (generate, decode) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for format in human json card; do
    case $format in
    human) g=generate d=decode ;;
    json) g=generate-json d=decode-json ;;
    card) g=generate d=decode-card ;;
    esac
    mb=$(awk "BEGIN { printf \"%.0f, %.0f\", ${bytes[$g]} / 1e6, ${bytes[$d]} / 1e6 }")
    ratio=$(awk "BEGIN { printf \"%.2f\", ${best[$d]} / ${best[$g]} }")
    printf "| %s | %.3f | %.3f | %s | %s |\n" "$format" "${best[$g]}" "${best[$d]}" "$ratio" "$mb"
done

if command -v strace >/dev/null 2>&1; then
    echo
    echo "## bytes per write(2) to stdout (strace)"
    echo "| command | writes | bytes | bytes per write |"
    echo "| --- | ---: | ---: | ---: |"
    traced() { # label, stdin file, arguments
        local label=$1 input=$2
        shift 2
        strace -f -qq -e trace=write -o "$work/trace" "$bin" "$@" <"$input" >"$work/out"
        # Lines such as `1234  write(1, "..."..., 65536) = 65536`.
        awk -v label="$label" '/write\(1, / { writes++; bytes += $NF }
            END { printf "| %s | %d | %d | %.0f |\n", label, writes, bytes, writes ? bytes / writes : 0 }' "$work/trace"
    }
    traced "generate -n $n" /dev/null generate --dc 2 --machine 2 -n "$n"
    traced "decode" "$work/ids" decode
    traced "generate -n $n --json" /dev/null generate --dc 2 --machine 2 -n "$n" --json
    traced "decode --json" "$work/ids" decode --json
else
    echo
    echo "(strace not found: bytes per write(2) not measured)"
fi
