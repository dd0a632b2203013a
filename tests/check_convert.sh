#!/bin/sh
# kf3ds convert on a generated archive: the recursive, case-insensitive walk
# and the mirrored folders, a parallel run (-j 2), the report (every file,
# every failure with an offset), resume (--skip-existing), an interruption
# (SIGINT mid-run leaves no temporary or partial file, exit 130), and every
# output format read back by a reader other than the writer: assimp for
# glb/gltf/obj/stl, kf3ds info for 3ds and kfb (PNG: tests/front/test_png_thumbnail.c
# reads convert's PNGs with libpng). Damaged inputs are made here.
# Exits 77 (skipped) without python3 (which reads the JSON report).
#   sh tests/check_convert.sh [KF3DS]
set -u
tool=${1:-build/kf3ds}
me=check_convert
command -v python3 > /dev/null 2>&1 || { echo "$me: SKIPPED: no python3 to read the report"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-convert-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$me: $*" >&2; exit 1; }

# The archive: nested folders, names in any case, maps beside a scene, a
# file that is not a scene, and three damaged ones.
in=$tmp/in
mkdir -p "$in/a/b" "$in/C"
cp data/arm.3ds "$in/arm.3ds"
cp data/orrery.3ds "$in/a/ORRERY.3DS"
cp data/textured.3ds data/brick.bmp data/checker.cel "$in/a/b/"
cp data/edge.3ds "$in/C/edge.Prj"
echo "not a scene" > "$in/C/readme.txt"
head -c 1000 data/arm.3ds > "$in/C/cut.3ds"                 # cut short
printf 'hello, this is text\n' > "$in/C/text.3ds"           # not a 3DS file
{ head -c 2 data/arm.3ds; printf '\002\000\000\000'; } > "$in/a/tiny.3ds" # root length 2
expected=7

out=$tmp/out
"$tool" convert "$in" --to glb -o "$out" -j 2 --report "$tmp/report.json" > "$tmp/run.out" 2> "$tmp/run.err"
st=$?
[ "$st" -eq 1 ] || { cat "$tmp/run.err" >&2; fail "exit status $st with failed files, not 1"; }
for f in arm.glb a/ORRERY.glb a/b/textured.glb C/edge.glb C/cut.glb; do
  [ -s "$out/$f" ] || fail "no $out/$f (the folders are not mirrored)"
done
[ ! -e "$out/C/readme.glb" ] || fail "a .txt file was converted"
grep -q "failed" "$tmp/run.out" || fail "no summary table on standard output"
python3 - "$tmp/report.json" "$expected" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
res = r["results"]
if len(res) != int(sys.argv[2]):
    sys.exit("report: %d files, expected %s" % (len(res), sys.argv[2]))
by = {x["file"].split("/in/")[1]: x for x in res}
want = {"arm.3ds": "ok", "a/ORRERY.3DS": "ok", "C/text.3ds": "failed",
        "a/tiny.3ds": "failed", "C/cut.3ds": "repaired"}
for k, v in want.items():
    if by[k]["outcome"] != v:
        sys.exit("report: %s is %s, expected %s" % (k, by[k]["outcome"], v))
for x in res:
    if x["outcome"] in ("failed", "repaired"):
        errs = [d for d in x["diagnostics"] if d["severity"] == "error"]
        if not errs or any(d["offset"] is None for d in errs):
            sys.exit("report: %s: an error without its offset: %s" % (x["file"], x["diagnostics"]))
    if x["outcome"] != "failed" and x["output_bytes"] <= 0:
        sys.exit("report: %s: no output bytes" % x["file"])
if by["arm.3ds"]["nodes"] != 10 or by["arm.3ds"]["frames"] != [0, 60]:
    sys.exit("report: arm.3ds nodes/frames %s %s" % (by["arm.3ds"]["nodes"], by["arm.3ds"]["frames"]))
if r["outcomes"]["failed"] != 2:
    sys.exit("report: %d failed, expected 2" % r["outcomes"]["failed"])
PY
# the glb files are read by assimp (not arm's or the orrery's: assimp 5.2
# refuses a camera whose name two nodes share, as the camera and its node do)
if command -v assimp > /dev/null 2>&1; then
  for f in "$out/C/edge.glb" "$out/a/b/textured.glb"; do
    assimp info "$f" > /dev/null 2>&1 || fail "$f: assimp cannot read it"
  done
else
  echo "$me: note: no assimp: the outputs are not read back by it"
fi

# resume: the files done are skipped, the rest done again
rm "$out/a/ORRERY.glb"
"$tool" convert "$in" --to glb -o "$out" -j 2 --skip-existing -q --report "$tmp/resume.json" \
  2> /dev/null
python3 - "$tmp/resume.json" <<'PY' || exit 1
import json, sys
o = json.load(open(sys.argv[1]))["outcomes"]
if o["skipped"] != 4 or o["ok"] != 1 or o["failed"] != 2:
    sys.exit("resume: outcomes %s, expected 4 skipped, 1 ok, 2 failed (and 1 repaired)" % o)
PY
[ -s "$out/a/ORRERY.glb" ] || fail "resume did not convert the missing file"

# every format, read back
for fmt in gltf obj stl kfb 3ds png; do
  o=$tmp/fmt-$fmt
  "$tool" convert "$in/arm.3ds" "$in/a" --to $fmt -o "$o" -q 2> "$tmp/$fmt.err"
  [ -s "$o/arm.$fmt" ] || { cat "$tmp/$fmt.err" >&2; fail "--to $fmt wrote no arm.$fmt"; }
  [ -s "$o/b/textured.$fmt" ] || fail "--to $fmt wrote no b/textured.$fmt"
  case $fmt in
    gltf|obj|stl)
      if command -v assimp > /dev/null 2>&1; then
        files="$o/arm.$fmt $o/b/textured.$fmt"
        [ $fmt = gltf ] && files=$o/b/textured.$fmt # (arm: see above)
        for f in $files; do
          assimp info "$f" > "$tmp/info" 2>&1 || { cat "$tmp/info" >&2; fail "$f: assimp cannot read it"; }
          grep -q "Faces: *[1-9]" "$tmp/info" || fail "$f: assimp reads no faces"
        done
      fi
      case $fmt in obj) [ -s "$o/arm.mtl" ] || fail "--to obj: no arm.mtl";; gltf) [ -s "$o/arm.bin" ] || fail "--to gltf: no arm.bin";; esac ;;
    kfb|3ds)
      "$tool" info "$o/arm.$fmt" > "$tmp/info" 2>&1 || { cat "$tmp/info" >&2; fail "$o/arm.$fmt: kf3ds info cannot read it"; }
      grep -q "UpperArm" "$tmp/info" || fail "$o/arm.$fmt: kf3ds info shows no node UpperArm" ;;
  esac
done
# options pass through to the verb; a wrong one stops the run with status 2
"$tool" convert "$in/arm.3ds" --to obj -o "$tmp/frame" --frame 30 -q 2> /dev/null
grep -q "at frame 30" "$tmp/frame/arm.obj" || fail "--frame 30 did not reach export"
"$tool" convert "$in" --to glb -o "$tmp/bad" --no-such-option -q 2> "$tmp/bad.err"
[ $? -eq 2 ] || fail "a wrong option passed on: status not 2"
grep -q "no-such-option" "$tmp/bad.err" || fail "a wrong option passed on is not named"

# --max-memory: a worker over its limit fails alone, the run goes on
"$tool" convert "$in/arm.3ds" "$in/a" --to glb -o "$tmp/mem1" --max-memory 1 -q \
  --report "$tmp/mem1.json" 2> /dev/null
[ $? -eq 1 ] || fail "--max-memory 1: exit status not 1"
python3 - "$tmp/mem1.json" <<'PY' || exit 1
import json, sys
o = json.load(open(sys.argv[1]))["outcomes"]
if o["failed"] != 4:
    sys.exit("--max-memory 1: %s, expected every one of the 4 files failed" % o)
PY
# (a sanitizer build maps far more than any limit: there the files cannot pass)
if ! grep -q __asan_init "$tool"; then
  "$tool" convert "$in/arm.3ds" --to glb -o "$tmp/mem2" --max-memory 2000 -q ||
    fail "--max-memory 2000: arm.3ds failed"
fi

# interruption: SIGINT while two workers render; no temporary or partial file
many=$tmp/many
mkdir -p "$many"
i=0
while [ $i -lt 40 ]; do cp data/arm.3ds "$many/arm$i.3ds"; i=$((i + 1)); done
"$tool" convert "$many" --to png --size 640x480 -o "$tmp/int" -j 2 -q 2> "$tmp/int.err" &
pid=$!
n=0
first_png() { for f in "$tmp/int"/*.png; do [ -e "$f" ] && return 0; done; return 1; }
while [ $n -lt 400 ] && ! first_png; do
  sleep 0.05; n=$((n + 1))
done
kill -INT $pid
wait $pid
st=$?
[ "$st" -eq 130 ] || fail "SIGINT mid-run: exit status $st, not 130 (finished before the signal?)"
left=$(find "$tmp/int" -name '*.tmp' | wc -l)
[ "$left" -eq 0 ] || fail "SIGINT left $left temporary files"
done_n=$(find "$tmp/int" -name '*.png' | wc -l)
[ "$done_n" -lt 40 ] || fail "SIGINT: all 40 files were done; the run was not interrupted"
for f in "$tmp/int"/*.png; do
  [ "$(tail -c 8 "$f" | head -c 4)" = IEND ] || fail "$f: a partial PNG (no IEND at its end)"
done
"$tool" convert "$many" --to png --size 640x480 -o "$tmp/int" -j 2 -q --skip-existing \
  --report "$tmp/int.json" 2> /dev/null || fail "the resumed run failed"
python3 - "$tmp/int.json" "$done_n" <<'PY' || exit 1
import json, sys
o = json.load(open(sys.argv[1]))["outcomes"]
if o["skipped"] != int(sys.argv[2]) or o["ok"] != 40 - int(sys.argv[2]):
    sys.exit("after SIGINT, resume: %s, expected %s skipped" % (o, sys.argv[2]))
PY
# 3D Studio's other file kinds (docs/convert.md, its item "Projects and material
# libraries"): a project (.prj, root CMAGIC 0xC23D around the same sections) is
# converted as the scene it holds; a material library (.mli, root MLIBMAGIC
# 0x3DAA, MAT_ENTRY chunks and no scene) converts to nothing, is listed with
# its number of materials and is no failure, a cut one with the offset where
# it ends. What the walk takes is decided by the name, what becomes of a file
# by its root chunk: a scene named .mli is converted. Made here byte by byte.
kinds=$tmp/kinds
mkdir -p "$kinds/sub"
{ printf '\075\302'; tail -c +3 data/arm.3ds; } > "$kinds/arm.PRJ"   # root id 0xC23D
cp data/arm.3ds "$kinds/scene.mli"
python3 - "$kinds" <<'PY' || exit 1
import struct, sys
def chunk(cid, body):
    return struct.pack("<HI", cid, 6 + len(body)) + body
def material(name, rgb):  # MAT_ENTRY: MAT_NAME, MAT_DIFFUSE with a COLOR_24
    return chunk(0xAFFF, chunk(0xA000, name + b"\0") + chunk(0xA020, chunk(0x0011, bytes(rgb))))
mats = material(b"Red", (255, 0, 0)) + material(b"Green", (0, 255, 0)) + material(b"Blue", (0, 0, 255))
lib = chunk(0x3DAA, chunk(0x0002, struct.pack("<I", 3)) + mats)  # with an M3D_VERSION first
open(sys.argv[1] + "/parts.MLI", "wb").write(lib)
# Red and Green end at 6 + 10 + 31 + 33 = 80: cut inside Blue
open(sys.argv[1] + "/sub/cut.mli", "wb").write(lib[:90])
PY
"$tool" convert "$kinds" --to glb -o "$tmp/kinds-out" -j 2 --report "$tmp/kinds.json" \
  > "$tmp/kinds.out" 2> "$tmp/kinds.err" || { cat "$tmp/kinds.err" >&2; fail "a .prj and .mli run: exit status not 0"; }
grep -q "material library: $kinds/parts.MLI: 3 materials, no scene to convert" "$tmp/kinds.out" ||
  fail "the summary does not list parts.MLI with its 3 materials"
[ ! -e "$tmp/kinds-out/parts.glb" ] && [ ! -e "$tmp/kinds-out/sub/cut.glb" ] ||
  fail "a material library was converted to a file"
"$tool" export data/arm.3ds -o "$tmp/arm-ref.glb" -q || fail "export data/arm.3ds failed"
python3 - "$tmp/kinds.json" "$tmp/kinds-out" "$tmp/arm-ref.glb" <<'PY' || exit 1
import json, struct, sys
r = json.load(open(sys.argv[1]))
by = {x["file"].split("/kinds/")[1]: x for x in r["results"]}
if sorted(by) != ["arm.PRJ", "parts.MLI", "scene.mli", "sub/cut.mli"]:
    sys.exit("kinds: the walk found %s" % sorted(by))
if r["outcomes"]["material library"] != 2 or r["outcomes"]["failed"] != 0:
    sys.exit("kinds: outcomes %s" % r["outcomes"])
lib = by["parts.MLI"]
if (lib["outcome"], lib["materials"], lib["output"], lib["output_bytes"], lib["exit"]) != \
        ("material library", 3, None, 0, 0) or lib["diagnostics"]:
    sys.exit("kinds: parts.MLI: %s" % lib)
cut = by["sub/cut.mli"]
if cut["outcome"] != "material library" or cut["materials"] != 2 or \
        [(d["severity"], d["offset"]) for d in cut["diagnostics"]] != [("warning", 80)]:
    sys.exit("kinds: sub/cut.mli: %s" % cut)
for name in ("arm.PRJ", "scene.mli"):
    x = by[name]
    if x["outcome"] != "ok" or x["nodes"] != 10 or x["frames"] != [0, 60]:
        sys.exit("kinds: %s: %s" % (name, x))
def glb(path):  # (JSON without the source file's name, BIN)
    b = open(path, "rb").read()
    n = struct.unpack_from("<I", b, 12)[0]
    j = json.loads(b[20:20 + n])
    del j["asset"]["extras"]["kf3ds"]["file"]
    for scene in j["scenes"]:
        del scene["name"]
    return j, b[20 + n:]
ref = glb(sys.argv[3])
for out in ("arm.glb", "scene.glb"):
    if glb(sys.argv[2] + "/" + out) != ref:
        sys.exit("kinds: %s differs from kf3ds export data/arm.3ds" % out)
PY

echo "$me: walk, report, resume, formats, options, SIGINT ($done_n of 40 done), .prj and .mli checked"
