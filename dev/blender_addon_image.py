"""docs/img/blender-addon.png (make blender-image): Blender, run headless,
imports a .3ds through the add-on (blender/io_import_kf3ds) and renders one
frame with Cycles on the CPU, seen from the file's own camera when it has one.

    blender -b --factory-startup --python dev/blender_addon_image.py -- FILE FRAME PNG
"""
import math
import os
import sys

import bpy
from mathutils import Vector

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "blender"))
from io_import_kf3ds import importer  # noqa: E402

path, frame, png = sys.argv[sys.argv.index("--") + 1:][:3]
frame = float(frame)
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
objs = importer.import_file(bpy.context, path)
scene.frame_set(int(frame), subframe=frame - int(frame))

cams = [ob for ob in objs if ob.type == "CAMERA"]
if cams:
    scene.camera = cams[0]
else:  # frame the meshes from above and to the side
    dg = bpy.context.evaluated_depsgraph_get()
    lo = Vector((math.inf,) * 3)
    hi = Vector((-math.inf,) * 3)
    for ob in objs:
        if ob.type == "MESH":
            ev = ob.evaluated_get(dg)
            for v in ev.data.vertices:
                p = ev.matrix_world @ v.co
                lo = Vector(min(a, b) for a, b in zip(lo, p))
                hi = Vector(max(a, b) for a, b in zip(hi, p))
    centre, radius = (lo + hi) / 2, (hi - lo).length / 2
    cam = bpy.data.objects.new("view", bpy.data.cameras.new("view"))
    scene.collection.objects.link(cam)
    cam.location = centre + Vector((-1.2, -1.6, 0.9)).normalized() * radius * 3.0
    cam.rotation_euler = (centre - cam.location).to_track_quat("-Z", "Y").to_euler()
    scene.camera = cam
sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
sun.data.energy = 3.0
sun.rotation_euler = (0.7, 0.2, 0.6)
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("world")
world.color = (0.18, 0.2, 0.24)
scene.world = world
for ob in objs:  # the file's lights are in 3DS units, not watts: let the sun light
    if ob.type == "LIGHT":
        ob.hide_render = True
        if ob.animation_data and ob.animation_data.action:
            for fc in ob.animation_data.action.fcurves:
                if fc.data_path == "hide_render":
                    fc.mute = True
scene.render.engine = "CYCLES"
scene.cycles.device = "CPU"
scene.cycles.use_denoising = False  # Debian builds Cycles without OpenImageDenoise
scene.cycles.samples = 48
scene.render.resolution_x = 480
scene.render.resolution_y = 360
scene.render.filepath = os.path.abspath(png)
bpy.ops.render.render(write_still=True)
print("rendered %s: %s at frame %g" % (png, os.path.basename(path), frame))
