# Sourced by the compile-cost scripts: `seconds CMD...` runs CMD quietly and prints its wall
# time in seconds. A failed build is no figure: it prints the build's last lines and fails,
# and with `inherit_errexit` a failure inside $(...) stops the sourcing script too.
shopt -s inherit_errexit

seconds() {
    local start end log
    log=$(mktemp)
    start=$(date +%s.%N)
    if ! "$@" >"$log" 2>&1; then
        echo "failed: $*" >&2
        tail -20 "$log" >&2
        rm -f "$log"
        return 1
    fi
    end=$(date +%s.%N)
    rm -f "$log"
    awk "BEGIN { printf \"%.2f\", $end - $start }"
}
