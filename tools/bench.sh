#!/bin/sh
# bench.sh BUILD_DIR: kf3ds against lib3ds 1.3, load and evaluation.
#
# Generates the two benchmark files into BUILD_DIR/bench-data/ (regenerated
# when missing or older than BUILD_DIR/mk3ds):
#   bench-meshes.3ds  200 meshes x 20,000 vertices (~90 MB), evaluated at 10 frames
#   bench-nodes.3ds   2,000 animated nodes, 60 keys per track, evaluated at 1,000 frames
# and adds a few corpus files when the optional corpus has them (100 frames each).
# For each file it runs BUILD_DIR/kf3ds-bench and BUILD_DIR/bench-lib3ds with
# the same FRAMES, alternating, BENCH_ROUNDS times each (default 2), and prints
# a table of the best times and the ratios
# lib3ds/kf3ds, then a verdict against the targets (load >= 20x on the meshes
# file, eval >= 10x on the nodes file). Informative only: always exits 0.
#
# Environment: BENCH_CORPUS, the corpus directory (default $KF3DS_CORPUS, the
# project's variable for the optional corpus, else ../shared/corpus, relative to
# the project), BENCH_ROUNDS (default 2).

B=${1:-build}
KF="$B/kf3ds-bench"
LB="$B/bench-lib3ds"
MK="$B/mk3ds"
DATA="$B/bench-data"
CORPUS=${BENCH_CORPUS:-${KF3DS_CORPUS:-../shared/corpus}}
LOAD_TARGET=20
EVAL_TARGET=10

for p in "$KF" "$LB"; do
  if [ ! -x "$p" ]; then
    echo "bench.sh: $p is missing (run 'make bench')" >&2
    exit 0
  fi
done

mkdir -p "$DATA" || exit 0
LIST="$DATA/list.txt"      # lines: NAME PATH FRAMES
RESULTS="$DATA/results.txt" # lines: NAME KLOAD LLOAD KEVAL LEVAL KEVALS LEVALS
: > "$LIST"
: > "$RESULTS"

# ---- inputs ----------------------------------------------------------------
gen() { # gen KIND FRAMES
  f="$DATA/$1.3ds"
  if [ ! -x "$MK" ]; then
    echo "bench.sh: $MK is missing: skipping $1 (build it with 'make $MK')" >&2
    return
  fi
  if [ ! -s "$f" ] || [ "$MK" -nt "$f" ]; then
    echo "generating $f"
    if ! "$MK" "$1" "$f.tmp"; then
      echo "bench.sh: '$MK $1 $f' failed: skipping it" >&2
      rm -f "$f.tmp"
      return
    fi
    mv "$f.tmp" "$f"
  fi
  echo "$1 $f $2" >> "$LIST"
}
gen bench-meshes 10
gen bench-nodes 1000

for c in sr-CITY.3DS blitz3d-mak_robotic.3DS kjetilos-frigate.3ds; do
  [ -f "$CORPUS/$c" ] && echo "$c $CORPUS/$c 100" >> "$LIST"
done

# ---- runs --------------------------------------------------------------------
# last_line PROGRAM FILE FRAMES: prints "LOAD EVAL NODE_EVALS" or "fail fail 0".
last_line() {
  out=$("$1" "$2" "$3" < /dev/null 2> "$DATA/stderr.txt")
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "bench.sh: '$1 $2 $3' exited with status $rc:" >&2
    sed 's/^/  /' "$DATA/stderr.txt" >&2
    echo "fail fail 0"
    return
  fi
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  printf '%s\n' "$out" | tail -n 1 | awk '$1 == "load_ms" && $3 == "eval_ms" && $5 == "node_evals" \
    { print $2, $4, $6; ok = 1 } END { if (!ok) print "fail fail 0" }'
}

# best "LOAD EVAL N" "LOAD EVAL N": the smaller load and eval of two runs.
best() {
  echo "$1 $2" | awk '{ if ($1 == "fail" || $4 == "fail") print "fail fail 0";
                        else print ($1 < $4 ? $1 : $4), ($2 < $5 ? $2 : $5), $3 }'
}

# Each side runs ROUNDS times, alternating with the other, and its best counts:
# a burst of load on a shared machine then cannot hit one side alone.
ROUNDS=${BENCH_ROUNDS:-2}
while read -r name path frames; do
  echo "== $name ($path, $frames frames)" >&2
  k="" l="" r=0
  while [ $r -lt "$ROUNDS" ]; do
    echo "-- kf3ds" >&2
    x=$(last_line "$KF" "$path" "$frames")
    k=$(if [ -n "$k" ]; then best "$k" "$x"; else echo "$x"; fi)
    echo "-- lib3ds" >&2
    x=$(last_line "$LB" "$path" "$frames")
    l=$(if [ -n "$l" ]; then best "$l" "$x"; else echo "$x"; fi)
    r=$((r + 1))
  done
  set -- $k $l
  echo "$name $1 $4 $2 $5 $3 $6" >> "$RESULTS"
done < "$LIST"

# ---- table -------------------------------------------------------------------
echo
awk -v lt="$LOAD_TARGET" -v et="$EVAL_TARGET" '
function ratio(l, k) {
  if (l == "fail" || k == "fail") return "-"
  if (k + 0 <= 0) return "inf"
  return sprintf("%.1fx", l / k)
}
function rnum(l, k) { return (l == "fail" || k == "fail") ? -1 : (k + 0 <= 0 ? 1e30 : l / k) }
BEGIN {
  fmt = "%-24s %12s %12s %8s %12s %12s %8s  %s\n"
  printf fmt, "file", "kf3ds_load", "lib3ds_load", "ratio", "kf3ds_eval", "lib3ds_eval", "ratio", "note"
  printf fmt, "", "ms", "ms", "", "ms", "ms", "", ""
  lr = -2; er = -2
}
{
  note = ""
  if ($6 != $7) note = "node_evals differ: kf3ds " $6 ", lib3ds " $7
  printf fmt, $1, $2, $3, ratio($3, $2), $4, $5, ratio($5, $4), note
  if ($1 == "bench-meshes") lr = rnum($3, $2)
  if ($1 == "bench-nodes") er = rnum($5, $4)
}
END {
  printf "\n"
  v = "verdict:"
  if (lr == -2) v = v " load target (>= " lt "x on bench-meshes): not measured;"
  else if (lr < 0) v = v " load target (>= " lt "x on bench-meshes): run failed;"
  else v = v sprintf(" load %.1fx on bench-meshes (target >= %sx): %s;", lr, lt, lr >= lt ? "MET" : "MISSED")
  if (er == -2) v = v " eval target (>= " et "x on bench-nodes): not measured"
  else if (er < 0) v = v " eval target (>= " et "x on bench-nodes): run failed"
  else v = v sprintf(" eval %.1fx on bench-nodes (target >= %sx): %s", er, et, er >= et ? "MET" : "MISSED")
  print v
}' "$RESULTS"
exit 0
