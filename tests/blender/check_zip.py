"""Run by Blender with BLENDER_USER_SCRIPTS set to an empty folder and no
KF3DS_LIBRARY: blender -b --factory-startup --python tests/blender/check_zip.py --
   ZIP KF3DS_TOOL FILE

Installs the add-on's zip as a user would (Preferences > Add-ons > Install,
here bpy.ops.preferences.addon_install), enables it, checks that the library
loaded is the one inside the zip, imports FILE through the File > Import
operator, compares a frame with `kf3ds eval --verts`, and writes it back
through the File > Export operator. Prints "zip: ..." lines; exit 1 on failure."""
import json
import math
import os
import subprocess
import sys
import tempfile

import addon_utils
import bpy

zip_path, tool, path = sys.argv[sys.argv.index("--") + 1:][:3]
user = os.environ.get("BLENDER_USER_SCRIPTS", "")


def fail(msg):
    print("zip: FAILED: " + msg)
    sys.stdout.flush()
    sys.exit(1)


if "KF3DS_LIBRARY" in os.environ:
    fail("KF3DS_LIBRARY is set: the bundled library would not be tested")
bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
addon_utils.enable("io_import_kf3ds", default_set=True, handle_error=None)
if not hasattr(bpy.ops.import_scene, "kf3ds") or "io_import_kf3ds" not in \
        bpy.context.preferences.addons:
    fail("the add-on did not install and enable from %s" % zip_path)
import kf3ds  # noqa: E402  (put on the path by the add-on)
lib = os.path.realpath(kf3ds.library_path)
if not user or not lib.startswith(os.path.realpath(user)):
    fail("the library loaded is %s, not the one inside the installed zip" % lib)
print("zip: installed; library %s" % lib)

bpy.ops.wm.read_homefile(use_empty=True)
r = bpy.ops.import_scene.kf3ds(filepath=os.path.abspath(path))
if r != {"FINISHED"}:
    fail("import_scene.kf3ds returned %s" % r)
frame = 12.5
bpy.context.scene.frame_set(12, subframe=0.5)
doc = json.loads(subprocess.run([tool, "eval", path, "--json", "--verts", "-q", "--frame",
                                 str(frame)], stdout=subprocess.PIPE, check=True).stdout)
worst, n = 0.0, 0
objs = {ob["kf3ds_node"]: ob for ob in bpy.context.scene.objects if "kf3ds_node" in ob}
dg = bpy.context.evaluated_depsgraph_get()
for node in doc["frames"][0]["nodes"]:
    ob = objs.get(node["index"])
    if "verts" not in node or ob is None:
        continue
    m = ob.evaluated_get(dg).matrix_world
    for v, ref in zip(ob.data.vertices, node["verts"]):
        worst = max(worst, math.dist(m @ v.co, ref))
        n += 1
if n == 0 or worst > 1e-3:
    fail("after the import, %d vertices, worst distance %g at frame %g" % (n, worst, frame))
print("zip: File > Import: %d objects, %d vertices at frame %g within %.3g" % (
    len(objs), n, frame, worst))

out = os.path.join(tempfile.mkdtemp(), "roundtrip.3ds")
r = bpy.ops.export_scene.kf3ds(filepath=out)
if r != {"FINISHED"}:
    fail("export_scene.kf3ds returned %s" % r)
with kf3ds.load(out) as s:
    print("zip: File > Export: %s, %d nodes, %d meshes, frames %d..%d" % (
        os.path.basename(out), len(s.nodes), len(s.meshes), s.segment[0], s.segment[1]))
    if not s.ok or not s.nodes:
        fail("the exported file does not read back")
