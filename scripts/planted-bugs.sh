#!/usr/bin/env bash
# Planted bugs: proves that the lease fault test (snowflake-lease/tests/faults) catches the
# bugs it exists to catch. Each scripts/planted/*.patch plants one (its header says which)
# in a copy of the working tree; the fault test must fail on every one of them, and pass
# on the copy unpatched. One line per bug, caught or missed; exits non-zero on a miss.
#   bash scripts/planted-bugs.sh
# The copy lives at target/planted/tree and builds into target/planted/target: a fixed
# path keeps the builds incremental (a new path each run would rebuild the workspace
# crates, and leave their old builds behind).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
work=$PWD/target/planted
tree=$work/tree
export CARGO_TARGET_DIR=$work/target
export CARGO_TERM_COLOR=never

# The working tree as it is, uncommitted changes and new files included, ignored files not.
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
    tar --null -T - -cf - | tar -xf - -C "$tree"
patches=(scripts/planted/*.patch)
# Cargo judges freshness by mtime. The files the patches change were last built patched,
# maybe more recently than the working tree's copies were written: make them newer.
for patch in "${patches[@]}"; do
    sed -n 's|^+++ b/||p' "$patch"
done | sort -u | (cd "$tree" && xargs touch)

# Runs the fault test in the copy; its output goes to $work/<name>.log.
fault_test() {
    (cd "$tree" && cargo test --locked -p snowflake-lease --test faults) >"$work/$1.log" 2>&1
}

if ! fault_test unpatched; then
    cat "$work/unpatched.log"
    echo "planted bugs: the fault test fails without a planted bug (above)" >&2
    exit 1
fi
echo "unpatched: passes ($(grep -o '[0-9]* IDs checked' "$work/unpatched.log"), $((SECONDS - started)) s so far)"

missed=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    # patch(1), not git apply: inside this repository git would patch the real tree.
    if ! patch -d "$tree" -p1 --quiet --forward <"$patch"; then
        echo "error   $name: the patch does not apply"
        missed=$((missed + 1))
        continue
    fi
    if fault_test "$name"; then
        echo "missed  $name"
        missed=$((missed + 1))
    elif verdict=$(grep -m1 '^FAULTS: seed' "$work/$name.log"); then
        echo "caught  $name: ${verdict#FAULTS: }"
    else
        echo "error   $name: the test failed without a verdict (see $work/$name.log)"
        missed=$((missed + 1))
    fi
    patch -d "$tree" -p1 --quiet --reverse <"$patch"
done
echo "planted bugs: ${#patches[@]} planted, $missed missed, in $((SECONDS - started)) s"
[ "$missed" -eq 0 ]
