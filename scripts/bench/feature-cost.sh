#!/usr/bin/env bash
# What each optional feature adds to a cold build of the facade, measured on this machine:
# the default build, then the default build plus each feature alone, each from an empty
# target directory (debug, all dependencies, best of $RUNS, 1 unless set), with the number of
# crates it builds (`cargo tree`, deterministic where seconds are not).
# Usage: bash scripts/bench/feature-cost.sh [FEATURE...]   (default: the integrations)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# `seconds`, which stops the script at a build that failed.
source "$root/scripts/bench/timed.sh"
work="$root/target/feature-cost"
runs=${RUNS:-1}
features=("$@")
[ ${#features[@]} -gt 0 ] || features=(serde sea-orm utoipa schemars async-graphql arbitrary)

cold() { # best of $runs cold builds of the facade with cargo flags "$@"
    local best=999999 t
    for _ in $(seq "$runs"); do
        rm -rf "$work"
        t=$(seconds cargo build --manifest-path "$root/Cargo.toml" -p snowflake-kit --locked --target-dir "$work" "$@")
        best=$(awk "BEGIN { print ($t < $best) ? $t : $best }")
    done
    rm -rf "$work"
    printf '%.2f' "$best"
}

crates() { # crates in the facade's normal dependency tree with cargo flags "$@", itself included
    cargo tree --manifest-path "$root/Cargo.toml" -p snowflake-kit --locked -e normal,build --prefix none "$@" |
        sed 's/ (\*)$//' | sort -u | wc -l
}

cargo fetch --manifest-path "$root/Cargo.toml" --locked >/dev/null 2>&1 || true
base=$(cold)
base_crates=$(crates)
echo "| build of \`snowflake-kit\` (debug, cold, best of $runs) | crates | seconds | added |"
echo "| --- | ---: | ---: | ---: |"
echo "| default features (\`macros\`, \`std\`) | $base_crates | $base | |"
for feature in "${features[@]}"; do
    t=$(cold --features "$feature")
    n=$(crates --features "$feature")
    echo "| default + \`$feature\` | $n | $t | $(awk "BEGIN { printf \"%+.2f s, %+d crates\", $t - $base, $n - $base_crates }") |"
done
