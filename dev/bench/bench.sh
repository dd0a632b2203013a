#!/bin/sh
# bench.sh BUILD_DIR: kf3ds against lib3ds 1.3, load and evaluation, on every
# benchmark shape.
#
# Generates the benchmark files into BUILD_DIR/bench-data/ (regenerated when
# missing or older than BUILD_DIR/mk3ds; docs/performance.md, "The benchmark
# shapes", says what each shape stresses):
#   bench-meshes    200 meshes x 20,000 vertices (~90 MB), evaluated at 10 frames
#   bench-nodes     2,000 object nodes, 60 keys per track, parents first
#   bench-random    2,000 nodes, 1..60 keys per track, children often before
#                   parents, TCB and ease on a third of the keys, dummies
#   bench-chain     ten 200-level chains
#   bench-constant  one key per track except on 100 animated nodes
#   bench-lights    cameras, targets, omni and spot lights (FOV, roll, colour,
#                   hotspot, falloff tracks), no NODE_ID
#   bench-long      100 nodes with 1,000 keys per track, evaluated at 20,000
#                   frames drawn at random from 0..10,000 (the same sequence
#                   for both libraries)
# The node shapes are evaluated at 1,000 frames in sequence unless said. It
# adds a few corpus files when the optional corpus has them (100 frames each).
# For each file it runs BUILD_DIR/kf3ds-bench and BUILD_DIR/bench-lib3ds with
# the same frames, alternating, BENCH_ROUNDS times each (default 3), and prints
# two tables of the best times and the ratios lib3ds/kf3ds: loading (with MB/s)
# and evaluation (with ns per node evaluation), then a verdict against the
# targets: load >= 20x on bench-meshes, load >= 5x on the key-heavy files (the
# node shapes), eval >= 10x on every node shape. Informative only: always exits 0.
# Instructions per node evaluation: dev/bench/bench_callgrind.sh (make bench-callgrind).
#
# Rendering: kf3ds-bench --render against BUILD_DIR/bench-osmesa (Mesa's
# llvmpipe through OSMesa, when built) on three scenes: bench-render (100
# spheres of 1,000 triangles), bench-render-dense (10 spheres of 10,000) and
# bench-render-city (2,000 box buildings in 100 drifting blocks), each at
# 640x480 and 1280x960, BENCH_RENDER_FRAMES frames (default 50), on one core
# (taskset -c BENCH_CPU, default the last CPU; LP_NUM_THREADS=1 for Mesa),
# alternating, BENCH_ROUNDS times each; ms per frame and the ratio, target
# >= 5x llvmpipe. The textured column: kf3ds-bench --render --textured on
# bench-render-textured (the bench-render spheres with texture coordinates,
# a generated checker as every material's map), its ms per frame and the
# ratio to the same spheres untextured in the same run; kf3ds only (bench-osmesa
# draws untextured), and only for bench-render (the other scenes have no
# texture coordinates).
#
# Environment: BENCH_CORPUS, the corpus directory (default $KF3DS_CORPUS, the
# project's variable for the optional corpus, else ../shared/corpus, relative to
# the project), BENCH_ROUNDS (default 3), BENCH_ONLY (a space-separated list of
# file names to run, e.g. "bench-random bench-long"; default all),
# BENCH_RENDER_FRAMES, BENCH_CPU.

B=${1:-build}
KF="$B/kf3ds-bench"
LB="$B/bench-lib3ds"
OS="$B/bench-osmesa"
MK="$B/mk3ds"
DATA="$B/bench-data"
CORPUS=${BENCH_CORPUS:-${KF3DS_CORPUS:-../shared/corpus}}
LOAD_TARGET=20
KEYS_LOAD_TARGET=5
EVAL_TARGET=10
RENDER_TARGET=5

for p in "$KF" "$LB"; do
  if [ ! -x "$p" ]; then
    echo "bench.sh: $p is missing (run 'make bench')" >&2
    exit 0
  fi
done

mkdir -p "$DATA" || exit 0
LIST="$DATA/list.txt"      # lines: NAME PATH FRAMES SPAN (SPAN 0: frames in sequence)
RESULTS="$DATA/results.txt" # lines: NAME BYTES KLOAD LLOAD KEVAL LEVAL KEVALS LEVALS KFIRST LFIRST
: > "$LIST"
: > "$RESULTS"

wanted() { # wanted NAME: whether BENCH_ONLY lets NAME run
  [ -z "${BENCH_ONLY:-}" ] && return 0
  for w in $BENCH_ONLY; do [ "$w" = "$1" ] && return 0; done
  return 1
}

# ---- inputs ----------------------------------------------------------------
# generate KIND: makes $DATA/KIND.3ds when missing or older than mk3ds;
# fails when it cannot.
generate() {
  f="$DATA/$1.3ds"
  if [ ! -x "$MK" ]; then
    echo "bench.sh: $MK is missing: skipping $1 (build it with 'make $MK')" >&2
    return 1
  fi
  if [ ! -s "$f" ] || [ "$MK" -nt "$f" ]; then
    echo "generating $f"
    if ! "$MK" "$1" "$f.tmp"; then
      echo "bench.sh: '$MK $1 $f' failed: skipping it" >&2
      rm -f "$f.tmp"
      return 1
    fi
    mv "$f.tmp" "$f"
  fi
}
gen() { # gen KIND FRAMES [SPAN]: generated and listed
  wanted "$1" || return
  generate "$1" && echo "$1 $DATA/$1.3ds $2 ${3:-0}" >> "$LIST"
}
gen bench-meshes 10
for shape in bench-nodes bench-random bench-chain bench-constant bench-lights; do
  gen $shape 1000
done
gen bench-long 20000 10000

for c in sr-CITY.3DS blitz3d-mak_robotic.3DS kjetilos-frigate.3ds; do
  wanted "$c" && [ -f "$CORPUS/$c" ] && echo "$c $CORPUS/$c 100 0" >> "$LIST"
done

# ---- runs --------------------------------------------------------------------
# measure PROGRAM FILE FRAMES SPAN: prints "LOAD EVAL NODE_EVALS FIRST_LOAD" or
# "fail fail 0 fail".
measure() {
  if [ "$4" != 0 ]; then
    out=$("$1" --random-frames "$4" "$2" "$3" < /dev/null 2> "$DATA/stderr.txt")
  else
    out=$("$1" "$2" "$3" < /dev/null 2> "$DATA/stderr.txt")
  fi
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "bench.sh: '$1 $2 $3' exited with status $rc:" >&2
    sed 's/^/  /' "$DATA/stderr.txt" >&2
    echo "fail fail 0 fail"
    return
  fi
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  printf '%s\n' "$out" | awk '$1 == "load" && $2 == "runs" && $10 == "first" { first = $11 }
    $1 == "load_ms" && $3 == "eval_ms" && $5 == "node_evals" { last = $2 " " $4 " " $6 }
    END { if (last == "" || first == "") print "fail fail 0 fail"; else print last, first }'
}

# best "LOAD EVAL N FIRST" "LOAD EVAL N FIRST": the smaller load and eval of
# two runs, the first run's first load.
best() {
  echo "$1 $2" | awk '{ if ($1 == "fail" || $5 == "fail") print "fail fail 0 fail";
                        else print ($1 < $5 ? $1 : $5), ($2 < $6 ? $2 : $6), $3, $4 }'
}

# Each side runs ROUNDS times, alternating with the other, and its best counts:
# a burst of load on a shared machine then cannot hit one side alone.
ROUNDS=${BENCH_ROUNDS:-3}
while read -r name path frames span; do
  echo "== $name ($path, $frames frames$( [ "$span" != 0 ] && echo " at random in 0..$span"))" >&2
  k="" l="" r=0
  while [ $r -lt "$ROUNDS" ]; do
    echo "-- kf3ds" >&2
    x=$(measure "$KF" "$path" "$frames" "$span")
    k=$(if [ -n "$k" ]; then best "$k" "$x"; else echo "$x"; fi)
    echo "-- lib3ds" >&2
    x=$(measure "$LB" "$path" "$frames" "$span")
    l=$(if [ -n "$l" ]; then best "$l" "$x"; else echo "$x"; fi)
    r=$((r + 1))
  done
  bytes=$(wc -c < "$path" | tr -d ' ')
  set -- $k $l
  echo "$name $bytes $1 $5 $2 $6 $3 $7 $4 $8" >> "$RESULTS"
done < "$LIST"

# ---- tables ------------------------------------------------------------------
echo
echo "load average: $(uptime | sed 's/.*load average: *//')"
awk -v lt="$LOAD_TARGET" -v kt="$KEYS_LOAD_TARGET" -v et="$EVAL_TARGET" '
function ratio(l, k) {
  if (l == "fail" || k == "fail") return "-"
  if (k + 0 <= 0) return "inf"
  return sprintf("%.1fx", l / k)
}
function rnum(l, k) { return (l == "fail" || k == "fail") ? -1 : (k + 0 <= 0 ? 1e30 : l / k) }
function mbs(bytes, ms) {
  return (ms == "fail" || ms + 0 <= 0) ? "-" : sprintf("%.0f", bytes / 1e6 / (ms / 1e3))
}
function ns(ms, n) { return (ms == "fail" || n + 0 <= 0) ? "-" : sprintf("%.1f", ms * 1e6 / n) }
function shape(name) { return name ~ /^bench-/ && name != "bench-meshes" }
{ name[NR] = $1; bytes[NR] = $2; kl[NR] = $3; ll[NR] = $4; ke[NR] = $5; le[NR] = $6
  kn[NR] = $7; ln[NR] = $8; kf[NR] = $9; lf[NR] = $10 }
END {
  fmt = "%-24s %7s %10s %10s %7s %9s %9s %10s %10s\n"
  printf "loading (best of the rounds; first = the first load of a process)\n"
  printf fmt, "file", "MB", "kf3ds ms", "lib3ds ms", "ratio", "kf3ds", "lib3ds", "kf3ds", "lib3ds"
  printf fmt, "", "", "", "", "", "MB/s", "MB/s", "first ms", "first ms"
  for (i = 1; i <= NR; i++)
    printf fmt, name[i], sprintf("%.1f", bytes[i] / 1e6), kl[i], ll[i], ratio(ll[i], kl[i]),
           mbs(bytes[i], kl[i]), mbs(bytes[i], ll[i]), kf[i], lf[i]
  fmt = "%-24s %10s %10s %10s %7s %12s %12s  %s\n"
  printf "\nevaluation (best of the rounds)\n"
  printf fmt, "file", "node evals", "kf3ds ms", "lib3ds ms", "ratio", "kf3ds ns", "lib3ds ns", ""
  printf fmt, "", "", "", "", "", "/node eval", "/node eval", ""
  for (i = 1; i <= NR; i++) {
    note = kn[i] != ln[i] ? "node_evals differ: kf3ds " kn[i] ", lib3ds " ln[i] : ""
    printf fmt, name[i], kn[i], ke[i], le[i], ratio(le[i], ke[i]), ns(ke[i], kn[i]),
           ns(le[i], ln[i]), note
  }
  printf "\nverdict:\n"
  found = 0
  for (i = 1; i <= NR; i++) {
    if (name[i] == "bench-meshes") {
      r = rnum(ll[i], kl[i]); found = 1
      printf "  load %-16s %s (target >= %sx): %s\n", name[i], ratio(ll[i], kl[i]), lt,
             r < 0 ? "run failed" : (r >= lt ? "MET" : "MISSED")
    }
  }
  if (!found) printf "  load bench-meshes: not measured\n"
  for (i = 1; i <= NR; i++) {
    if (!shape(name[i])) continue
    r = rnum(ll[i], kl[i])
    printf "  load %-16s %s (target >= %sx): %s\n", name[i], ratio(ll[i], kl[i]), kt,
           r < 0 ? "run failed" : (r >= kt ? "MET" : "MISSED")
  }
  for (i = 1; i <= NR; i++) {
    if (!shape(name[i])) continue
    r = rnum(le[i], ke[i])
    printf "  eval %-16s %s (target >= %sx): %s\n", name[i], ratio(le[i], ke[i]), et,
           r < 0 ? "run failed" : (r >= et ? "MET" : "MISSED")
  }
}' "$RESULTS"

# ---- rendering ----------------------------------------------------------------
RLIST="$DATA/render-list.txt"       # lines: NAME PATH TEXTURED_PATH (-: none)
RRESULTS="$DATA/render-results.txt" # lines: NAME SIZE KF_MS GL_MS TEX_MS TEX_RATIO
: > "$RLIST"
: > "$RRESULTS"
for r in bench-render bench-render-dense bench-render-city; do
  wanted "$r" || continue
  tex=-
  [ "$r" = bench-render ] && generate bench-render-textured && tex="$DATA/bench-render-textured.3ds"
  generate "$r" && echo "$r $DATA/$r.3ds $tex" >> "$RLIST"
done
[ -s "$RLIST" ] || exit 0
RFRAMES=${BENCH_RENDER_FRAMES:-50}
CPU=${BENCH_CPU:-$(($(nproc 2>/dev/null || echo 1) - 1))}
ONE=""
command -v taskset >/dev/null && ONE="taskset -c $CPU"
have_gl=0
[ -x "$OS" ] && have_gl=1
[ $have_gl = 1 ] ||
  echo "bench.sh: $OS is missing (libosmesa6-dev): rendering without the Mesa comparison" >&2

# render_ms PROGRAM ARGS...: the ms per frame of its last line, or "fail".
render_ms() {
  out=$("$@" < /dev/null 2> "$DATA/stderr.txt")
  if [ $? -ne 0 ]; then
    echo "bench.sh: '$*' failed:" >&2
    sed 's/^/  /' "$DATA/stderr.txt" >&2
    echo fail
    return
  fi
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  printf '%s\n' "$out" |
    awk '$1 == "render_ms_per_frame" { v = $2 } END { print (v == "" ? "fail" : v) }'
}
minof() { echo "$1 $2" | awk '{ if ($1 == "fail") print $2; else if ($2 == "fail") print $1;
                                 else print ($1 < $2 ? $1 : $2) }'; }
# textured_ms ARGS...: kf3ds-bench --render --textured's last line as
# "TEXTURED_MS UNTEXTURED_MS", or "fail fail".
textured_ms() {
  out=$("$@" < /dev/null 2> "$DATA/stderr.txt")
  if [ $? -ne 0 ]; then
    echo "bench.sh: '$*' failed:" >&2
    sed 's/^/  /' "$DATA/stderr.txt" >&2
    echo fail fail
    return
  fi
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  printf '%s\n' "$out" | awk '$1 == "render_ms_per_frame" && $5 == "untextured_ms_per_frame" {
    v = $2 " " $6 } END { print (v == "" ? "fail fail" : v) }'
}
# the run with the smaller textured time of two "TEXTURED UNTEXTURED" pairs
minpair() {
  echo "$1 $2" | awk '{ if ($1 == "fail") print $3, $4; else if ($3 == "fail") print $1, $2;
                        else if ($1 <= $3) print $1, $2; else print $3, $4 }'
}

while read -r name path tpath; do
  for size in 640x480 1280x960; do
    echo "== render $name $size ($RFRAMES frames, one core)" >&2
    k=fail g=fail t="fail fail" r=0
    while [ $r -lt "$ROUNDS" ]; do
      echo "-- kf3ds" >&2
      k=$(minof "$k" "$(render_ms $ONE "$KF" --render "$size" "$path" "$RFRAMES")")
      if [ $have_gl = 1 ]; then
        echo "-- llvmpipe" >&2
        g=$(minof "$g" "$(LP_NUM_THREADS=1 render_ms $ONE "$OS" "$size" "$path" "$RFRAMES")")
      fi
      if [ "$tpath" != - ]; then
        echo "-- kf3ds textured" >&2
        x=$(textured_ms $ONE "$KF" --render "$size" --textured "$tpath" "$RFRAMES")
        t=$(minpair "$t" "$x")
      fi
      r=$((r + 1))
    done
    echo "$name $size $k $g $t" >> "$RRESULTS"
  done
done < "$RLIST"

echo
awk -v rt="$RENDER_TARGET" '
function ratio(g, k) {
  return (g == "fail" || k == "fail" || k + 0 <= 0) ? "-" : sprintf("%.1fx", g / k)
}
function cost(t, u) {
  return (t == "fail" || u == "fail" || u + 0 <= 0) ? "-" : sprintf("%.2fx", t / u)
}
BEGIN {
  fmt = "%-20s %10s %10s %12s %7s %12s %12s\n"
  printf "rendering (ms per frame, best of the rounds, one core; smooth shading)\n"
  printf fmt, "scene", "size", "kf3ds", "llvmpipe", "ratio", "kf3ds", "textured /"
  printf fmt, "", "", "", "", "", "textured", "untextured"
}
{ printf fmt, $1, $2, $3, $4, ratio($4, $3), $5 == "fail" ? "-" : $5, cost($5, $6); row[NR] = $0 }
END {
  printf "(textured: bench-render-textured, the bench-render spheres with a 256x256 checker as\n"
  printf " every material'"'"'s map, against the same file untextured in the same run;\n"
  printf " kf3ds only)\n"
  printf "verdict:\n"
  for (i = 1; i <= NR; i++) {
    split(row[i], f, " ")
    r = (f[4] == "fail" || f[3] == "fail" || f[3] + 0 <= 0) ? -1 : f[4] / f[3]
    printf "  render %-18s %-9s %s (target >= %sx llvmpipe): %s\n", f[1], f[2],
           ratio(f[4], f[3]), rt,
           r < 0 ? "not measured" : (r >= rt ? "MET" : "MISSED")
  }
}' "$RRESULTS"
exit 0
