#!/bin/sh
# tests/cross/render_same.sh NATIVE OTHER MK3DS OUTDIR DATA
#
# The renderer's vector paths (SSE2 and, where the CPU has it, AVX2: the
# narrow rows two at a time, the class colours four at a time) must draw the
# plain C code's pictures bit for bit (docs/architecture.md, "Fast paths";
# docs/performance.md, "Rendering"). This renders the benchmark's three scenes (made by MK3DS:
# 100 spheres, 10 dense spheres, the city of 2,000 boxes) and DATA/*.3ds with
# both builds of `kf3ds render`, at two sizes, smooth, flat, wireframe and
# culled, and compares the PNGs byte for byte. Exit status 1 on any
# difference; the differing pictures are kept in OUTDIR.
# Called by `make plain-check` (mk/cross.mk) with the KF3DS_PLAIN_C build as
# OTHER.
set -u
if [ $# -ne 5 ]; then
  echo "usage: $0 NATIVE OTHER MK3DS OUTDIR DATA" >&2
  exit 2
fi
native=$1 other=$2 mk=$3 out=$4 data=$5
mkdir -p "$out/scenes" || exit 2
rm -f "$out"/*.png 2>/dev/null

for s in bench-render bench-render-dense bench-render-city; do
  if [ ! -s "$out/scenes/$s.3ds" ] || [ "$mk" -nt "$out/scenes/$s.3ds" ]; then
    "$mk" "$s" "$out/scenes/$s.3ds" > /dev/null || { echo "FAIL $mk $s"; exit 1; }
  fi
done

fail=0 n=0
for f in "$out"/scenes/*.3ds "$data"/*.3ds; do
  b=$(basename "$f" .3ds)
  for size in 640x480 1280x960; do
    for mode in smooth flat wire cull; do
      if [ "$mode" = cull ]; then opt="--cull"; else opt="--shading $mode"; fi
      stem="$b-$size-$mode"
      # frames 0 and 37: the spheres turned, the city's blocks moved
      # shellcheck disable=SC2086 # $opt is two words
      "$native" render "$f" -q --size "$size" $opt --frames 0:37:37 -o "$out/$stem-%d.n.png" \
        2> /dev/null
      # shellcheck disable=SC2086
      "$other" render "$f" -q --size "$size" $opt --frames 0:37:37 -o "$out/$stem-%d.x.png" \
        2> /dev/null
      for fr in 0 37; do
        n=$((n + 1))
        if [ ! -s "$out/$stem-$fr.n.png" ] ||
           ! cmp -s "$out/$stem-$fr.n.png" "$out/$stem-$fr.x.png"; then
          echo "FAIL $stem frame $fr: the pictures differ ($out/$stem-$fr.[nx].png)"
          fail=$((fail + 1))
        else
          rm -f "$out/$stem-$fr.n.png" "$out/$stem-$fr.x.png"
        fi
      done
    done
  done
done
if [ "$fail" -ne 0 ]; then
  echo "render-same: $fail of $n pictures differ"
  exit 1
fi
echo "render-same: $n pictures identical ($(basename "$native") and $other)"
