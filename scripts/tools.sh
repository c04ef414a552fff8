#!/usr/bin/env bash
# The cargo tools our checks run, pinned here and nowhere else, each installed from crates.io
# when missing or at another version and found again when present: cargo-public-api
# (scripts/public-api.sh), cargo-afl (scripts/fuzz.sh), cargo-deny (.ci/run).
#   bash scripts/tools.sh               every one of them
#   bash scripts/tools.sh cargo-deny    the ones named
# Built for our build time, not for their speed: cargo-deny's own release profile asks for
# fat LTO in one codegen unit, minutes of one core on our 2-core machines for a tool that
# runs for seconds here. Cargo's configuration (these variables) overrides a manifest's
# profile. One target directory for all three, so that what they share at the same version
# and features is built once.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A versions=([cargo-public-api]=0.52.0 [cargo-afl]=0.18.2 [cargo-deny]=0.20.2)
order=(cargo-public-api cargo-afl cargo-deny)

# Whether the tool answers with the pinned version; each says its version its own way.
installed() {
    case $1 in
    cargo-afl) cargo afl --version 2>/dev/null | grep -q "^cargo-afl $2" ;;
    *) cargo "${1#cargo-}" --version 2>/dev/null | grep -q " $2$" ;;
    esac
}

tools=("${@:-${order[@]}}")
for tool in "${tools[@]}"; do
    version=${versions[$tool]:-}
    if [ -z "$version" ]; then
        echo "scripts/tools.sh: no pinned version of $tool; known: ${order[*]}" >&2
        exit 2
    fi
    installed "$tool" "$version" && continue
    echo "installing $tool $version"
    CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/tools" \
        CARGO_PROFILE_RELEASE_LTO=false \
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
        CARGO_PROFILE_RELEASE_DEBUG=false \
        cargo install --locked --quiet "$tool" --version "$version"
done
