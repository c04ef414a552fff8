#!/usr/bin/env bash
# Fuzzes every target with AFL++ (cargo-afl, on the stable toolchain) for SECONDS each, as
# many at once as the machine has cores, from the corpus kept in fuzz/corpus/<target>/; fails if any target
# crashes (a panic is an abort under AFL++) or barely ran (fewer executions than
# seconds), printing the crashing inputs, which are kept in
# target/fuzz/<target>/default/crashes/. Prints each target's figures from AFL++'s
# fuzzer_stats. Installs cargo-afl (pinned) and builds AFL++ when missing.
#   bash scripts/fuzz.sh SECONDS [TARGET...]                  fuzz (CI: about 60 each)
#   bash scripts/fuzz.sh SECONDS --update-corpus [TARGET...]  and then merge what the run
#       found into fuzz/corpus/<target>/, minimized with `cargo afl cmin`
# Targets: from_str field_parse rfc3339 macro_tokens server (fuzz/), decode (snowflake-cli).
# A crash's input replays without AFL++, e.g.
#   cargo run -p snowflake-kit-fuzz --bin rfc3339 < target/fuzz/rfc3339/default/crashes/id:...
# and, copied into fuzz/corpus/<target>/, stays a test of `cargo test` (fuzz/tests/corpus.rs,
# and the decode_corpus test of the command).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: scripts/fuzz.sh SECONDS [--update-corpus] [TARGET...]}
shift
update=false
if [ "${1:-}" = --update-corpus ]; then
    update=true
    shift
fi
all=(from_str field_parse rfc3339 macro_tokens decode server)
targets=("${@:-${all[@]}}")

bash scripts/tools.sh cargo-afl
# AFL++ and its runtime, built once for each toolchain (usually by the install already).
if ! built=$(cargo afl config --build 2>&1) && ! grep -q "already built" <<<"$built"; then
    printf '%s\n' "$built" >&2
    exit 1
fi

plain_target=${CARGO_TARGET_DIR:-target}
# Instrumented builds in a target directory of their own: `--cfg fuzzing` and the
# instrumentation would otherwise rebuild the workspace's normal build each time.
export CARGO_TARGET_DIR=target/afl
# Only the packages and features of the targets asked for: the server's instrumented build
# (axum, tokio, etcd-client) is most of a run's time.
packages=(-p snowflake-kit-fuzz --no-default-features)
for target in "${targets[@]}"; do
    case "$target" in
        decode) packages+=(-p snowflake-cli) ;;
        server) packages+=(--features server) ;;
    esac
done
cargo afl build --locked "${packages[@]}"

# The plain build of the targets of fuzz/, to replay what AFL++ keeps.
CARGO_TARGET_DIR=$plain_target cargo build --locked -p snowflake-kit-fuzz

# No terminal UI; no CPU frequency or core binding checks (shared machines, containers);
# a core_pattern that pipes core dumps (as in many containers, where it cannot be
# changed) only makes crashes slower to see, which we accept rather than edit the host's
# /proc/sys/kernel/core_pattern.
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1

binary() {
    case "$1" in
        decode) echo target/afl/debug/snowflake ;;
        *) echo "target/afl/debug/$1" ;;
    esac
}

stat_of() { sed -n "s/^$2 *: //p" "$1"; }

failed=()
# Each afl-fuzz keeps one core busy: as many at once as the machine has cores, each for its
# whole time, so that two targets on two cores take the time of one.
jobs=$(nproc 2>/dev/null || echo 1)
running=0
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    [ -d "$corpus" ] || { echo "no corpus for target $target ($corpus)" >&2; exit 2; }
    out=target/fuzz/$target
    rm -rf "$out"
    mkdir -p "$out"
    echo "== fuzzing $target for $seconds s"
    (
        status=0
        cargo afl fuzz -i "$corpus" -o "$out" -V "$seconds" -- "$(binary "$target")" >"$out/log" 2>&1 || status=$?
        echo "$status" >"$out/status"
    ) &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    out=target/fuzz/$target
    if [ "$(cat "$out/status" 2>/dev/null)" != 0 ]; then
        tail -30 "$out/log" >&2
        failed+=("$target (afl-fuzz failed)")
        continue
    fi
    stats=$out/default/fuzzer_stats
    crashes=$(find "$out/default/crashes" -type f ! -name README.txt | sort)
    hangs=$(find "$out/default/hangs" -type f | wc -l)
    printf '%s: %s execs in %s s (%s/s), edges %s of %s (bitmap %s), corpus %s, crashes %s, hangs %s\n' \
        "$target" "$(stat_of "$stats" execs_done)" "$(stat_of "$stats" run_time)" \
        "$(stat_of "$stats" execs_per_sec)" "$(stat_of "$stats" edges_found)" \
        "$(stat_of "$stats" total_edges)" "$(stat_of "$stats" bitmap_cvg)" \
        "$(stat_of "$stats" corpus_count)" "$(stat_of "$stats" saved_crashes)" "$hangs"
    # No crash counts only if the target ran: at least one execution a second of its time.
    execs=$(stat_of "$stats" execs_done)
    if ! [[ $execs =~ ^[0-9]+$ ]] || [ "$execs" -lt "$seconds" ]; then
        failed+=("$target (${execs:-no} executions)")
    fi
    # The kept inputs again through the plain build, which has what the fuzzing build
    # leaves out (proc-macro2's span locations: every error of the macro points into its
    # input).
    case "$target" in
        decode | server) ;;
        *) "$plain_target/debug/$target" "$out/default/queue" 2>"$out/replay.log" ||
            { cat "$out/replay.log" >&2; failed+=("$target (replay)"); } ;;
    esac
    if [ -n "$crashes" ]; then
        failed+=("$target")
        while read -r crash; do
            echo "crash: $crash"
            od -c "$crash" | head -8
        done <<<"$crashes"
    fi
    if $update; then
        merged=$out/merged
        mkdir -p "$out/all"
        cp "$corpus"/* "$out/default/queue"/id:* "$out/all/" 2>/dev/null || true
        # An explicit map size: left to itself, cmin sizes the map of a small target to its
        # edges and then sees none of them (AFL++ 4.40c).
        AFL_MAP_SIZE=131072 cargo afl cmin -i "$out/all" -o "$merged" -- "$(binary "$target")" >"$out/cmin.log" 2>&1
        rm -f "$corpus"/*
        cp "$merged"/* "$corpus/"
        # AFL++'s names (id:..., with colons, longer at each merge) become the content's
        # hash; a name given by hand, such as a regression's, stays.
        for file in "$corpus"/id[:_]*; do
            [ -e "$file" ] || continue
            hash=$(sha1sum "$file" | cut -c1-16)
            mv "$file" "$corpus/$hash"
        done
        echo "$target: corpus minimized to $(ls "$corpus" | wc -l) files"
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing failed in: ${failed[*]}" >&2
    exit 1
fi
echo "no crash in ${targets[*]}"
