#!/usr/bin/env bash
# The core (snowflake-runtime, snowflake-macros, the facade) on its oldest promised compiler,
# Rust 1.85: Debian 12's rustc-web and cargo-web, pinned, installed with apt when missing.
# Builds and runs the core's own tests with default features and without, so that an API
# newer than 1.85 fails here. The trybuild cases run on 1.85 too: five whose messages are
# rustc's own and worded otherwise by 1.85 (a panic in const evaluation, a trait's help, a
# generic type's name in "no method found") from tests/ui/fail-rust-1.85, each with the
# .stderr that 1.85 gives (SNOWFLAKE_MSRV, set below, picks them; tests/macro/tests/
# compiletest.rs lists them). When a compiler changes a message, refresh the .stderr on
# that compiler (`TRYBUILD=overwrite`, here for 1.85) and read the diff.
# With --features it measures instead what each feature needs, as a user on 1.85 sees it: a
# crate of its own per feature (and the lease crate), resolved by cargo 1.85's MSRV-aware
# resolver, checked; it prints OK or the packages that need a newer Rust (the README's
# feature table). Not run by CI: it resolves afresh from crates.io.
#   bash scripts/msrv.sh              the core's tests on 1.85
#   bash scripts/msrv.sh --features   each feature in a user's crate on 1.85
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.85.0+dfsg3-1~deb12u3
if ! /usr/bin/cargo --version 2>/dev/null | grep -q '^cargo 1\.85\.' ||
    ! /usr/bin/rustc --version 2>/dev/null | grep -q '^rustc 1\.85\.'; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "needs Rust 1.85 in /usr/bin (Debian's rustc-web and cargo-web $version)" >&2
        exit 1
    fi
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "installing rustc-web and cargo-web $version"
    $sudo apt-get update -qq
    # --allow-downgrades: where a newer rustc-web (from bookworm-security) is installed. Its
    # standard library pinned too: apt would otherwise pick bookworm-security's newer one for
    # rustc-web's exact dependency, and give up.
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        --allow-downgrades "rustc-web=$version" "cargo-web=$version" \
        "libstd-rust-web-dev=$version" >/dev/null; then
        echo "rustc-web and cargo-web $version could not be installed: if Debian no longer" \
            "serves that version, pin the 1.85 it serves here and in CONTRIBUTING.md" >&2
        exit 1
    fi
fi

# /usr/bin first: Debian's cargo and the rustc it runs, not rustup's proxies. A target
# directory of its own, so the newest compiler's builds are left as they are; absolute, or
# trybuild, which runs cargo from tests/macro, would build its cases in a second one there.
export PATH="/usr/bin:$PATH" CARGO_TARGET_DIR="$PWD/target/msrv" SNOWFLAKE_MSRV=1
cargo --version
rustc --version

if [ "${1:-}" = --features ]; then
    here=$PWD
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    export CARGO_TARGET_DIR="$here/target/msrv-features"
    user_crate() {
        local name=$1 dependency=$2
        mkdir -p "$scratch/$name/src"
        : >"$scratch/$name/src/lib.rs"
        printf '[package]\nname = "user"\nversion = "0.0.0"\nedition = "2024"\nrust-version = "1.85"\n[dependencies]\n%s\n[workspace]\n' \
            "$dependency" >"$scratch/$name/Cargo.toml"
        if out=$(cd "$scratch/$name" && cargo check 2>&1); then
            echo "OK   $name"
        else
            echo "FAIL $name"
            printf '%s\n' "$out" | grep -E '^error|requires rustc' | head -4 || true
        fi
    }
    user_crate default "snowflake-kit = { path = \"$here\" }"
    user_crate no-std "snowflake-kit = { path = \"$here\", default-features = false, features = [\"macros\", \"serde\"] }"
    for feature in serde tokio sqlx-postgres sqlx-sqlite postgres diesel diesel-sqlite sea-orm utoipa schemars async-graphql arbitrary; do
        user_crate "$feature" "snowflake-kit = { path = \"$here\", features = [\"$feature\"] }"
    done
    user_crate lease "snowflake-lease = { path = \"$here/snowflake-lease\", features = [\"postgres\", \"tls\"] }"
    exit 0
fi

core=(-p snowflake-runtime -p snowflake-macros -p snowflake-kit -p snowflake-kit-macro-tests)
cargo test --locked "${core[@]}"
# Without default features. The runtime's library as no_std code has it, built (its tests
# use the facade with std, which cargo would turn on for the runtime too); the facade with
# the macro alone, its library, tests and examples run (its doc examples use the generator,
# which needs std).
cargo build --locked -p snowflake-runtime --no-default-features
cargo build --locked -p snowflake-runtime --no-default-features --features serde
cargo test --locked -p snowflake-kit --no-default-features --features macros --lib --tests --examples
