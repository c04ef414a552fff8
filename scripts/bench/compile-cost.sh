#!/usr/bin/env bash
# Compile cost of `snowflake!`, measured on this machine:
#   1. cold build of the facade with and without the `macros` feature (debug, all dependencies),
#      best of 3 cold builds each; with a git revision as argument, that revision's facade too,
#      in the same run, for a before-and-after;
#   2. files of 10,000 constants, rebuilt in turns, best of 3 each: integer literals; the
#      floor, a proc macro that does nothing behind a wrapper like the facade's; the same
#      answering `snowflake!`'s expansion; that expansion written out; `snowflake!` with
#      integers; `snowflake!` with RFC 3339 dates; `snowflake!` with a pasted ID.
# Usage: bash scripts/bench/compile-cost.sh [REV | --consts]   (from anywhere; takes a few
# minutes; --consts: part 2 alone)
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

consts_only=false
if [ "${1:-}" = --consts ]; then
    consts_only=true
    shift
fi
if ! $consts_only; then
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
fi

echo
echo "## 10,000 constants: snowflake! against the floor of a proc macro"
# Beside the facade, a proc macro that does nothing (it counts its tokens and answers a
# fixed expansion) behind a wrapper like the facade's `snowflake!`: what any proc macro
# called this way costs, the floor that `snowflake!` is held to.
mkdir -p "$work/floor_macros/src" "$work/floor/src"
cat >"$work/floor_macros/Cargo.toml" <<'TOML'
[package]
name = "floor_macros"
version = "0.0.0"
edition = "2024"
publish = false
[lib]
proc-macro = true
[workspace]
TOML
cat >"$work/floor_macros/src/lib.rs" <<'RS'
//! Proc macros that read their tokens and do nothing with them.
use proc_macro::TokenStream;

/// One `u64` literal.
#[proc_macro]
pub fn literal(input: TokenStream) -> TokenStream {
    let _ = input.into_iter().count();
    "0u64".parse().unwrap()
}

/// The shape of `snowflake!`'s expansion, always for ID 0.
#[proc_macro]
pub fn baked(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let Some(proc_macro::TokenTree::Group(krate)) = tokens.next() else { panic!() };
    let _ = tokens.count();
    let mut out = krate.stream();
    out.extend("::__private::baked(0u64, \"0 00000000000000000000000000000000000000000 00000 00000 000000000000\")".parse::<TokenStream>().unwrap());
    out
}
RS
cat >"$work/floor/Cargo.toml" <<TOML
[package]
name = "floor"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
floor_macros = { path = "../floor_macros" }
snowflake-kit = { path = "$root" }
[workspace]
TOML
cat >"$work/floor/src/lib.rs" <<'RS'
//! Wrappers as the facade's `snowflake!` is written.
#[macro_export]
macro_rules! literal {
    ($($args:tt)*) => { $crate::__private::literal!([$crate] $($args)*) };
}
#[macro_export]
macro_rules! baked {
    ($($args:tt)*) => { $crate::__private::baked!([$crate] $($args)*) };
}
#[doc(hidden)]
pub mod __private {
    pub use floor_macros::{baked, literal};
    pub use snowflake_kit::__private::*;
}
RS
make_crate() { # name, kind of line
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
floor = { path = "../floor" }
[workspace]
TOML
    python3 - "$2" >"$dir/src/lib.rs" <<'PY'
import sys, time
kind = sys.argv[1]
print("#![allow(dead_code)]")
for n in range(10_000):
    ts, dc, machine, seq = 1_656_432_460_105 + n * 7919, n % 32, (n // 32) % 32, n % 4096
    delta = ts - 1_288_834_974_657
    args = f"ts = {ts}, dc = {dc}, machine = {machine}, seq = {seq}"
    if kind == "dates":
        date = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts // 1000)) + f".{ts % 1000:03d}Z"
        print(f'pub const ID_{n}: u64 = snowflake_kit::snowflake!(ts = "{date}", dc = {dc}, machine = {machine}, seq = {seq}).id;')
    elif kind == "macro":
        print(f"pub const ID_{n}: u64 = snowflake_kit::snowflake!({args}).id;")
    elif kind == "pasted":
        value = (delta << 22) | (dc << 17) | (machine << 12) | seq
        print(f"pub const ID_{n}: u64 = snowflake_kit::snowflake!(id = {value}).id;")
    elif kind == "floor_literal":
        print(f"pub const ID_{n}: u64 = floor::literal!({args});")
    elif kind == "floor_baked":
        print(f"pub const ID_{n}: u64 = floor::baked!({args}).id;")
    elif kind == "expansion":
        value = (delta << 22) | (dc << 17) | (machine << 12) | seq
        bits = f"0 {delta:041b} {dc:05b} {machine:05b} {seq:012b}"
        print(f'pub const ID_{n}: u64 = snowflake_kit::__private::baked({value}u64, "{bits}").id;')
    else:
        value = (delta << 22) | (dc << 17) | (machine << 12) | seq
        print(f"pub const ID_{n}: u64 = {value};")
PY
    cargo build --manifest-path "$dir/Cargo.toml" --target-dir "$work/consts" -q 2>/dev/null || true
    touch "$dir/src/lib.rs"
}
kinds="plain floor_literal floor_baked expansion macro dates pasted"
for kind in $kinds; do
    make_crate "ids_$kind" "$kind"
done
declare -A took
# In turns, a round at a time, so that a slow moment of the machine falls on every kind.
for kind in $kinds; do took[$kind]=999999; done
for _ in $(seq $runs); do
    for kind in $kinds; do
        touch "$work/ids_$kind/src/lib.rs"
        t=$(seconds cargo build --manifest-path "$work/ids_$kind/Cargo.toml" --target-dir "$work/consts")
        took[$kind]=$(awk "BEGIN { print ($t < ${took[$kind]}) ? $t : ${took[$kind]} }")
    done
done
row() { # label, kind
    awk -v label="$1" -v t="${took[$2]}" -v plain="${took[plain]}" -v floor="${took[floor_literal]}" \
        'BEGIN { printf "| %s | %.2f | %.2fx | %.2fx |\n", label, t, t / plain, t / floor }'
}
echo "| 10,000 constants, each | seconds (best of $runs) | vs literals | vs the floor |"
echo "| --- | ---: | ---: | ---: |"
row "an integer literal" plain
row "the floor: a proc macro that reads its tokens and answers a literal, behind a wrapper" floor_literal
row "the same, answering \`snowflake!\`'s expansion for ID 0 (\`.id\` read)" floor_baked
row "\`snowflake!\`'s expansion written out (\`__private::baked(ID, BITS).id\`)" expansion
row "\`snowflake!(ts = MS, dc = .., machine = .., seq = ..).id\`" macro
row "\`snowflake!(ts = \"RFC 3339\", ..).id\`" dates
row "\`snowflake!(id = ID).id\`, a pasted ID" pasted
echo
awk -v m="${took[macro]}" -v d="${took[dates]}" -v p="${took[pasted]}" -v f="${took[floor_literal]}" \
    'BEGIN { printf "against the floor (bar: at most 1.6x): integers %.2fx, dates %.2fx, pasted IDs %.2fx\n", m / f, d / f, p / f }'
