"""Run by Blender: blender -b --factory-startup --python tests/blender/check_gltf_import.py --
   KF3DS_TOOL OUTDIR [--strict-nlerp] [--sub S] [--bound B]
   [--frames N] [--export-opt OPT | --no-export-opt] [--strict | --report] FILE...
   (--frames, --export-opt, --no-export-opt, --strict and --report apply to
   the FILEs after them)

Blender's own glTF importer (io_scene_gltf2, bpy.ops.import_scene.gltf) reads
what `kf3ds export` writes (by default resampled, docs/gltf.md "Resampling");
nothing of kf3ds reads the glTF. For each FILE the export is imported into an
empty scene and played at S instants per frame (default 10) of N frames
spread over the segment (default 60, every frame when shorter). At each
instant every kf3ds node's box is compared with the box of the vertices
`kf3ds eval --verts` prints, as tests/gltf/check_three.mjs does for three.js:
a node's box is the world-space box of the meshes of its Blender object and
of its unmarked children (morph and hide holders, docs/gltf.md rules 17-18);
a node kf3ds hides must collapse (scale 0), so there the box's own size
counts. Boxes, not vertices: the importer splits and reorders vertices, so
a box is what can be matched without reading the glTF ourselves.

The deviation is a fraction of the extent (the largest side of the box of the
vertices kf3ds shows at the instants checked). Where a node shows a morph
target, eval --verts still prints its own mesh, so there the reference is the
target placed by kf3ds_node_mesh_matrix (the Python package). Blender 3.4's
importer plays LINEAR and STEP as glTF says, but interpolates each quaternion
component linearly and normalises (nlerp, not slerp) and drops CUBICSPLINE
tangents (it keeps the key values under automatic Bezier handles:
io_scene_gltf2/blender/imp/gltf2_blender_animation_utils.py), see
docs/gltf.md "How it is checked". So each node is put in one class by what
moves it, itself and its ancestors: "cubic" (some Bezier F-curve), else
"nlerp" (some animated quaternion), else "linear"; one line per file:

  gltf FILE: linear N nodes worst D (node I frame F) VERDICT; nlerp ...;
      cubic ...; K of C channels cubic, O over tolerance, T instants,
      extent E, S s: ok|FAILED

The instants include the frames of up to 8 rotation keys that turn over 1 rad
within one frame (as test_export's). A class within B (default 1e-5) plus the
time noise (how far float32 times alone move a vertex, docs/gltf.md rule 39)
is "ok". Above it, "cubic" is Blender's loss
and never fails; a file whose export gave up the bound on some channel
(asset.extras.kf3ds.channels_over_tolerance, docs/gltf.md rule 36) is
reported, not failed; "nlerp" fails only with --strict-nlerp (for when the
exporter caps the angle between rotation keys so that nlerp keeps the bound);
"linear" always fails. After --strict (for `kf3ds export --linear`, LINEAR and
STEP keys within the bound, docs/gltf.md rule 36) nothing is excused: every
class must be within B (--report goes back to the above). Exit 1 on a
failure, 0 otherwise, 77 when this Blender has no glTF importer or no numpy."""
import json
import math
import os
import struct
import subprocess
import sys
import time

import bpy

try:  # Debian bookworm's Blender 3.4 importer still says np.bool, gone in numpy 1.24
    import numpy as np
    if "bool" in getattr(np, "__former_attrs__", {}):
        np.bool = bool
except ImportError:  # the importer itself needs numpy
    print("gltf: SKIPPED: Blender's Python has no numpy (apt-get install python3-numpy)")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import kf3ds  # noqa: E402  (the ctypes package: segment and hidden state only)

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
tool, outdir = argv[0], argv[1]
files, n_frames, sub, bound, export_opts, strict_nlerp, strict = [], 60, 10, 1e-5, [], False, False
i = 2
while i < len(argv):
    if argv[i] == "--strict-nlerp":
        strict_nlerp = True
        i += 1
    elif argv[i] in ("--strict", "--report"):
        strict = argv[i] == "--strict"
        i += 1
    elif argv[i] == "--no-export-opt":
        export_opts = []
        i += 1
    elif argv[i] in ("--frames", "--sub", "--bound", "--export-opt"):
        v = argv[i + 1]
        if argv[i] == "--frames":
            n_frames = int(v)
        elif argv[i] == "--sub":
            sub = int(v)
        elif argv[i] == "--bound":
            bound = float(v)
        else:
            export_opts = export_opts + [v]
        i += 2
    else:  # --frames, --export-opt, --strict apply to the files after them
        files.append((argv[i], n_frames, export_opts, strict))
        i += 1

# bpy.ops answers any name; the registered operator's class tells.
if not hasattr(bpy.types, "IMPORT_SCENE_OT_gltf"):
    import addon_utils
    try:
        addon_utils.enable("io_scene_gltf2", default_set=True)
    except Exception:  # reported below
        pass
    if not hasattr(bpy.types, "IMPORT_SCENE_OT_gltf"):
        print("gltf: SKIPPED: this Blender has no glTF importer (io_scene_gltf2)")
        sys.exit(77)


SPIN_RAD, MAX_SPINS = 1.0, 8


def spin_frames(s, a, b):
    """Frames where a rotation key turns more than SPIN_RAD within one frame (at
    most MAX_SPINS), as test_export's spin_frames: the export's keys are
    tightest there (blitz3d-mak_robotic's root turns 6.2 rad in frame 286)."""
    out = []
    for n in s.nodes:
        t = n.tracks.get("rot")
        if t is None:
            continue
        for k in range(1, len(t)):
            fa, fb = int(t.frames[k - 1]), int(t.frames[k])
            if fb - fa == 1 and abs(float(t.values[k][0])) > SPIN_RAD and a <= fa and fb <= b:
                out.append(fa)
                if len(out) == MAX_SPINS:
                    return out
    return out


def instants(a, b, n_frames, spins=()):
    """sub instants per frame of at most n_frames frames spread over a..b (as
    test_export's test_resampled_bound chooses them), the frames in spins,
    and b itself."""
    count = int(b - a) + 1
    stride = -(-count // n_frames) if count > n_frames else 1
    starts = set()
    k = 0
    while a + k <= b:
        starts.add(a + k)
        k += stride
    starts.update(spins)
    out = [t for f in sorted(starts) for t in (f + j / sub for j in range(sub)) if t <= b]
    if out[-1] != b:
        out.append(float(b))
    return out


def half_ulp(x):
    """Half a float32 unit in the last place at |x|."""
    return 2.0 ** (math.floor(math.log2(x)) - 24) if x > 0 else 0.0


def time_noise(times, ref, hidden, first, fps):
    """How far float32 times alone may move a vertex (docs/gltf.md rule 39), as
    tests/gltf/check_three.mjs works it out: the fastest reference box's speed
    (its largest change between neighbouring instants over their time apart)
    times the time's error: half a unit of the glTF's float seconds, and of
    Blender's float frames twice (the F-curve's key times and the frame asked
    for), at the last instant."""
    speed = 0.0
    for k in range(1, len(times)):
        dt = (times[k] - times[k - 1]) / fps
        if not dt > 0:
            continue
        for node, (lo, hi) in ref[k].items():
            if node not in ref[k - 1] or hidden[k][node] or hidden[k - 1][node]:
                continue
            plo, phi = ref[k - 1][node]
            speed = max(speed, float(np.max(np.abs(lo - plo))) / dt,
                        float(np.max(np.abs(hi - phi))) / dt)
    last = times[-1] - first
    return speed * (half_ulp(last / fps) + 2.0 * half_ulp(last) / fps)


def reference_boxes(path, times):
    """Per instant {node: (lo, hi)} of the vertices kf3ds eval --verts prints."""
    out = []
    step = 200  # instants per run: keeps one JSON document small
    for s in range(0, len(times), step):
        args = [tool, "eval", path, "--json", "--verts", "-q"]
        for t in times[s:s + step]:
            args += ["--frame", repr(t)]
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        doc = json.loads(r.stdout)
        for fr in doc["frames"]:
            boxes = {}
            for n in fr["nodes"]:
                vs = n.get("verts")
                if not vs:
                    continue
                a = np.array(vs, dtype=np.float64)  # null (not finite) becomes nan
                boxes[n["index"]] = (np.nanmin(a, axis=0), np.nanmax(a, axis=0))
            out.append(boxes)
    return out


def morph_boxes(s, t, poses):
    """{node: (lo, hi)} for the nodes that show a morph target at t: kf3ds eval
    --verts prints a node's own mesh, kf3ds shows the target placed by the
    node's own matrix (kf3ds_node_mesh_matrix; docs/gltf.md rule 18)."""
    out = {}
    for i, p in enumerate(poses):
        own = s.nodes[i].mesh
        if own < 0 or p["morph_mesh"] < 0 or p["morph_mesh"] == own:
            continue
        m = s.mesh_matrix(t, i)
        pts = s.meshes[p["morph_mesh"]].points
        if m is None or not len(pts):
            continue
        w = pts.astype(np.float64) @ m[:3, :3].T.astype(np.float64) + m[:3, 3]
        out[i] = (np.nanmin(w, axis=0), np.nanmax(w, axis=0))
    return out


def glb_json(path):
    """The JSON chunk of a .glb: only its asset extras and sampler kinds are
    read (the export's own account, not the geometry)."""
    with open(path, "rb") as f:
        head = f.read(20)
        length = struct.unpack("<I", head[12:16])[0]
        return json.loads(f.read(length))


def collect_meshes(ob):
    """Mesh objects drawing for ob: itself and its children that are not
    kf3ds nodes (holders), with their local vertices as an (n, 4) array."""
    out = []
    todo = [ob]
    while todo:
        o = todo.pop()
        if o.type == "MESH" and len(o.data.vertices):
            co = np.empty(len(o.data.vertices) * 3, dtype=np.float64)
            o.data.vertices.foreach_get("co", co)
            co = np.hstack([co.reshape(-1, 3), np.ones((len(o.data.vertices), 1))])
            out.append((o, co))
        todo.extend(c for c in o.children if "kf3ds_index" not in c.keys())
    return out


def chain_kind(ob):
    """How Blender moves ob: "cubic" when ob or an ancestor has a Bezier
    F-curve (a CUBICSPLINE channel, its tangents dropped), else "nlerp" when
    one has an animated quaternion (component-wise, normalised), else
    "linear" (LINEAR and STEP channels only, which Blender plays as glTF
    says)."""
    kind = "linear"
    while ob is not None:
        ad = ob.animation_data
        for fc in (ad.action.fcurves if ad and ad.action else []):
            kp = fc.keyframe_points
            if len(kp) > 1 and kp[0].interpolation == "BEZIER":
                return "cubic"
            if len(kp) > 1 and fc.data_path == "rotation_quaternion":
                kind = "nlerp"
        ob = ob.parent
    return kind


KINDS = ("linear", "nlerp", "cubic")


def check(path, n_frames, export_opts, strict):
    t0 = time.monotonic()
    name = os.path.basename(path)
    with kf3ds.load(path) as s:
        a, b = s.segment
        if not s.nodes:
            print("gltf %s: no keyframer nodes, nothing to compare" % name)
            return True
        times = instants(a, max(a, b), n_frames, spin_frames(s, a, max(a, b)))
        poses = [s.poses(t) for t in times]
        hidden = [[p["hidden"] for p in ps] for ps in poses]
        morph = [morph_boxes(s, t, ps) for t, ps in zip(times, poses)]
    glb = os.path.join(outdir, os.path.splitext(name)[0] +
                       "".join(o.replace("-", "_") for o in export_opts) + ".glb")
    r = subprocess.run([tool, "export", path, "-o", glb, "-q"] + export_opts,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not os.path.exists(glb) or r.returncode not in (0, 1):
        print("gltf %s: FAILED: kf3ds export exit %d: %s" % (name, r.returncode,
                                                             r.stderr.decode(errors="replace")))
        return False
    doc = glb_json(glb)
    extras = doc.get("asset", {}).get("extras", {}).get("kf3ds", {})
    fps = extras.get("fps", 30)
    first = extras.get("segment_start", a)
    over = extras.get("channels_over_tolerance", 0)
    samplers = [sm.get("interpolation", "LINEAR") for an in doc.get("animations", [])
                for sm in an.get("samplers", [])]
    ref = reference_boxes(path, times)
    for boxes, shown in zip(ref, morph):
        boxes.update(shown)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    # The importer puts glTF time t at Blender frame t * render.fps (fps_base
    # ignored): with the export's fps, Blender frame f - first is 3DS frame f.
    scene.render.fps = int(fps)
    scene.render.fps_base = 1.0
    bpy.ops.import_scene.gltf(filepath=glb)
    marked = {int(ob["kf3ds_index"]): ob for ob in scene.objects if "kf3ds_index" in ob.keys()}
    meshes = {i: collect_meshes(ob) for i, ob in marked.items()}
    kind = {i: chain_kind(ob) for i, ob in marked.items()}

    lo_all = np.full(3, np.inf)
    hi_all = np.full(3, -np.inf)
    for k, boxes in enumerate(ref):
        for node, (lo, hi) in boxes.items():
            if not hidden[k][node]:
                lo_all = np.fmin(lo_all, lo)
                hi_all = np.fmax(hi_all, hi)
    ext = float(np.max(hi_all - lo_all)) if np.all(np.isfinite(lo_all)) else 1.0
    ext = ext if ext > 0 else 1.0
    noise = time_noise(times, ref, hidden, first, fps) / ext

    worst = {c: [0.0, -1, 0.0] for c in KINDS}
    missing = 0
    for k, t in enumerate(times):
        bt = t - first  # the Blender frame (render.fps is the export's)
        whole = math.floor(bt)
        scene.frame_set(int(whole), subframe=bt - whole)
        dg = bpy.context.evaluated_depsgraph_get()
        for node, (lo, hi) in ref[k].items():
            if node not in marked:
                missing += 1
                continue
            glo = np.full(3, np.inf)
            ghi = np.full(3, -np.inf)
            for ob, co in meshes[node]:
                m = np.array(ob.evaluated_get(dg).matrix_world)
                w = co @ m[:3].T
                glo = np.fmin(glo, w.min(axis=0))
                ghi = np.fmax(ghi, w.max(axis=0))
            if not np.all(np.isfinite(glo)):
                d = 0.0 if hidden[k][node] else math.inf
            elif hidden[k][node]:
                d = float(np.max(ghi - glo))
            else:
                d = float(max(np.max(np.abs(glo - lo)), np.max(np.abs(ghi - hi))))
            d /= ext
            w = worst[kind[node]]
            if not d <= w[0]:
                w[0], w[1], w[2] = d, node, t
    verdict = {}
    for c in KINDS:
        if worst[c][0] <= bound + noise:
            verdict[c] = "ok"
        elif strict:  # --linear: nothing to excuse
            verdict[c] = "ABOVE %g" % bound
        elif c == "cubic":  # Blender's loss, not kf3ds's: docs/gltf.md
            verdict[c] = "above, tangents dropped by the importer"
        elif over:  # the export says it gave up the bound there (rule 36)
            verdict[c] = "above, %d channels over tolerance" % over
        elif c == "nlerp" and not strict_nlerp:
            verdict[c] = "above, expected within once rotation keys are capped for nlerp"
        else:
            verdict[c] = "ABOVE %g" % bound
    ok = not missing and not any(v.startswith("ABOVE") for v in verdict.values())
    measured = set(n for boxes in ref for n in boxes if n in marked)
    counts = {c: sum(1 for n in measured if kind[n] == c) for c in KINDS}
    print("gltf %s%s: %s; %d of %d channels cubic, %d over tolerance, %d instants, extent %.6g, "
          "time noise %.3g, %.1f s: %s" % (
              name, "".join(" " + o for o in export_opts),
              "; ".join("%s %d nodes worst %.3g (node %d frame %g) %s" % (
                  c, counts[c], worst[c][0], worst[c][1], worst[c][2], verdict[c])
                  for c in KINDS if counts[c]),
              sum(1 for x in samplers if x == "CUBICSPLINE"), len(samplers), over, len(times),
              ext, noise, time.monotonic() - t0, "ok" if ok else "FAILED"))
    if missing:
        print("gltf %s: %d node boxes without a Blender object" % (name, missing))
    sys.stdout.flush()
    return ok


os.makedirs(outdir, exist_ok=True)
status = 0
for p, n, opts, st in files:
    if not check(p, n, opts, st):
        status = 1
sys.exit(status)
