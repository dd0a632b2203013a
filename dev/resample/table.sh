#!/bin/sh
# The resampling table (docs/gltf.md, "Resampling"): for every sample in
# data/ and every corpus file the command exports, the animation keys and the
# .glb size of `--every-frame` against the default export, the channels over
# tolerance (of an older build too, when given), and the worst deviation of
# three.js (GLTFLoader + AnimationMixer) from the library's placement at 10
# instants per frame over the whole segment, as a fraction of the scene's
# size. Prints a Markdown table.
#   sh dev/resample/table.sh build/kf3ds [OLD_KF3DS] > table.md
# Needs Node.js with three in $KF3DS_NPM (default build/npm), and a C
# compiler for the reference writer (dev/resample/ref_boxes.c with
# tests/support_boxes.c, built into build/ against build/libkf3ds.a).
# Corpus: $KF3DS_CORPUS, default ../shared/corpus.
set -u
tool=${1:?usage: table.sh KF3DS [OLD_KF3DS]}
old=${2:-}
npm=$(cd "${KF3DS_NPM:-build/npm}" && pwd) || exit 1
corpus=${KF3DS_CORPUS:-../shared/corpus}
sub=${SUB:-10}
scratch=${TMPDIR:-/tmp}/kf3ds-resample-table.$$
mkdir -p "$scratch" || exit 1
trap 'rm -rf "$scratch"' EXIT
ref=build/ref_boxes
cc -std=c11 -O2 -Iinclude -Itests -o "$ref" dev/resample/ref_boxes.c tests/support_boxes.c build/libkf3ds.a -lm || exit 1

keys() { KF3DS_NPM=$npm node tests/gltf/anim_keys.mjs "$1" | awk '{print $2, $4, $6}'; }
three() { # GLB REF: worst deviation over all instants
  KF3DS_NPM=$npm node tests/gltf/check_three.mjs "$1" "$2" |
    awk '{a = $2 + 0; b = $8 + 0; printf "%.2e", (a > b ? a : b)}'
}

echo "| file | keys per frame → default | .glb bytes per frame → default | over tolerance$([ -n "$old" ] && echo ' before →') now | three.js worst, per frame / default |"
echo "|---|---|---|---|---|"
tk_e=0 tk_d=0 tb_e=0 tb_d=0
for f in data/*.3ds "$corpus"/*.3ds "$corpus"/*.3DS; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  "$tool" export "$f" -o "$scratch/e.glb" -q --every-frame 2>/dev/null || continue
  "$tool" export "$f" -o "$scratch/d.glb" -q 2>/dev/null || continue
  set -- $(keys "$scratch/e.glb"); ke=$1 be=$2
  set -- $(keys "$scratch/d.glb"); kd=$1 bd=$2 od=$3
  [ "$ke" -gt 0 ] || continue # no animation
  ob=
  if [ -n "$old" ]; then
    "$old" export "$f" -o "$scratch/o.glb" -q 2>/dev/null && set -- $(keys "$scratch/o.glb") && ob="$3 → "
  fi
  dev=n/a
  if "$ref" "$f" "$sub" > "$scratch/ref.json" 2>/dev/null; then
    dev="$(three "$scratch/e.glb" "$scratch/ref.json") / $(three "$scratch/d.glb" "$scratch/ref.json")"
  fi
  echo "| $b | $ke → $kd | $be → $bd | $ob$od | $dev |"
  tk_e=$((tk_e + ke)) tk_d=$((tk_d + kd)) tb_e=$((tb_e + be)) tb_d=$((tb_d + bd))
done
echo "| all | $tk_e → $tk_d | $tb_e → $tb_d | | |"
