#!/usr/bin/env bash
# The page as static files, with the runtime in WebAssembly: writes into DIR a page per
# language (id/, he/, en/), the front door that sends a reader to theirs (index.html), the
# script (page.js), the catalogues (locales/) and the module (snowflake-page.wasm). Any
# static file server serves it, at its root or under a sub-path (deploy/static-site.md).
#   bash scripts/site.sh DIR
# Needs the wasm32-unknown-unknown target (rustup adds it; where it cannot be downloaded,
# std is built for it from the toolchain's rust-src, as scripts/targets.sh does for core)
# and wasm-opt (Debian's binaryen).
set -euo pipefail
dir=${1:?usage: bash scripts/site.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.."

target=wasm32-unknown-unknown
flags=()
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target/lib" ] && ! rustup target add "$target" >/dev/null 2>&1; then
    echo "$target: not downloadable here; std is built for it from rust-src (-Zbuild-std)" >&2
    rustup component add rust-src >/dev/null 2>&1 || true
    flags=(-Zbuild-std=std,panic_abort)
    export RUSTC_BOOTSTRAP=1
fi
if ! command -v wasm-opt >/dev/null 2>&1; then
    echo "wasm-opt is not installed: \`apt-get install binaryen\` (Debian), or run \`bash scripts/test.sh --deps-only\`" >&2
    exit 1
fi

# Where cargo builds: CARGO_TARGET_DIR or its configuration, not `target/` (which may hold a
# stale module of an earlier build, or nothing).
built=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
cargo build --locked --quiet -p snowflake-site --lib --target "$target" --profile site "${flags[@]}"
unset RUSTC_BOOTSTRAP
mkdir -p "$built/site-module"
# The features rustc's wasm32 target turns on (a stripped module no longer names them).
wasm-opt -Oz --enable-bulk-memory --enable-multivalue --enable-mutable-globals \
    --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext \
    "$built/$target/site/snowflake_site.wasm" -o "$built/site-module/snowflake-page.wasm"
cargo run --locked --quiet -p snowflake-site --bin snowflake-site -- "$dir" "$built/site-module/snowflake-page.wasm"
module=$(stat -c %s "$dir/snowflake-page.wasm")
total=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
echo "site written to $dir: the module $module bytes, the site $total bytes"
