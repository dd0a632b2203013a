"""Run by Blender: blender -b --factory-startup --python tests/blender/check_export.py --
   OUTDIR [FILE...] [--bound B]

Export round trips through the add-on's exporter (blender/io_import_kf3ds):
scenes built here in Blender (a multi-turn spin, a hierarchy with pivots and
scale, a camera fly-through with roll and zoom) and each FILE imported by the
add-on are written as .3ds, read back by kf3ds, and Blender's motion is
compared with kf3ds's evaluation of the written file at every whole frame
(the frames the exporter keys): every mesh vertex's world position relative to
the scene extent, and for cameras the view direction, up vector and field of
view. Prints one line per scene; exits 1 when one is above the bound (1e-4)."""
import math
import os
import sys

import bpy
from mathutils import Matrix, Vector

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "blender"))
import io_import_kf3ds  # noqa: E402,F401
from io_import_kf3ds import exporter, importer  # noqa: E402
import kf3ds  # noqa: E402
import numpy as np  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
outdir, files, bound = argv[0], [], 1e-4
i = 1
while i < len(argv):
    if argv[i] == "--bound":
        bound = float(argv[i + 1])
        i += 2
    else:
        files.append(argv[i])
        i += 1
os.makedirs(outdir, exist_ok=True)


def clear():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def key_linear(ob):
    for fc in ob.animation_data.action.fcurves:
        for k in fc.keyframe_points:
            k.interpolation = "LINEAR"


def box(name, size=1.0, offset=(0, 0, 0)):
    me = bpy.data.meshes.new(name)
    s = size
    v = [(x * s + offset[0], y * s + offset[1], z * s + offset[2])
         for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    f = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    me.from_pydata(v, [], f)
    ob = bpy.data.objects.new(name, me)
    bpy.context.scene.collection.objects.link(ob)
    return ob


def scene_spin():
    sc = bpy.context.scene
    sc.frame_start, sc.frame_end = 0, 60
    ob = box("Spinner", 2.0, (3, 0, 0))
    ob.rotation_mode = "XYZ"
    for f, ang in ((0, 0.0), (60, 3 * 2 * math.pi)):  # three whole turns
        ob.rotation_euler = (0.2, 0.0, ang)
        ob.location = (f * 0.1, 0, 0)
        ob.keyframe_insert("rotation_euler", frame=f)
        ob.keyframe_insert("location", frame=f)
    key_linear(ob)


def scene_hierarchy():
    sc = bpy.context.scene
    sc.frame_start, sc.frame_end = 0, 40
    root = bpy.data.objects.new("Root", None)
    sc.collection.objects.link(root)
    arm = box("Arm", 1.0, (4, 0, 0))          # the origin (pivot) away from the mesh
    arm.parent = root
    hand = box("Hand", 0.5, (1, 1, 0))
    hand.parent = arm
    hand.location = (8, 0, 0)
    for f in (0, 20, 40):
        root.location = (0, f * 0.2, 0)
        root.rotation_euler = (0, 0, f * 0.05)
        root.scale = (1 + f * 0.01,) * 3
        arm.rotation_euler = (f * 0.03, 0, f * 0.07)
        arm.scale = (1.0, 1.0 + f * 0.02, 1.0)
        hand.rotation_euler = (0, f * 0.1, 0)
        for ob in (root, arm, hand):
            ob.keyframe_insert("location", frame=f)
            ob.keyframe_insert("rotation_euler", frame=f)
            ob.keyframe_insert("scale", frame=f)
    hand.hide_render = True
    hand.keyframe_insert("hide_render", frame=30)
    hand.hide_render = False
    hand.keyframe_insert("hide_render", frame=0)


def scene_flythrough():
    sc = bpy.context.scene
    sc.frame_start, sc.frame_end = 0, 48
    box("Ground", 5.0, (0, 0, -6))
    cam = bpy.data.objects.new("FlyCam", bpy.data.cameras.new("FlyCam"))
    sc.collection.objects.link(cam)
    cam.data.sensor_fit = "VERTICAL"
    for f in (0, 24, 48):
        cam.location = (-20 + f * 0.8, -30 + f * 0.5, 10 - f * 0.1)
        cam.rotation_euler = (math.radians(60 + f * 0.3), math.radians(f * 0.4),
                              math.radians(-30 + f))
        cam.data.lens = 35 + f * 0.5
        cam.keyframe_insert("location", frame=f)
        cam.keyframe_insert("rotation_euler", frame=f)
        cam.data.keyframe_insert("lens", frame=f)
    sc.camera = cam


def compare(label, path):
    """Worst vertex deviation (relative to the extent) and camera deviation."""
    sc = bpy.context.scene
    objects = [ob for ob in sc.objects if ob.type in ("MESH", "EMPTY", "CAMERA", "LIGHT")]
    names = exporter._names(_ordered(objects))
    s = kf3ds.load(path)
    frames = list(range(s.segment[0], s.segment[1] + 1))
    dg = bpy.context.evaluated_depsgraph_get()
    local = {ob: exporter._mesh_arrays(ob, dg)[0] for ob in objects if ob.type == "MESH"}
    blender, ref = [], []
    cam_worst = 0.0
    hide_wrong = 0
    for f in frames:
        sc.frame_set(f)
        kposes = s.poses(f)
        for ob in local:
            if kposes[s.find_node(names[ob])]["hidden"] != bool(ob.hide_render):
                hide_wrong += 1
        for ob, pts in local.items():
            node = s.find_node(names[ob])
            if node is None:
                raise AssertionError("%s: no node %r in the written file" % (label, names[ob]))
            m = ob.matrix_world
            blender.append(np.array([tuple(m @ Vector(p)) for p in pts]))
            ref.append(s.vertices(f, node).astype(np.float64))
        for ob in objects:
            if ob.type != "CAMERA":
                continue
            import ctypes as C
            from kf3ds import _structs as S
            from kf3ds._lib import lib as clib
            ptr = s._ptr()
            poses = s._poses(ptr, float(f), 0)
            view = S.Mat4()
            fov, roll = C.c_float(), C.c_float()
            clib.kf3ds_node_camera_view(ptr, s.find_node(names[ob]), poses, C.byref(view),
                                        C.byref(fov), C.byref(roll))
            w = Matrix([list(r) for r in view.m]).inverted()
            bw = ob.matrix_world
            for axis in (Vector((0, 0, -1)), Vector((0, 1, 0))):
                a = (w.to_3x3() @ axis).normalized()
                b = (bw.to_3x3() @ axis).normalized()
                cam_worst = max(cam_worst, (a - b).length)
            cam_worst = max(cam_worst, abs(math.radians(fov.value) - ob.data.angle_y))
    s.close()
    allref = np.concatenate(ref) if ref else np.zeros((1, 3))
    ext = max(float(np.linalg.norm(allref.max(0) - allref.min(0))), 1e-12)
    worst = max((float(np.abs(np.linalg.norm(a - b, axis=1)).max()) for a, b in
                 zip(blender, ref) if len(a)), default=0.0) / ext
    if hide_wrong:
        cam_worst = math.inf  # counted as a failure below
        print("export %s: hidden differs at %d object frames" % (label, hide_wrong))
    return worst, cam_worst, len(frames), ext


def _ordered(objects):
    order, seen = [], set()

    def visit(ob):
        if ob in seen:
            return
        if ob.parent in objects:
            visit(ob.parent)
        seen.add(ob)
        order.append(ob)
    for ob in objects:
        visit(ob)
    return order


status = 0
cases = [("spin", scene_spin), ("hierarchy", scene_hierarchy), ("flythrough", scene_flythrough)]
cases += [(os.path.basename(p), p) for p in files]
for label, make in cases:
    clear()
    if callable(make):
        make()
    else:
        importer.import_file(bpy.context, make)
    out = os.path.join(outdir, label.replace(".", "_") + ".3ds")
    exporter.export_file(bpy.context, out)
    worst, cam, n, ext = compare(label, out)
    ok = worst <= bound and cam <= bound
    print("export %s: worst vertex %.3g of the extent %.6g, camera %.3g, at %d whole frames %s"
          % (label, worst, ext, cam, n, "ok" if ok else "ABOVE %g" % bound))
    sys.stdout.flush()
    if not ok:
        status = 1
sys.exit(status)
