#!/bin/sh
# Writes every outward output of the command on every input into DIR, one file
# per (input, verb, options), so two builds can be compared with `diff -r`:
#   sh dev/snapshot-outputs.sh build/kf3ds /tmp/before
#   (change, rebuild)
#   sh dev/snapshot-outputs.sh build/kf3ds /tmp/after && diff -r /tmp/before /tmp/after
# Inputs: data/*.3ds, tests/fuzz-regressions/*.3ds and, when present, the
# corpus ($KF3DS_CORPUS, default ../shared/corpus). Exit codes and standard
# error are kept too, since they are part of the output.
set -u
tool=${1:?usage: snapshot-outputs.sh KF3DS OUTDIR}
out=${2:?usage: snapshot-outputs.sh KF3DS OUTDIR}
corpus=${KF3DS_CORPUS:-../shared/corpus}
mkdir -p "$out"
scratch=${TMPDIR:-/tmp}/kf3ds-snapshot-export
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
frames="--frame 0 --frame 0.5 --frame 7.25 --frame 33 --frame 100"
n=0
for f in data/*.3ds tests/fuzz-regressions/*.3ds "$corpus"/*.3ds "$corpus"/*.3DS; do
  [ -f "$f" ] || continue
  b=$(basename "$f")
  run() { # NAME ARGS...: stdout, stderr and exit code of one invocation
    name=$1; shift
    "$tool" "$@" >"$out/$b.$name.out" 2>"$out/$b.$name.err"
    echo $? >"$out/$b.$name.rc"
  }
  run info info "$f"
  run dump dump "$f"
  run dump-json dump "$f" --json
  run dump-full dump "$f" --full
  run eval-json eval "$f" $frames --json --verts
  run eval-text eval "$f" $frames
  run render render "$f" -q -o "$out/$b.render.png"
  run render-all render "$f" -q --overlays all --shading flat -o "$out/$b.render-all.png"
  run render-sheet render "$f" -q --sheet 3x2 --hierarchy -o "$out/$b.render-sheet.png"
  # through the first camera node, if the file has one
  cam=$(sed -n 's/^ *\[[0-9]*\] camera \(.*\)\( id [0-9]*\)\{0,1\}:.*/\1/p' "$out/$b.info.out" | sed 's/ id [0-9]*$//' | head -n 1)
  [ -n "$cam" ] && run render-cam render "$f" -q --camera "$cam" -o "$out/$b.render-cam.png"
  # export: written in one fixed scratch folder (the summary line names the
  # output, and image URIs are relative to it), then moved into OUTDIR
  xrun() { # NAME EXT ARGS...
    name=$1; ext=$2; shift 2
    rm -f "$scratch"/x.*
    "$tool" export "$f" -o "$scratch/x.$ext" "$@" >"$out/$b.$name.out" 2>"$out/$b.$name.err"
    echo $? >"$out/$b.$name.rc"
    for g in "$scratch"/x.*; do [ -f "$g" ] && mv "$g" "$out/$b.$name.${g##*/}"; done
  }
  xrun export-glb glb
  xrun export-gltf gltf
  xrun export-static glb --static-frame 12.5
  xrun export-noanim glb --no-animation
  xrun export-cubic glb --cubic
  xrun export-embed gltf --embed-images
  xrun export-vis glb --visibility-ext --no-ease
  xrun export-rate gltf --rate 3 --fps 24 --frames 2:40
  xrun export-limit glb --frames 0:2000000 --rate 1000
  n=$((n + 1))
done
rm -rf "$scratch"
echo "snapshot of $n inputs in $out"
