#!/bin/sh
# Adds up the "passed failed skipped" lines that tests/run-suites.sh appended
# to $1 and prints the closing line of `make test`:
#   test: N passed, N failed, N skipped
# Exit status 1 when any failed or when no test ran at all.
awk '{ p += $1; f += $2; s += $3 }
     END { printf "test: %d passed, %d failed, %d skipped\n", p, f, s;
           exit (f > 0 || p == 0) }' "$1"
