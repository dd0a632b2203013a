#!/bin/sh
# Runs test programs and closes with one line for the whole run:
#   check: N passed, N failed, N skipped
# Arguments: cmocka programs (their own summary lines are read), and
# "--check NAME COMMAND" for a shell check that counts as one test (skipped
# when COMMAND exits with status 77, as automake's tests do). Every
# program runs even after a failure; the exit status is 1 when any failed.
# Each program and check ends with a line "NAME: S s", its time in seconds,
# so that a slow CI run shows where the time went.
# With KF3DS_TEST_COUNTS set, the counts are also appended to that file as
# "N N N", so that `make test` can add up its passes (tests/sum-counts.sh).
passed=0
failed=0
skipped=0
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT INT TERM

# The number in cmocka's summary line that starts with $1 ("PASSED"), or 0.
summary_count() {
    n=$(sed -n "s/^\[  $1 *\] \([0-9][0-9]*\) test(s).*/\1/p" "$log" | head -n 1)
    echo "${n:-0}"
}

run_suite() {
    echo "== $1"
    start=$(date +%s)
    "$1" > "$log" 2>&1
    status=$?
    cat "$log"
    echo "$1: $(($(date +%s) - start)) s"
    p=$(summary_count PASSED)
    f=$(summary_count FAILED)
    s=$(summary_count SKIPPED)
    if ! grep -q '^\[==========\] [0-9]* test(s) run\.' "$log"; then
        echo "$1: stopped (exit status $status) before cmocka's summary: one failure"
        f=$((f + 1))
    elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$1: exit status $status with no failed test listed: one failure"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
}

while [ $# -gt 0 ]; do
    if [ "$1" = --check ]; then
        echo "== $2"
        start=$(date +%s)
        sh -c "$3"
        status=$?
        echo "$2: $(($(date +%s) - start)) s"
        if [ "$status" -eq 0 ]; then passed=$((passed + 1))
        elif [ "$status" -eq 77 ]; then
            echo "$2: SKIPPED"
            skipped=$((skipped + 1))
        else
            echo "$2: FAILED"
            failed=$((failed + 1))
        fi
        shift 3
    else
        run_suite "$1"
        shift
    fi
done

[ -n "$KF3DS_TEST_COUNTS" ] && echo "$passed $failed $skipped" >> "$KF3DS_TEST_COUNTS"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
