#!/bin/sh
# tests/retro/run.sh KF3DS KFB_EVAL OUTDIR CORPUS DATA "NAME|PREFIX|PROGRAM|QEMU" ...
#
# `make test-retro` (mk/retro.mk): every file of CORPUS and DATA/*.3ds that
# has keyframer nodes is baked with `KF3DS bake --fixed` (16.16; --frac-bits
# auto when the scene is too big for it), then printed by the native KFB_EVAL
# and by each retro build under its emulator with `--json --verts` at every
# frame of DATA's files and at four frames of the corpus files (the segment's
# first and last, 37 % and half way), and one frame past the end, which every
# build must refuse alike.
# Standard output, standard error and exit status must be byte-identical.
# Also compared: a truncated file, a file that is not a .kfb, a missing file.
# Outputs that differ are kept in OUTDIR; exit status 1 on any difference.
set -u
if [ $# -lt 6 ]; then
  echo "usage: $0 KF3DS KFB_EVAL OUTDIR CORPUS DATA NAME|PREFIX|PROGRAM|QEMU ..." >&2
  exit 2
fi
kf3ds=$1 native=$2 out=$3 corpus=$4 data=$5
shift 5
mkdir -p "$out"
rm -f "$out"/* 2>/dev/null

for run in "$@"; do
  q=${run##*|}
  command -v "${q%% *}" >/dev/null 2>&1 || { echo "test-retro: ${q%% *} not found (Debian package qemu-user)" >&2; exit 2; }
done
[ -d "$corpus" ] || echo "test-retro: note: no corpus at $corpus; only $data is compared"

fail=0 files=0 runs=0 start=$(date +%s)

# compare STEM ARGS...: the native run and every retro run of kfb-eval ARGS.
compare() {
  stem=$1; shift
  "$native" "$@" > "$out/$stem.n.out" 2> "$out/$stem.n.err"; echo $? > "$out/$stem.n.rc"
  same=1
  while IFS="|" read -r target prefix prog qemu; do
    [ -n "$target" ] || continue
    # shellcheck disable=SC2086
    $qemu "$prog" "$@" > "$out/$stem.$target.out" 2> "$out/$stem.$target.err" < /dev/null
    echo $? > "$out/$stem.$target.rc"
    runs=$((runs + 1))
    this=1
    for part in out err rc; do
      if ! cmp -s "$out/$stem.n.$part" "$out/$stem.$target.$part"; then
        echo "FAIL $stem on $target: $part differs"
        diff "$out/$stem.n.$part" "$out/$stem.$target.$part" | head -4 | cut -c1-160 | sed 's/^/    /'
        this=0 same=0
      fi
    done
    [ $this = 1 ] && rm -f "$out/$stem.$target".*
  done <<EOF
$RETRO_LIST
EOF
  [ $same = 1 ] && rm -f "$out/$stem.n".*
  [ $same = 1 ]
}

RETRO_LIST=$(for run in "$@"; do printf '%s\n' "$run"; done)

for f in "$data"/*.3ds "$corpus"/*; do
  [ -f "$f" ] || continue
  name=$(basename "$f")
  kfb=$out/$name.kfb
  "$kf3ds" bake "$f" --fixed -q -o "$kfb" > "$out/bake.err" 2>&1
  st=$?
  args=--fixed
  if [ $st = 1 ] && grep -q 'does not fit' "$out/bake.err"; then
    args="--frac-bits auto"
    "$kf3ds" bake "$f" --frac-bits auto -q -o "$kfb" > "$out/bake.err" 2>&1
    st=$?
  fi
  [ $st = 0 ] || { rm -f "$kfb"; continue; } # not a .3ds, or no keyframer nodes
  files=$((files + 1))
  seg=$("$kf3ds" info "$f" 2>/dev/null | sed -n 's/^frames: segment \(-\{0,1\}[0-9]*\)\.\.\(-\{0,1\}[0-9]*\),.*/\1 \2/p')
  a=${seg% *} b=${seg#* }
  if [ "$(dirname "$f")" = "$data" ]; then
    frames=$(awk -v a="$a" -v b="$b" 'BEGIN { for (i = a; i <= b; i++) printf " --frame %d", i }')
  else
    frames=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "--frame %d --frame %d --frame %d --frame %d",
             a, a + int((b - a) * 0.37), a + int((b - a) / 2), b }')
  fi
  ok=1
  # shellcheck disable=SC2086
  compare "$name" "$kfb" $frames --json --verts || ok=0
  compare "$name.beyond" "$kfb" --frame $((b + 1)) --json || ok=0
  if [ $ok = 1 ]; then
    echo "ok   $name ($args, $(echo $frames | wc -w | awk '{ print $1 / 2 }') frames): identical on every target"
    rm -f "$kfb"
  else
    fail=$((fail + 1))
  fi
done

# Bad input: the same errors everywhere.
"$kf3ds" bake "$data/arm.3ds" --fixed -q -o "$out/arm.kfb"
head -c 3000 "$out/arm.kfb" > "$out/cut.kfb"
compare cut "$out/cut.kfb" --frame 0 --json || fail=$((fail + 1))
compare not-kfb "$data/arm.3ds" --frame 0 --json || fail=$((fail + 1))
compare missing "$out/no-such-file.kfb" --frame 0 --json || fail=$((fail + 1))
compare usage "$out/arm.kfb" --json || fail=$((fail + 1))
rm -f "$out/arm.kfb" "$out/cut.kfb" "$out/bake.err"

secs=$(( $(date +%s) - start ))
if [ $fail -ne 0 ]; then
  echo "test-retro: $fail comparisons differ from the native build (outputs in $out) [${secs}s]"
  exit 1
fi
echo "test-retro: $files baked files, $runs retro runs ($# builds under qemu): output byte-identical to the native kfb-eval [${secs}s]"
