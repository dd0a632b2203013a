#!/bin/sh
# bench_convert.sh BUILD_DIR [FILES]: kf3ds convert --to glb -j 2 against the
# single-file verb (kf3ds export) run once per file in a shell loop, on a
# generated folder of FILES files (default 2000: the sample scenes) with
# damaged ones among them (cut short,
# not a 3DS file), and on the shared corpus when it is there. Prints files/s
# and MB/s of each and the ratio. Informative only: always exits 0.
set -u
build=${1:-build}
n=${2:-2000}
tool=$build/kf3ds
corpus=${KF3DS_CORPUS:-../shared/corpus}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-bench-convert-XXXXXX") || exit 0
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { date +%s.%N; }
# mb_of DIR: the size of the .3ds files under DIR in MB
mb_of() { find "$1" -type f \( -iname '*.3ds' -o -iname '*.prj' \) -exec cat {} + | wc -c |
          awk '{ printf "%.2f", $1 / 1e6 }'; }

# the generated archive: 10 folders, the samples copied round-robin, one in
# 20 cut short, one in 50 not a 3DS file
mkdir -p "$tmp/gen"
i=0
# (not make bench's 2,000-node scenes: their default, resampled export takes
# minutes each, docs/gltf.md "Limits")
set -- data/arm.3ds data/orrery.3ds data/textured.3ds data/edge.3ds
while [ $i -lt "$n" ]; do
  d=$tmp/gen/d$((i % 10))
  mkdir -p "$d"
  k=$((i % $# + 1))
  src=
  eval "src=\${$k}"
  if [ $((i % 50)) -eq 49 ]; then
    echo "not a scene $i" > "$d/f$i.3ds"
  elif [ $((i % 20)) -eq 19 ]; then
    head -c 700 "$src" > "$d/f$i.3ds"
  else
    cp "$src" "$d/f$i.3ds"
  fi
  i=$((i + 1))
done

run() { # run NAME DIR
  name=$1 dir=$2
  files=$(find "$dir" -type f \( -iname '*.3ds' -o -iname '*.prj' \) | wc -l)
  mb=$(mb_of "$dir")
  t0=$(now)
  "$tool" convert "$dir" --to glb -o "$tmp/out-conv" -j 2 -q > /dev/null 2>&1
  t1=$(now)
  mkdir -p "$tmp/out-loop"
  find "$dir" -type f \( -iname '*.3ds' -o -iname '*.prj' \) | while IFS= read -r f; do
    "$tool" export "$f" -o "$tmp/out-loop/x.glb" -q > /dev/null 2>&1
  done
  t2=$(now)
  awk -v name="$name" -v files="$files" -v mb="$mb" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
    c = t1 - t0; l = t2 - t1
    printf "%-10s %6d files %8.2f MB | convert -j 2: %7.1f files/s %7.2f MB/s | export loop: %7.1f files/s %7.2f MB/s | x%.2f\n",
      name, files, mb, files / c, mb / c, files / l, mb / l, l / c }'
  rm -rf "$tmp/out-conv" "$tmp/out-loop"
}

echo "kf3ds convert --to glb -j 2 against kf3ds export once per file in a shell loop"
run generated "$tmp/gen"
if [ -d "$corpus" ]; then
  run corpus "$corpus"
else
  echo "corpus: not there ($corpus); left out"
fi
exit 0
