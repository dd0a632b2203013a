# Blender reads a kf3ds export: imports OUT.glb with Blender's own glTF
# importer, compares every marked node's world-space vertex box at a few
# frames with `kf3ds eval --verts`, and optionally renders one frame to a PNG
# (the README's picture). Nothing of kf3ds is used to read the glTF.
#   blender -b --python tools/blender_gltf.py -- OUT.glb FILE.3ds KF3DS \
#       [--frames 0,100,200] [--render FRAME PNG]
# Prints one line per frame: "frame F: N nodes, worst box difference D
# (of the scene's size S)" and, after rendering, "rendered PNG".
import json
import math
import subprocess
import sys

import bpy
from mathutils import Vector

try:  # Debian bookworm's Blender 3.4 importer still says np.bool, gone in numpy 1.24
    import numpy
    if "bool" in getattr(numpy, "__former_attrs__", {}):
        numpy.bool = bool
except ImportError:
    pass

args = sys.argv[sys.argv.index("--") + 1:]
glb, source, tool = args[0], args[1], args[2]
frames = [0, 100, 200, 300]
render = None
i = 3
while i < len(args):
    if args[i] == "--frames":
        frames = [int(f) for f in args[i + 1].split(",")]
        i += 2
    elif args[i] == "--render":
        render = (int(args[i + 1]), args[i + 2])
        i += 3
    else:
        sys.exit(f"blender_gltf.py: unknown argument {args[i]}")

bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 30  # kf3ds export's default timeline: frame f at f/30 s
bpy.ops.import_scene.gltf(filepath=glb)

marked = {}
for ob in bpy.data.objects:
    if "kf3ds_index" in ob.keys():
        marked[int(ob["kf3ds_index"])] = ob


def world_box(ob, depsgraph):
    """The box of the meshes of ob and its unmarked descendants (Blender's
    Z-up world is 3DS's: the importer undoes the export's Y-up turn)."""
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    todo = [ob]
    any_vertex = False
    while todo:
        o = todo.pop()
        if o.type == "MESH":
            ev = o.evaluated_get(depsgraph)
            m = ev.matrix_world
            for v in ev.data.vertices:
                p = m @ v.co
                for k in range(3):
                    lo[k] = min(lo[k], p[k])
                    hi[k] = max(hi[k], p[k])
                any_vertex = True
        todo.extend(c for c in o.children if "kf3ds_index" not in c.keys())
    return (lo, hi) if any_vertex else None


ref = json.loads(subprocess.run(
    [tool, "eval", source, "--json", "--verts"] + sum([["--frame", str(f)] for f in frames], []),
    check=True, capture_output=True, text=True).stdout)

for fr, want in zip(frames, ref["frames"]):
    scene.frame_set(fr)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    boxes = {}
    lo_all = [math.inf] * 3
    hi_all = [-math.inf] * 3
    for n in want["nodes"]:
        if "verts" not in n or not n["verts"]:
            continue
        lo = [min(v[k] for v in n["verts"]) for k in range(3)]
        hi = [max(v[k] for v in n["verts"]) for k in range(3)]
        boxes[n["index"]] = (lo, hi)
        for k in range(3):
            lo_all[k] = min(lo_all[k], lo[k])
            hi_all[k] = max(hi_all[k], hi[k])
    size = max(hi_all[k] - lo_all[k] for k in range(3)) if boxes else 1.0
    worst = 0.0
    worst_node = -1
    for index, (lo, hi) in boxes.items():
        got = world_box(marked[index], depsgraph) if index in marked else None
        if got is None:
            d = math.inf
        else:
            d = max(max(abs(got[0][k] - lo[k]), abs(got[1][k] - hi[k])) for k in range(3))
        if d > worst:
            worst, worst_node = d, index
    print(f"frame {fr}: {len(boxes)} nodes, worst box difference {worst / size:.3g} "
          f"(node {worst_node}) of the scene's size {size:.4g}")

if render:
    fr, png = render
    scene.frame_set(fr)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    lo = Vector((math.inf,) * 3)
    hi = Vector((-math.inf,) * 3)
    for ob in scene.objects:
        if ob.type == "MESH":
            ev = ob.evaluated_get(depsgraph)
            for v in ev.data.vertices:
                p = ev.matrix_world @ v.co
                lo = Vector(min(a, b) for a, b in zip(lo, p))
                hi = Vector(max(a, b) for a, b in zip(hi, p))
    centre = (lo + hi) / 2
    radius = (hi - lo).length / 2
    cam_data = bpy.data.cameras.new("view")
    cam_data.lens = 50
    cam = bpy.data.objects.new("view", cam_data)
    scene.collection.objects.link(cam)
    direction = Vector((-1.2, 1.6, 0.6)).normalized()
    cam.location = centre + direction * radius * 3.2
    cam.rotation_euler = (centre - cam.location).to_track_quat("-Z", "Y").to_euler()
    scene.camera = cam
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    sun.data.energy = 4.0
    sun.rotation_euler = (0.7, 0.2, 0.6)
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("world")
    world.color = (0.18, 0.2, 0.24)
    scene.world = world
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.use_denoising = False  # Debian builds Cycles without OpenImageDenoise
    scene.cycles.samples = 64
    scene.render.resolution_x = 480
    scene.render.resolution_y = 360
    scene.render.filepath = png
    bpy.ops.render.render(write_still=True)
    print(f"rendered {png}")
