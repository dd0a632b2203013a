#!/bin/sh
# kf3ds export -o OUT.obj|OUT.stl read back by an independent reader: assimp
# (`assimp info` must import it, `assimp dump` gives its vertices), compared
# vertex by vertex with `kf3ds eval --verts --json` at the same frame. Every
# vertex assimp reads must be a placed point of the node of the same name
# (STL: of some node). A node with a morph track shows its key's mesh, which
# eval --verts does not print: its points are compared by count only.
# Exits 77 (skipped) without assimp or python3.
#   sh tests/check_static_export.sh [KF3DS]
set -u
tool=${1:-build/kf3ds}
me=check_static_export
command -v assimp > /dev/null 2>&1 || { echo "$me: SKIPPED: no assimp (apt-get install assimp-utils)"; exit 77; }
command -v python3 > /dev/null 2>&1 || { echo "$me: SKIPPED: no python3"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-static-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$me: $*" >&2; exit 1; }

checked=0
for spec in arm.3ds:0 arm.3ds:30 orrery.3ds:17.5 textured.3ds:8 edge.3ds:5; do
  file=data/${spec%%:*}
  frame=${spec#*:}
  name=$(basename "$file" .3ds)-$frame
  "$tool" eval "$file" --frame "$frame" --verts --json -q > "$tmp/$name.json" ||
    fail "$file: kf3ds eval failed"
  "$tool" info "$file" -q > "$tmp/$name.info" || fail "$file: kf3ds info failed"
  for fmt in obj stl; do
    out=$tmp/$name.$fmt
    "$tool" export "$file" -o "$out" --frame "$frame" -q || fail "$file: export to $fmt failed"
    [ "$fmt" = obj ] && { [ -s "$tmp/$name.mtl" ] || fail "$out: no .mtl beside it"; }
    assimp info "$out" > "$tmp/info.txt" 2>&1 || { cat "$tmp/info.txt" >&2; fail "$out: assimp info cannot read it"; }
    (cd "$tmp" && assimp dump "$out" "$name.$fmt.assxml") > /dev/null 2>&1 ||
      fail "$out: assimp dump failed"
    python3 - "$tmp/$name.json" "$tmp/$name.$fmt.assxml" "$out" "$fmt" "$tmp/$name.info" <<'PY' || exit 1
import json, re, sys
ev, dump, out, fmt, info = sys.argv[1:6]
nodes = json.load(open(ev))["frames"][0]["nodes"]
morph = set(re.findall(r'object (\S+) .* morph \d+', open(info).read()))
verts = {n["name"]: n["verts"] for n in nodes if "verts" in n}
xml = open(dump).read()
meshes = re.findall(r'<Mesh[^>]*>(.*?)</Mesh>', xml, re.S)
names = re.findall(r'<Node name="([^"]*)"', xml)
def close(a, b):
    return all(abs(x - y) <= 1e-5 * max(1.0, abs(y)) for x, y in zip(a, b))
# OBJ: the text itself names each object; its "v" lines must be exactly the points
cur, got = None, {}
for line in open(out[:-4] + ".obj"):  # the OBJ is written first
    w = line.split()
    if w and w[0] == "o": cur = w[1]; got[cur] = []
    elif w and w[0] == "v": got[cur].append([float(x) for x in w[1:4]])
if fmt == "obj":
    if set(got) != set(verts):
        sys.exit("%s: objects %s, eval has %s" % (out, sorted(got), sorted(verts)))
    for k in got:
        if len(got[k]) != len(verts[k]) or (k not in morph and
                                            not all(close(a, b) for a, b in zip(got[k], verts[k]))):
            sys.exit("%s: object %s: its v lines differ from kf3ds eval --verts" % (out, k))
# a morphing node's points: the OBJ's, checked above by count
allv = [v for k in verts if k not in morph for v in verts[k]]
allv += [v for k in morph if k in got for v in got[k]]
read = []
for m in meshes:
    pos = re.search(r'<Positions[^>]*>(.*?)</Positions>', m, re.S)
    nums = [float(x) for x in pos.group(1).split()]
    read += [nums[i:i + 3] for i in range(0, len(nums), 3)]
if not read:
    sys.exit("%s: assimp read no vertices" % out)
for p in read:
    if not any(close(p, q) for q in allv):
        sys.exit("%s: assimp reads vertex %s, which kf3ds eval --verts does not place" % (out, p))
print("%s: %d vertices read by assimp match kf3ds eval --verts" % (out.split("/")[-1], len(read)))
PY
    checked=$((checked + 1))
  done
done
# The OBJ names the texture map of the material (textured.3ds: brick).
grep -qi '^map_Kd .*brick' "$tmp/textured-8.mtl" || fail "textured.3ds: the MTL names no brick map"
grep -q '^vt ' "$tmp/textured-8.obj" || fail "textured.3ds: the OBJ has no texture coordinates"
# STL: 80-byte header, count, 50 bytes a triangle.
size=$(wc -c < "$tmp/arm-0.stl")
[ "$size" -eq $((84 + 50 * 72)) ] || fail "arm-0.stl: $size bytes, not 84 + 50 x 72"
# The optional corpus: its 10 smallest files that have triangles (all of
# them with KF3DS_STATIC_CORPUS=all), as OBJ and as STL, are read by assimp
# with as many faces as the export wrote.
corpus=${KF3DS_CORPUS:-../shared/corpus}
limit=10
[ "${KF3DS_STATIC_CORPUS:-}" = all ] && limit=100000
if [ -d "$corpus" ]; then
  # shellcheck disable=SC2012 # names of the corpus have no newlines
  for f in $(ls -S -r "$corpus"/*.3ds "$corpus"/*.3DS 2>/dev/null | head -n $limit); do
    [ -f "$f" ] || continue
    for fmt in obj stl; do
      out=$tmp/corpus.$fmt
      line=$("$tool" export "$f" -o "$out" 2>/dev/null | tail -n 1)
      tris=$(printf '%s\n' "$line" | sed -n 's/.*objects\{0,1\}, \([0-9]*\) triangle.*/\1/p')
      [ -n "$tris" ] || continue      # not loadable: convert's tests cover those
      [ "$tris" -gt 0 ] || continue   # nothing to read back
      assimp info "$out" > "$tmp/info.txt" 2>&1 || { grep -i error "$tmp/info.txt" >&2; fail "$f: assimp cannot read its $fmt"; }
      faces=$(sed -n 's/^Faces: *\([0-9]*\).*/\1/p' "$tmp/info.txt")
      # assimp drops some triangles whose corners coincide (kept in the export:
      # they are the file's faces); every other triangle must be read
      degenerate=$(python3 - "$out" "$fmt" <<'PY'
import struct, sys
path, fmt = sys.argv[1:3]
tris = []
if fmt == "stl":
    d = open(path, "rb").read()
    n, = struct.unpack("<I", d[80:84])
    for i in range(n):
        c = struct.unpack("<9f", d[84 + 50 * i + 12:84 + 50 * i + 48])
        tris.append((c[0:3], c[3:6], c[6:9]))
else:
    v = []
    for line in open(path):
        w = line.split()
        if w and w[0] == "v":
            v.append(tuple(map(float, w[1:4])))
        elif w and w[0] == "f":
            tris.append([v[int(x.split("/")[0]) - 1] for x in w[1:4]])
print(sum(1 for a, b, c in tris if a == b or b == c or a == c))
PY
)
      [ "$faces" -le "$tris" ] && [ "$faces" -ge $((tris - degenerate)) ] ||
        fail "$f: the $fmt has $tris triangles ($degenerate degenerate), assimp reads $faces faces"
      checked=$((checked + 1))
    done
  done
else
  echo "$me: note: no corpus at $corpus: only the samples are checked"
fi
echo "$me: $checked exports read back and compared"
