#!/usr/bin/env bash
# Instructions per call of each generator, counted by callgrind: deterministic for a given
# binary and input, whatever else the machine is doing, where a timed burst moves by 20%
# from run to run on a shared machine. Each contender makes CALLS calls inside the one
# function callgrind counts (`measure` in snowflake-bench/src/bin/per_call.rs), then again
# 0; the figure is the difference over CALLS. Under valgrind the clock's own vDSO work is
# not counted as instructions of the program, so these are what each generator adds around
# its reading.
#   bash scripts/bench/instructions.sh [CALLS] [PROFILE]
# CALLS 200000 and PROFILE bench-lto (fat LTO, one codegen unit: a user's LTO build) by
# default; `bench-thin` for thin LTO, `release` for the default release profile, as users
# build the peers too. The clocks alone come last: each generator's figure includes its
# clock's. Needs valgrind (Debian: valgrind).
set -euo pipefail
cd "$(dirname "$0")/../.."
calls=${1:-200000}
profile=${2:-bench-lto}
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (Debian: valgrind)" >&2; exit 1; }
cargo build --quiet --locked -p snowflake-bench --bin per_call --profile "$profile"
dir=target/$profile
[ "$profile" = dev ] && dir=target/debug
bin=$dir/per_call
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Instructions callgrind counted inside `measure` for `$1` making `$2` calls.
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg" --toggle-collect='*measure*' \
        "$bin" "$1" "$2" >/dev/null 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
    sed -n 's/^summary: //p' "$out/cg"
}

printf '| generator (%s, %s calls) | instructions per call | vs plain |\n| --- | ---: | ---: |\n' "$profile" "$calls"
plain=
for contender in plain next_id next_id_of try_next_id fill fenced leased snowdon snowflaked rs-snowflake twitter_snowflake clock systemtime instant; do
    ir=$(( $(count "$contender" "$calls") - $(count "$contender" 0) ))
    per=$(awk -v ir="$ir" -v n="$calls" 'BEGIN { printf "%.1f", ir / n }')
    [ -n "$plain" ] || plain=$per
    printf '| %s | %s | %s |\n' "$contender" "$per" "$(awk -v a="$per" -v b="$plain" 'BEGIN { printf "%.2fx", a / b }')"
done
