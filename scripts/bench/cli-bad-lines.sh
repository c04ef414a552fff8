#!/usr/bin/env bash
# What bad lines cost `snowflake decode`, measured on this machine: N good IDs beside the
# same N IDs each spoiled by a trailing `x` (a bad line each, a message on stderr each),
# stdout and stderr into files, interleaved round by round, best of 3; then the MB each
# writes and, with strace installed, its write(2) calls to stdout and to stderr.
# Usage: bash scripts/bench/cli-bad-lines.sh [N [OTHER]]   (from anywhere)
#   N defaults to 1000000; OTHER, the path of another build of `snowflake` (an older
#   commit's, say), is measured in the same rounds, in rows of its own.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-1000000}
work="$root/target/cli-bad-lines"
rm -rf "$work"
mkdir -p "$work"

cargo build --release --manifest-path "$root/Cargo.toml" -p snowflake-cli -q
declare -A bins=([this]="$root/target/release/snowflake")
builds=(this)
if [ -n "${2:-}" ]; then
    bins[other]=$(realpath "$2")
    builds+=(other)
fi
"${bins[this]}" generate --dc 1 --machine 1 -n "$n" >"$work/good"
sed 's/$/x/' "$work/good" >"$work/bad"

decode() { # build, input: runs `decode` on it, stdout and stderr into files
    # Exit status 2 with bad lines: expected, not a failure of the script.
    "${bins[$1]}" decode <"$work/$2" >"$work/out" 2>"$work/err" || [ $? -eq 2 ]
}

seconds() { # build, input: prints the wall time of `decode` in seconds
    local start end
    rm -f "$work/out" "$work/err"
    sync
    start=$(date +%s.%N)
    decode "$1" "$2"
    end=$(date +%s.%N)
    awk "BEGIN { printf \"%.3f\", $end - $start }"
}

declare -A best
for _ in 1 2 3; do
    # Round by round, so that a slow moment of the machine weighs on every run alike.
    for build in "${builds[@]}"; do
        for input in good bad; do
            t=$(seconds "$build" "$input")
            key=$build/$input
            best[$key]=$(awk "BEGIN { b = \"${best[$key]:-}\"; print (b == \"\" || $t < b) ? $t : b }")
        done
    done
done

echo "## decode of $n lines, stdout and stderr into files (release build, best of 3)"
echo "| build | input | wall time | MB to stdout / stderr | write(2) to stdout | write(2) to stderr |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
for build in "${builds[@]}"; do
    for input in good bad; do
        if command -v strace >/dev/null 2>&1; then
            strace -f -qq -e trace=write -o "$work/trace" "${bins[$build]}" decode \
                <"$work/$input" >"$work/out" 2>"$work/err" || [ $? -eq 2 ]
            # Lines such as `1234  write(2, "..."..., 65536) = 65536`.
            counts=$(awk '/write\(1, / { out++ } /write\(2, / { err++ }
                END { printf "%d | %d", out, err }' "$work/trace")
        else
            decode "$build" "$input"
            counts="(no strace) | (no strace)"
        fi
        mb=$(awk "BEGIN { printf \"%.0f / %.0f\", $(wc -c <"$work/out") / 1e6, $(wc -c <"$work/err") / 1e6 }")
        printf "| %s | %s | %.3f s | %s | %s |\n" "$build" "$input" "${best[$build/$input]}" "$mb" "$counts"
    done
done
