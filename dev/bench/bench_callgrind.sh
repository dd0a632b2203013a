#!/bin/sh
# bench_callgrind.sh BUILD_DIR: instructions per node evaluation and per loaded
# byte on the benchmark shapes, counted by valgrind's callgrind (exact and
# repeatable, unlike timings on a shared machine). Run by `make
# bench-callgrind` after `make bench` has generated BUILD_DIR/bench-data/.
#
# For each shape: `kf3ds-bench --once` (one load, one evaluation run) with the
# frames dev/bench/bench.sh uses, counting only inside kf3ds_scene_eval, and then
# only inside kf3ds_load_file; the same with BUILD_DIR/bench-lib3ds
# (lib3ds_file_eval, lib3ds_file_load) when BENCH_CG_LIB3DS=1 (lib3ds runs
# 5-30x more instructions: that takes minutes per shape). Prints a table:
# instructions per node evaluation, per byte loaded. Informative: exits 0.
#
# Environment: BENCH_ONLY (as for dev/bench/bench.sh), BENCH_CG_LIB3DS.

B=${1:-build}
KF="$B/kf3ds-bench"
LB="$B/bench-lib3ds"
DATA="$B/bench-data"
OUT="$DATA/callgrind.txt" # lines: NAME BYTES KEVAL_IR NODE_EVALS KLOAD_IR LEVAL_IR LLOAD_IR

if ! command -v valgrind >/dev/null; then
  echo "bench_callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2
  exit 0
fi
if [ ! -s "$DATA/list.txt" ]; then
  echo "bench_callgrind.sh: no $DATA/list.txt: run 'make bench' first" >&2
  exit 0
fi

wanted() {
  [ -z "${BENCH_ONLY:-}" ] && return 0
  for w in $BENCH_ONLY; do [ "$w" = "$1" ] && return 0; done
  return 1
}

# count FUNCTION PROGRAM ARGS...: instructions executed inside FUNCTION (and
# what it calls), or "-" when the run fails.
count() {
  fn=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$fn" "$@" \
    > "$DATA/cg.stdout" 2> "$DATA/cg.stderr" < /dev/null
  awk '/Collected :/ { n = $NF } END { print (n == "" ? "-" : n) }' "$DATA/cg.stderr"
}

: > "$OUT"
while read -r name path frames span; do
  case "$name" in bench-*) ;; *) continue ;; esac
  wanted "$name" || continue
  if [ "$span" != 0 ]; then set -- --random-frames "$span" "$path" "$frames"
  else set -- "$path" "$frames"; fi
  echo "callgrind: $name" >&2
  ke=$(count kf3ds_scene_eval "$KF" --once "$@")
  evals=$(awk '$1 == "load_ms" { print $6 }' "$DATA/cg.stdout")
  kl=$(count kf3ds_load_file "$KF" --once "$@")
  le="-" ll="-"
  if [ "${BENCH_CG_LIB3DS:-0}" = 1 ] && [ -x "$LB" ]; then
    le=$(count lib3ds_file_eval "$LB" --once "$@")
    ll=$(count lib3ds_file_load "$LB" --once "$@")
  fi
  echo "$name $(wc -c < "$path" | tr -d ' ') $ke ${evals:-0} $kl $le $ll" >> "$OUT"
done < "$DATA/list.txt"

echo
awk '
function per(ir, n, d) { return (ir == "-" || n + 0 <= 0) ? "-" : sprintf("%." d "f", ir / n) }
function ratio(a, b) { return (a == "-" || b == "-" || b + 0 <= 0) ? "-" : sprintf("%.1fx", a / b) }
BEGIN {
  fmt = "%-16s %11s %11s %7s %11s %11s %7s\n"
  printf "instructions (callgrind; one run with the frames of make bench)\n"
  printf fmt, "file", "kf3ds", "lib3ds", "ratio", "kf3ds", "lib3ds", "ratio"
  printf fmt, "", "/node eval", "/node eval", "", "/byte load", "/byte load", ""
}
{ printf fmt, $1, per($3, $4, 1), per($6, $4, 1), ratio($6, $3), per($5, $2, 2), per($7, $2, 2),
         ratio($7, $5) }' "$OUT"
exit 0
