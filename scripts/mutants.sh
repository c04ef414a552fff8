#!/usr/bin/env bash
# Mutation testing of the runtime (and of the lease crate's pure logic): cargo-mutants
# changes the code one operator at a time and runs the tests; a mutant that survives is a
# test gap, unless it is equivalent (the program means the same). Equivalent mutants are
# listed below by name, with why, and excluded; every other survivor is a gap to close
# with a test that kills it.
#   bash scripts/mutants.sh             the runtime's format, fields, generator and dates
#   bash scripts/mutants.sh --lease     the lease crate's acquire and holder logic
#   bash scripts/mutants.sh --in-diff F only the code a diff changes (git diff > F), before
#                                       --lease or alone
# Long: about 550 mutants of the runtime, each a build and a test run (hours on 2 cores);
# --in-diff of a change is minutes. nextest runs no doctests: a rule checked only in its
# docs counts as missed, so every rule gets an integration test too. The database impls
# (src/sql) are left out: their features are off here, and tests/sql checks them against
# real databases.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v cargo-mutants >/dev/null 2>&1 || cargo install --locked cargo-mutants

# Equivalent mutants: the same program, so no test can tell them apart.
equivalent=(
    # Bits of different fields never overlap, so `|` and `^` (and `+`) agree.
    'replace \| with \^ in compose'
    'replace \| with \+ in compose'
    'replace \| with \^ in Generator<C>::id'
    'replace \| with \^ in Identity::bits'
    # SEQUENCE_SHIFT is 0: shifting by it either way is the identity.
    'replace << with >> in compose'
    'replace >> with << in Snowflake::sequence'
)
exclude=()
for pattern in "${equivalent[@]}"; do exclude+=(--exclude-re "$pattern"); done

in_diff=()
if [ "${1:-}" = --in-diff ]; then
    in_diff=(--in-diff "$2")
    shift 2
fi

if [ "${1:-}" = --lease ]; then
    # The etcd tests too: they are `#[ignore]`d for what they need, which nextest leaves out
    # unless asked (`--run-ignored all`, as the test command's `--include-ignored`).
    exec cargo mutants --package snowflake-lease --file snowflake-lease/src/acquire.rs \
        --file snowflake-lease/src/holder.rs --test-tool nextest "${in_diff[@]}" "${exclude[@]}" \
        -- --run-ignored all
fi
exec cargo mutants --package snowflake-runtime \
    --file snowflake-runtime/src/snowflake.rs --file snowflake-runtime/src/field.rs \
    --file snowflake-runtime/src/generator.rs --file snowflake-runtime/src/rfc3339.rs \
    --file snowflake-runtime/src/segment.rs --file snowflake-runtime/src/identity.rs \
    --file snowflake-runtime/src/error.rs --file snowflake-runtime/src/bounds.rs \
    --test-tool nextest "${in_diff[@]}" "${exclude[@]}"
