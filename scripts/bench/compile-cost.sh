#!/usr/bin/env bash
# Compile cost of `snowflake!`, measured on this machine:
#   1. cold build of the facade with and without the `macros` feature (debug, all dependencies),
#      best of 3 cold builds each; with a git revision as argument, that revision's facade too,
#      in the same run, for a before-and-after;
#   2. a file of 10,000 `snowflake!` invocations against the same file with plain integers.
# Usage: bash scripts/bench/compile-cost.sh [REV]   (from anywhere; takes a few minutes)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# `seconds`, which stops the script at a build that failed.
source "$root/scripts/bench/timed.sh"
work="$root/target/compile-cost"
rm -rf "$work"
mkdir -p "$work"

runs=3
cold() { # best of $runs cold builds of the facade in workspace $1, with cargo flags "${@:2}"
    local best=999999 t ws=$1
    shift
    for _ in $(seq $runs); do
        rm -rf "$work/cold"
        t=$(seconds cargo build --manifest-path "$ws/Cargo.toml" -p snowflake-kit --target-dir "$work/cold" "$@")
        best=$(awk "BEGIN { print ($t < $best) ? $t : $best }")
    done
    printf '%.2f' "$best"
}

echo "## cold build of the facade (debug, from an empty target directory, best of $runs)"
# Fetch first, so that no download is timed.
cargo fetch --manifest-path "$root/Cargo.toml" >/dev/null 2>&1 || true
with=$(cold "$root")
without=$(cold "$root" --no-default-features --features std)
echo "| build | seconds |"
echo "| --- | ---: |"
echo "| \`snowflake-kit\`, default features (\`macros\`, \`std\`) | $with |"
echo "| \`snowflake-kit\`, \`std\` only | $without |"
if [ $# -ge 1 ]; then
    base="$work/base"
    mkdir -p "$base"
    git -C "$root" archive "$1" | tar -x -C "$base"
    cargo fetch --manifest-path "$base/Cargo.toml" >/dev/null 2>&1 || true
    before=$(cold "$base")
    echo "| \`snowflake-kit\` at \`$1\` ($(git -C "$root" rev-parse --short "$1")), default features | $before |"
fi

echo
echo "## 10,000 constants, with snowflake! and with plain integers"
make_crate() { # name, generator of line n
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
snowflake-kit = { path = "$root" }
[workspace]
TOML
    python3 - "$2" >"$dir/src/lib.rs" <<'PY'
import sys
kind = sys.argv[1]
print("#![allow(dead_code)]")
for n in range(10_000):
    ts, dc, machine, seq = 1_656_432_460_105 + n * 7919, n % 32, (n // 32) % 32, n % 4096
    if kind == "macro":
        print(f"pub const ID_{n}: u64 = snowflake_kit::snowflake!(ts = {ts}, dc = {dc}, machine = {machine}, seq = {seq}).id;")
    else:
        value = ((ts - 1_288_834_974_657) << 22) | (dc << 17) | (machine << 12) | seq
        print(f"pub const ID_{n}: u64 = {value};")
PY
    cargo build --manifest-path "$dir/Cargo.toml" --target-dir "$work/consts" -q 2>/dev/null || true
    touch "$dir/src/lib.rs"
}
make_crate ids_macro macro
make_crate ids_plain plain
best() { # best of $runs rebuilds of crate $1
    local best=999999 t
    for _ in $(seq $runs); do
        touch "$work/$1/src/lib.rs"
        t=$(seconds cargo build --manifest-path "$work/$1/Cargo.toml" --target-dir "$work/consts")
        best=$(awk "BEGIN { print ($t < $best) ? $t : $best }")
    done
    printf '%.2f' "$best"
}
macro=$(best ids_macro)
plain=$(best ids_plain)
echo "| file | seconds (best of $runs) |"
echo "| --- | ---: |"
echo "| 10,000 \`snowflake!(..).id\` | $macro |"
echo "| 10,000 integer literals | $plain |"
echo
awk "BEGIN { printf \"per invocation: %.0f µs more than a literal; ratio %.1f\\n\", ($macro - $plain) * 100, $macro / $plain }"
