#!/bin/sh
# tests/cross/run.sh NATIVE OTHER "QEMU" COMPARE OUTDIR CORPUS DATA [NATIVE_EMBED OTHER_EMBED]
#
# Runs the native kf3ds and another build of it (under QEMU, e.g. qemu-m68k;
# "" runs it directly) on every file of CORPUS and DATA/*.3ds and compares:
#   kf3ds dump FILE       stdout, stderr and exit status identical
#   kf3ds info FILE       the same
#   kf3ds eval FILE --json --verts at five frames of the file's segment:
#                         stderr and exit status identical, the JSON equal
#                         token by token with the numbers within 1e-5 of the
#                         scene extent (COMPARE, tests/cross/compare.c)
# and, given the two builds of examples/embed.c, their runs on DATA/arm.3ds:
# names and counts identical, coordinates (printed with 2 decimals) within 0.01.
# The outputs of files that differ are kept in OUTDIR; one line per file; exit
# status 1 on any mismatch.
# Called by `make test-cross TARGET=...` (mk/cross.mk).
set -u
if [ $# -ne 7 ] && [ $# -ne 9 ]; then
  echo "usage: $0 NATIVE OTHER QEMU COMPARE OUTDIR CORPUS DATA [NATIVE_EMBED OTHER_EMBED]" >&2
  exit 2
fi
native=$1 other=$2 qemu=$3 compare=$4 out=$5 corpus=$6 data=$7
native_embed=${8:-} other_embed=${9:-}
tol=${CROSS_TOLERANCE:-1e-5}

if [ ! -d "$corpus" ]; then
  echo "test-cross: no corpus directory $corpus (set CROSS_CORPUS=DIR)" >&2
  exit 2
fi
if [ -n "$qemu" ] && ! command -v "$qemu" >/dev/null 2>&1; then
  echo "test-cross: $qemu not found (Debian package qemu-user)" >&2
  exit 2
fi
# A kernel without 32-bit x86 support (CONFIG_IA32_EMULATION off, or
# ia32_emulation=0) cannot exec the i686 build: run it under the emulator that
# mk/cross.mk names in CROSS_QEMU_FALLBACK instead.
if [ -z "$qemu" ] && [ -n "${CROSS_QEMU_FALLBACK:-}" ]; then
  "$other" --version >/dev/null 2>&1
  if [ $? -eq 126 ]; then
    if command -v "$CROSS_QEMU_FALLBACK" >/dev/null 2>&1; then
      echo "test-cross: this kernel cannot run $other; running it under $CROSS_QEMU_FALLBACK"
      qemu=$CROSS_QEMU_FALLBACK
    else
      echo "test-cross: this kernel cannot run $other and $CROSS_QEMU_FALLBACK is missing (Debian package qemu-user)" >&2
      exit 2
    fi
  fi
fi
mkdir -p "$out"
rm -f "$out"/*.n.* "$out"/*.x.* 2>/dev/null

run_other() {
  if [ -n "$qemu" ]; then "$qemu" "$other" "$@"; else "$other" "$@"; fi
}

# same NAME STEM: compares stdout, stderr and status of the two runs of STEM.
same() {
  for part in out err rc; do
    if ! cmp -s "$out/$2.n.$part" "$out/$2.x.$part"; then
      echo "FAIL $1: $2 $part differs:"
      diff "$out/$2.n.$part" "$out/$2.x.$part" | head -6 | sed 's/^/    /'
      return 1
    fi
  done
  return 0
}

fail=0 files=0 start=$(date +%s)

# The README's example, on both sides.
if [ -n "$other_embed" ]; then
  "$native_embed" "$data/arm.3ds" > "$out/embed.n.out" 2>&1; echo $? > "$out/embed.n.rc"
  if [ -n "$qemu" ]; then "$qemu" "$other_embed" "$data/arm.3ds"; else "$other_embed" "$data/arm.3ds"; fi \
    > "$out/embed.x.out" 2>&1; echo $? > "$out/embed.x.rc"
  # "NAME N vertices M faces, last at (X, Y, Z)": all but X, Y, Z exact.
  if cmp -s "$out/embed.n.rc" "$out/embed.x.rc" && [ -s "$out/embed.n.out" ] &&
     awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
          { m = FNR; nx = split(a[FNR], x, /[(), ]+/); ny = split($0, y, /[(), ]+/)
            if (nx != ny) exit 1
            for (i = 1; i <= nx; i++) {
              if (x[i] == y[i]) continue
              if (x[i] !~ /^-?[0-9]+[.][0-9]+$/ || y[i] !~ /^-?[0-9]+[.][0-9]+$/) exit 1
              d = x[i] - y[i]; if (d < 0) d = -d
              if (d > 0.0100001) exit 1 } }
          END { if (m != n) exit 1 }' "$out/embed.n.out" "$out/embed.x.out"; then
    echo "ok   examples/embed.c on $data/arm.3ds: $(wc -l < "$out/embed.x.out") meshes walked, as natively"
  else
    echo "FAIL examples/embed.c on $data/arm.3ds differs:"
    diff "$out/embed.n.out" "$out/embed.x.out" | head -8 | sed 's/^/    /'
    fail=$((fail + 1))
  fi
fi
for f in "$corpus"/* "$data"/*.3ds; do
  [ -f "$f" ] || continue
  files=$((files + 1))
  name=$(basename "$f")
  stem=$out/$name
  ok=1
  for verb in dump info; do
    "$native" $verb "$f" > "$stem.$verb.n.out" 2> "$stem.$verb.n.err"; echo $? > "$stem.$verb.n.rc"
    run_other $verb "$f" > "$stem.$verb.x.out" 2> "$stem.$verb.x.err"; echo $? > "$stem.$verb.x.rc"
    same "$name" "$name.$verb" || ok=0
  done
  # Five frames: the segment's start and end, two fractional frames inside it
  # and one beyond the end (loops wrap there); 0 and 12.5 without a keyframer.
  frames=$(sed -n 's/^frames: segment \(-\{0,1\}[0-9]*\)\.\.\(-\{0,1\}[0-9]*\),.*/\1 \2/p' \
           "$stem.info.n.out" | awk '{ a = $1; b = $2;
             printf "--frame %s --frame %.2f --frame %.2f --frame %s --frame %.2f",
                    a, a + (b - a) * 0.37, a + (b - a) / 2 + 0.5, b, b + 11.75 }')
  [ -n "$frames" ] || frames="--frame 0 --frame 12.5"
  # shellcheck disable=SC2086
  "$native" eval "$f" --json --verts $frames > "$stem.eval.n.out" 2> "$stem.eval.n.err"
  echo $? > "$stem.eval.n.rc"
  # shellcheck disable=SC2086
  run_other eval "$f" --json --verts $frames > "$stem.eval.x.out" 2> "$stem.eval.x.err"
  echo $? > "$stem.eval.x.rc"
  for part in err rc; do
    if ! cmp -s "$stem.eval.n.$part" "$stem.eval.x.$part"; then
      echo "FAIL $name: eval $part differs:"
      diff "$stem.eval.n.$part" "$stem.eval.x.$part" | head -6 | sed 's/^/    /'
      ok=0
    fi
  done
  result=$("$compare" "$stem.eval.n.out" "$stem.eval.x.out" "$tol") || ok=0
  if [ $ok = 1 ]; then
    echo "ok   $name: dump, info identical; eval $result"
    rm -f "$stem".*.n.* "$stem".*.x.* # keep only what differs
  else
    [ -n "$result" ] && echo "     $name: eval $result"
    fail=$((fail + 1))
  fi
done
secs=$(( $(date +%s) - start ))
if [ $fail -ne 0 ]; then
  echo "test-cross: $fail of $files files differ from the native build (outputs in $out) [${secs}s]"
  exit 1
fi
echo "test-cross: $files files, $other${qemu:+ under $qemu} gives the native results [${secs}s]"
