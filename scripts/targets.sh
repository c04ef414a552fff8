#!/usr/bin/env bash
# The targets without std that CI builds the core for: WebAssembly (wasm32-unknown-unknown,
# which tests/wasm also runs in Node) and a bare x86_64 (x86_64-unknown-none). rustup adds
# them when it can download them; where it cannot, `core` is built for them from the
# toolchain's own source (the rust-src component), which is how CI gets a target it cannot
# download, not how users build (`-Zbuild-std` needs RUSTC_BOOTSTRAP=1 on a stable compiler).
#   bash scripts/targets.sh            add the targets (or rust-src), say which way
#   bash scripts/targets.sh --build    also build the facade without std for each
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(wasm32-unknown-unknown x86_64-unknown-none)
sysroot=$(rustc --print sysroot)
build_std=()
for target in "${targets[@]}"; do
    [ -d "$sysroot/lib/rustlib/$target/lib" ] && continue
    if rustup target add "$target"; then
        continue
    fi
    if [ -d "$sysroot/lib/rustlib/src/rust/library/core" ] || rustup component add rust-src; then
        echo "$target: not downloadable here; \`core\` is built for it from rust-src (-Zbuild-std)"
        build_std+=("$target")
    else
        echo "$target: neither the target nor rust-src can be added: \`rustup target add $target\`" >&2
        exit 1
    fi
done

[ "${1:-}" = --build ] || exit 0
for target in "${targets[@]}"; do
    flags=()
    if [[ " ${build_std[*]} " == *" $target "* ]]; then
        flags=(-Zbuild-std=core)
        export RUSTC_BOOTSTRAP=1
    fi
    # The facade as a no_std user has it: bare, with the macro, with serde.
    for features in "" macros macros,serde; do
        echo "== snowflake-kit for $target, features: ${features:-none}"
        cargo build --locked -p snowflake-kit --no-default-features --features "$features" \
            --target "$target" "${flags[@]}"
    done
    unset RUSTC_BOOTSTRAP
done
