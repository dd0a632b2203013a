"""Run by Blender: blender -b --factory-startup --python tests/blender/check_import.py --
   KF3DS_TOOL FILE... [--times N] [--bound B] [--builtin]

Imports each FILE with the add-on (blender/io_import_kf3ds), then at integer
and half frames across the segment (N of them, evenly spread, first and last
included) reads every mesh vertex's world position from Blender's evaluated
scene and compares it with `kf3ds eval --verts --json` at the same frame. The
deviation is measured relative to the scene extent (the diagonal of the box
around every vertex kf3ds places at those frames). With --builtin, Blender's
own 3DS importer is measured on the same files (reported, never failed).

Prints one line per file ("add-on FILE: worst ... of the extent") and exits 1
when the add-on's worst deviation is above the bound (default 1e-4)."""
import json
import math
import os
import subprocess
import sys

import bpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "blender"))
import io_import_kf3ds  # noqa: E402
from io_import_kf3ds import importer  # noqa: E402
import kf3ds  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
tool, files, n_times, bound, builtin = argv[0], [], 9, 1e-4, False
i = 1
while i < len(argv):
    if argv[i] == "--times":
        n_times = int(argv[i + 1])
        i += 2
    elif argv[i] == "--bound":
        bound = float(argv[i + 1])
        i += 2
    elif argv[i] == "--builtin":
        builtin = True
        i += 1
    else:
        files.append(argv[i])
        i += 1


def sample_times(a, b, n):
    """n integer and half frames from a to b: every other one a half frame."""
    if b <= a:
        return [float(a)]
    halves = int((b - a) * 2)
    picks = sorted(set(round(k * halves / (n - 1)) for k in range(n)))
    out = []
    for j, h in enumerate(picks):
        t = a + h / 2.0
        if j % 2 == 1 and t == int(t) and t + 0.5 <= b:
            t += 0.5  # make sure half frames are measured
        out.append(t)
    return sorted(set(out))


def kf3ds_verts(path, times):
    args = [tool, "eval", path, "--json", "--verts", "-q"]
    for t in times:
        args += ["--frame", repr(t)]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not r.stdout:
        return None
    doc = json.loads(r.stdout)
    return [{n["index"]: n["verts"] for n in fr["nodes"] if "verts" in n}
            for fr in doc["frames"]]


def extent(frames):
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for fr in frames:
        for verts in fr.values():
            for v in verts:
                for c in range(3):
                    if v[c] is not None and math.isfinite(v[c]):
                        lo[c] = min(lo[c], v[c])
                        hi[c] = max(hi[c], v[c])
    if lo[0] == math.inf:
        return 1.0
    return max(math.dist(lo, hi), 1e-12)


def clear():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def set_time(t):
    whole = math.floor(t)
    bpy.context.scene.frame_set(int(whole), subframe=t - whole)


def measure(objs_by_node, ref, times, ext):
    """Worst |blender - kf3ds| / extent over the mesh vertices."""
    worst = 0.0
    count = 0
    for k, t in enumerate(times):
        set_time(t)
        dg = bpy.context.evaluated_depsgraph_get()
        for node, verts in ref[k].items():
            ob = objs_by_node.get(node)
            if ob is None or ob.type != "MESH":
                continue
            m = ob.evaluated_get(dg).matrix_world
            bv = ob.data.vertices  # the node's own mesh, as kf3ds eval --verts
            if len(bv) != len(verts):
                continue
            for v, r in zip(bv, verts):
                w = m @ v.co
                if any(x is None for x in r):
                    continue
                d = math.dist(w, r) / ext
                if d > worst:
                    worst = d
                count += 1
    return worst, count


def camera_deviation(path, by_node, times):
    """Worst difference of the camera's view direction and up vector (unit
    vectors) and FOV (radians) from kf3ds_node_camera_view's."""
    import ctypes as C
    from mathutils import Matrix, Vector
    from kf3ds import _structs as S
    from kf3ds._lib import lib as clib
    cams = {i: ob for i, ob in by_node.items() if ob.type == "CAMERA"}
    if not cams:
        return 0.0
    worst = 0.0
    with kf3ds.load(path) as s:
        ptr = s._ptr()
        for t in times:
            set_time(t)
            poses = s._poses(ptr, float(t), 0)
            for i, ob in cams.items():
                view, fov, roll = S.Mat4(), C.c_float(), C.c_float()
                if not clib.kf3ds_node_camera_view(ptr, i, poses, C.byref(view), C.byref(fov),
                                                   C.byref(roll)):
                    continue
                w = Matrix([list(r) for r in view.m]).inverted()
                bw = ob.matrix_world
                for axis in (Vector((0, 0, -1)), Vector((0, 1, 0))):
                    d = ((w.to_3x3() @ axis).normalized() - (bw.to_3x3() @ axis).normalized())
                    worst = max(worst, d.length)
                worst = max(worst, abs(math.radians(fov.value) - ob.data.angle))
    return worst


status = 0
for path in files:
    scene = kf3ds.load(path)
    a, b = scene.segment
    nodes = scene.nodes
    scene.close()
    times = sample_times(a, b, n_times)
    ref = kf3ds_verts(path, times)
    name = os.path.basename(path)
    if not nodes or ref is None:
        print("add-on %s: no keyframer nodes, nothing to compare" % name)
        continue
    ext = extent(ref)
    clear()
    objs = importer.import_file(bpy.context, path)
    s2 = kf3ds.load(path)
    hidden = [[p["hidden"] for p in s2.poses(t)] for t in times]
    s2.close()
    hide_wrong = 0
    for ob in objs:  # visibility keys hide objects, not move them: measure all
        ad = ob.animation_data
        node = ob.get("kf3ds_node")
        fcs = [fc for fc in ad.action.fcurves if fc.data_path == "hide_render"] \
            if ad and ad.action else []
        for k, t in enumerate(times):
            shown = bool(fcs[0].evaluate(t)) if fcs else False
            if node is not None and shown != hidden[k][node]:
                hide_wrong += 1
        if ad and ad.action:
            for fc in ad.action.fcurves:
                if fc.data_path.startswith("hide_"):
                    fc.mute = True
        ob.hide_viewport = False
    by_node = {ob["kf3ds_node"]: ob for ob in objs if "kf3ds_node" in ob}
    worst, count = measure(by_node, ref, times, ext)
    cam = camera_deviation(path, by_node, times)
    if cam > bound:
        print("add-on %s: camera view or FOV differs from kf3ds by %.3g" % (name, cam))
    ok = worst <= bound and not hide_wrong and cam <= bound
    if hide_wrong:
        print("add-on %s: hidden differs from kf3ds at %d object frames" % (name, hide_wrong))
    print("add-on %s: worst %.3g of the extent %.6g over %d vertex positions at %d frames "
          "(%s), camera %.3g %s" % (name, worst, ext, count, len(times),
                                    " ".join("%g" % t for t in times), cam,
                                    "ok" if ok else "ABOVE %g" % bound))
    sys.stdout.flush()
    if not ok:
        status = 1
    if builtin:
        clear()
        import addon_utils
        if not any(m.__name__ == "io_scene_3ds" for m in addon_utils.modules()):
            print("builtin %s: not measured: this Blender has no io_scene_3ds add-on "
                  "(Debian's blender 3.4 does not ship it)" % name)
            continue
        addon_utils.enable("io_scene_3ds", default_set=True)
        try:
            bpy.ops.import_scene.autodesk_3ds(filepath=path, axis_forward="Y", axis_up="Z",
                                              constrain_size=0.0, use_apply_transform=True)
        except Exception as e:  # report, never fail: it is the comparison
            print("builtin %s: import failed: %s" % (name, e))
            continue
        animated = sum(1 for ob in bpy.context.scene.objects
                       if ob.animation_data and ob.animation_data.action)
        s2 = kf3ds.load(path)
        by_name = {}
        for i, n in enumerate(s2.nodes):
            if n.type == "object" and n.mesh >= 0 and n.name not in by_name:
                ob = bpy.context.scene.objects.get(n.name)
                if ob is not None and ob.type == "MESH":
                    by_name[i] = ob
        s2.close()
        worst_b, count_b = measure(by_name, ref, times, ext)
        print("builtin %s: worst %.3g of the extent over %d vertex positions, %d of %d "
              "objects animated" % (name, worst_b, count_b, animated,
                                    len(bpy.context.scene.objects)))
        sys.stdout.flush()
sys.exit(status)
