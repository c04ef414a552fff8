#!/usr/bin/env bash
# Planted bugs: proves that the lease tests catch the bugs they exist to catch. Each
# scripts/planted/*.patch plants one (its header says which) in a copy of the working tree;
# every test that a patch's `Caught by: TARGET [TEST...]` lines name (the fault test,
# snowflake-lease/tests/faults, when none; `postgres_faults`, its checks on a real
# PostgreSQL; `postgres`, the tests of PgStore, for the bugs planted there) must fail with
# it, and pass on the copy unpatched. A line per bug and test, caught or missed; exits
# non-zero on a miss.
# The bugs planted in `snowflake.next_id()` (`Caught by: next_id_faults`) are caught by its
# randomized fault run alone, built once from the working tree and given each patched SQL
# at run time (NEXT_ID_FAULTS_SQL), two runs at a time, each stopping at its first breach
# and given NEXT_ID_FAULTS_BUDGET seconds (default 180) to find one (and a second run, with
# a seed of its own, where the first found none; the line says so), beside the unpatched run
# (NEXT_ID_FAULTS_SECONDS, default 150, the tests' own length: CI runs it here only).
#   bash scripts/planted-bugs.sh [PATCH...]   (every patch of scripts/planted/ when none)
# The copy lives at target/planted/tree, a fixed path that keeps its builds incremental (a
# new path each run would rebuild the workspace crates, and leave their old builds behind),
# and builds into the workspace's own target directory: the dependencies, built alike, are
# the tests' own, and only what a patch changes is built again. Cargo names a workspace's
# crates by their paths inside it, so the copy's build of a patched crate takes the place of
# the working tree's, and records the copy's files as its sources (the copy is under target/):
# the working tree's next build would take it as fresh, planted bug and all, whatever was
# edited since. So when the script ends, however it ends, those crates' builds are removed
# (`cargo clean -p`), and the next build there is of the working tree's files.
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
# Every patch, or those given (`bash scripts/planted-bugs.sh scripts/planted/next-id-*.patch`);
# those of next_id's fault run apart.
if [ $# -gt 0 ]; then given=("$@"); else given=(scripts/planted/*.patch); fi
patches=() next_id_patches=()
for patch in "${given[@]}"; do
    if grep -q '^Caught by: next_id_faults' "$patch"; then next_id_patches+=("$patch"); else patches+=("$patch"); fi
done
missed=0

# next_id's fault run: the unpatched run passes, and each patched one breaches (its line
# `NEXT_ID_FAULTS: seed N: ...` says how, and the seed that replays it).
if [ ${#next_id_patches[@]} -gt 0 ]; then
    budget=${NEXT_ID_FAULTS_BUDGET:-180}
    rm -rf "$work/next-id"
    mkdir -p "$work/next-id"
    # As the tests build it (scripts/test.sh), so that CI builds nothing again here.
    runner=$(cargo test --workspace --all-features --locked --test next_id_faults --no-run 2>&1 |
        sed -n 's/.*Executable .*(\(.*\))$/\1/p')
    [ -x "$runner" ] || { echo "planted bugs: next_id's fault run did not build" >&2; exit 1; }
    fault_run() { # NAME [SQL]: a run, its log in $work/next-id/NAME.log
        local name=$1 sql=${2:-} seconds=${NEXT_ID_FAULTS_SECONDS:-150}
        if [ -n "$sql" ]; then
            export NEXT_ID_FAULTS_SQL=$sql
            seconds=$budget
        else
            unset NEXT_ID_FAULTS_SQL
        fi
        local status=0
        NEXT_ID_FAULTS_SECONDS=$seconds "$runner" --include-ignored --nocapture --exact \
            next_id_keeps_its_promise_under_random_faults </dev/null >"$work/next-id/$name.log" 2>&1 ||
            status=$?
        echo "$status" >"$work/next-id/$name.status"
    }
    jobs_running() { jobs -rp | wc -l; }
    for patch in "" "${next_id_patches[@]}"; do
        while [ "$(jobs_running)" -ge 2 ]; do sleep 1; done
        if [ -z "$patch" ]; then
            fault_run unpatched &
            continue
        fi
        name=$(basename "$patch" .patch)
        if ! patch --quiet -o "$work/next-id/$name.sql" snowflake-runtime/sql/postgres-next-id.sql <"$patch"; then
            echo "error   $name: the patch does not apply"
            echo 1 >"$work/next-id/$name.status"
            continue
        fi
        # A second run, with a seed of its own, where the first found nothing: the line says
        # which caught it (a bug caught only so, or not at all, says the run needs work).
        { fault_run "$name" "$work/next-id/$name.sql"
          if [ "$(cat "$work/next-id/$name.status")" = 0 ]; then
              mv "$work/next-id/$name.log" "$work/next-id/$name.first.log"
              fault_run "$name" "$work/next-id/$name.sql"
          fi; } &
    done
    wait
    if [ "$(cat "$work/next-id/unpatched.status")" != 0 ]; then
        cat "$work/next-id/unpatched.log"
        echo "planted bugs: next_id's fault run fails without a planted bug (above)" >&2
        exit 1
    fi
    echo "unpatched: next_id_faults passes ($(grep -o '[0-9]* IDs checked' "$work/next-id/unpatched.log"), $((SECONDS - started)) s so far)"
    for patch in "${next_id_patches[@]}"; do
        name=$(basename "$patch" .patch)
        log=$work/next-id/$name.log
        if [ ! -e "$log" ]; then
            missed=$((missed + 1))
        elif [ "$(cat "$work/next-id/$name.status")" = 0 ]; then
            echo "missed  $name by next_id_faults in $budget s"
            missed=$((missed + 1))
        elif verdict=$(grep -m1 '^NEXT_ID_FAULTS: seed [0-9]*: ' "$log"); then
            run=""
            [ ! -e "$work/next-id/$name.first.log" ] || run=" (its second run)"
            echo "caught  $name by next_id_faults$run: ${verdict#NEXT_ID_FAULTS: }" | cut -c1-400
        else
            echo "error   $name by next_id_faults: the run failed without a breach (see $log)"
            missed=$((missed + 1))
        fi
    done
fi
if [ ${#patches[@]} -eq 0 ]; then
    echo "planted bugs: ${#next_id_patches[@]} planted, $missed missed, in $((SECONDS - started)) s"
    [ "$missed" -eq 0 ]
    exit
fi
# Cargo judges freshness by mtime. The files the patches change were last built patched,
# maybe more recently than the working tree's copies were written: make them newer.
patched_files() {
    for patch in "${patches[@]}"; do
        sed -n 's|^+++ b/||p' "$patch"
    done | sort -u
}
patched_files | (cd "$tree" && xargs touch)
# The copy's builds of the patched crates gone at the end (the header says why).
planted_crates=$(patched_files | cut -d/ -f1 | sort -u | sed 's/^/-p /')
# shellcheck disable=SC2086 # `-p NAME`, a word each
trap 'cargo clean --quiet $planted_crates' EXIT

# The test targets and test names a patch is caught by, a line each: `faults` unless it
# says (words in parentheses are the reader's).
caught_by() {
    local lines
    lines=$(sed -n 's/^Caught by: //p' "$1" | sed 's/ *(.*//')
    echo "${lines:-faults}"
}

# Runs a test target (and only the tests named, if any) in the copy; its output goes to
# $work/<name>.log. A target is the lease's (`faults`), or another package's
# (`snowflake-kit-sql-tests:next_id`), `lib` for its unit tests (`snowflake-server:lib`).
# The tests that need PostgreSQL are ignored without it: run them.
lease_test() {
    local name=$1 target=$2 package=snowflake-lease
    shift 2
    if [[ $target == *:* ]]; then
        package=${target%%:*} target=${target#*:}
    fi
    local which=(--test "$target")
    if [ "$target" = lib ]; then which=(--lib); fi
    (cd "$tree" && cargo test --locked -p "$package" "${which[@]}" -- --include-ignored "$@") </dev/null \
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
echo "planted bugs: $((${#patches[@]} + ${#next_id_patches[@]})) planted, $missed missed, in $((SECONDS - started)) s"
[ "$missed" -eq 0 ]
