#!/usr/bin/env bash
# Planted bugs: proves that the lease tests catch the bugs they exist to catch. Each
# scripts/planted/*.patch plants one (its header says which) in a copy of the working tree;
# every test that a patch's `Caught by: TARGET [TEST...]` lines name (the fault test,
# snowflake-lease/tests/faults, when none; `postgres_faults`, its checks on a real
# PostgreSQL; `postgres`, the tests of PgStore, for the bugs planted there) must fail with
# it, and pass on the copy unpatched. A line per bug and test, caught or missed; exits
# non-zero on a miss.
#   bash scripts/planted-bugs.sh [PATCH...]   (every patch of scripts/planted/ when none)
# The copy lives at target/planted/tree, a fixed path that keeps its builds incremental (a
# new path each run would rebuild the workspace crates, and leave their old builds behind),
# and builds into the workspace's own target directory: the dependencies, built alike, are
# the tests' own, and only the copy's crates are built again (they are other packages to
# cargo, at another path, so nothing of the tests' own build is overwritten).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
work=$PWD/target/planted
tree=$work/tree
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
export CARGO_TERM_COLOR=never

# The working tree as it is, uncommitted changes and new files included, ignored files not.
rm -rf "$tree"
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do if [ -e "$file" ]; then printf '%s\0' "$file"; fi; done |
    tar --null -T - -cf - | tar -xf - -C "$tree"
# Every patch, or those given (`bash scripts/planted-bugs.sh scripts/planted/next-id-*.patch`).
if [ $# -gt 0 ]; then patches=("$@"); else patches=(scripts/planted/*.patch); fi
# Cargo judges freshness by mtime. The files the patches change were last built patched,
# maybe more recently than the working tree's copies were written: make them newer.
for patch in "${patches[@]}"; do
    sed -n 's|^+++ b/||p' "$patch"
done | sort -u | (cd "$tree" && xargs touch)

# The test targets and test names a patch is caught by, a line each: `faults` unless it
# says (words in parentheses are the reader's).
caught_by() {
    local lines
    lines=$(sed -n 's/^Caught by: //p' "$1" | sed 's/ *(.*//')
    echo "${lines:-faults}"
}

# Runs a test target (and only the tests named, if any) in the copy; its output goes to
# $work/<name>.log. A target is the lease's (`faults`), or another package's
# (`snowflake-kit-sql-tests:next_id`). The tests that need PostgreSQL are ignored without
# it: run them.
lease_test() {
    local name=$1 target=$2 package=snowflake-lease
    shift 2
    if [[ $target == *:* ]]; then
        package=${target%%:*} target=${target#*:}
    fi
    (cd "$tree" && cargo test --locked -p "$package" --test "$target" -- --include-ignored "$@") </dev/null \
        >"$work/$name.log" 2>&1
}

# Unpatched, each target passes, with every test the patches name, each of which ran (a
# name that matches no test would run nothing, and pass).
for target in $(for patch in "${patches[@]}"; do caught_by "$patch" | cut -d' ' -f1; done | sort -u); do
    names=$(for patch in "${patches[@]}"; do
        caught_by "$patch" | while read -r t names; do
            if [ "$t" = "$target" ]; then echo "$names"; fi
        done
    done | tr ' ' '\n' | sort -u)
    # shellcheck disable=SC2086 # the test names, one word each
    if ! lease_test "unpatched-$target" "$target" $names; then
        cat "$work/unpatched-$target.log"
        echo "planted bugs: the $target test fails without a planted bug (above)" >&2
        exit 1
    fi
    for name in $names; do
        if ! grep -q "^test [^ ]*$name[^ ]* \.\.\. ok$" "$work/unpatched-$target.log"; then
            echo "planted bugs: no test of $target named like $name ran" >&2
            exit 1
        fi
    done
    checked=$(grep -o '[0-9]* IDs checked' "$work/unpatched-$target.log" || grep -o '[0-9]* passed' "$work/unpatched-$target.log" | tail -1)
    echo "unpatched: $target passes ($checked, $((SECONDS - started)) s so far)"
done

# Whether a failed run failed as the bug should make it: some test failed, each one a test
# the patch names (if it names any), none in the harness (a server that could not start),
# and the fault test with the verdict the patch's `Fails as:` line says (a breach of the
# fence, "breaks the fence", unless it says otherwise: a bug that issues nothing fails on
# the test's floor, "did too little"), so that a breach bug that merely stalls is no catch.
failed_as_planted() {
    local log=$1 target=$2 names=$3 patch=$4 failed test name ok verdict
    failed=$(sed -n 's/^test \([^ ]*\) \.\.\. FAILED$/\1/p' "$log")
    [ -n "$failed" ] || return 1
    ! grep -q 'panicked at tests/support/src' "$log" || return 1
    if [ -n "$names" ]; then
        for test in $failed; do
            ok=no
            for name in $names; do
                case $test in *"$name"*) ok=yes ;; esac
            done
            [ "$ok" = yes ] || return 1
        done
    fi
    verdict=$(sed -n 's/^Fails as: //p' "$patch")
    case $target in
        faults) grep -q "^FAULTS: seed [0-9]* (run [0-9]*) ${verdict:-breaks the fence}" "$log" ;;
        postgres_faults) grep -q ' breaches' "$log" ;;
        *) return 0 ;;
    esac
}

missed=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    # patch(1), not git apply: inside this repository git would patch the real tree.
    if ! patch -d "$tree" -p1 --quiet --forward <"$patch"; then
        echo "error   $name: the patch does not apply"
        missed=$((missed + 1))
        continue
    fi
    while read -r target names; do
        log="$name-$target"
        # shellcheck disable=SC2086 # the test names, one word each
        if lease_test "$log" "$target" $names; then
            echo "missed  $name by $target"
            missed=$((missed + 1))
        elif ! failed_as_planted "$work/$log.log" "$target" "$names" "$patch"; then
            echo "error   $name by $target: the tests failed otherwise than the bug would make them (see $work/$log.log)"
            missed=$((missed + 1))
        elif verdict=$(grep -m1 '^FAULTS: seed' "$work/$log.log"); then
            echo "caught  $name by $target: ${verdict#FAULTS: }"
        elif verdict=$(grep -m1 -A1 'panicked at' "$work/$log.log" | tr '\n' ' ' | cut -c1-240); then
            echo "caught  $name by $target: ${verdict#thread }"
        else
            echo "error   $name by $target: the test failed without a verdict (see $work/$log.log)"
            missed=$((missed + 1))
        fi
    done < <(caught_by "$patch")
    patch -d "$tree" -p1 --quiet --reverse <"$patch"
done
echo "planted bugs: ${#patches[@]} planted, $missed missed, in $((SECONDS - started)) s"
[ "$missed" -eq 0 ]
