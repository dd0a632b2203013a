"""File > Export > 3D Studio with animation (kf3ds): the Blender scene as a .3ds
file written by kf3ds's builder and writer (docs/blender.md, docs/writer.md).

The animation is sampled at every whole frame of the scene's range (3DS keys
sit on whole frames) with TCB 0, so a 3DS reader passes through Blender's pose
at each frame. Rotation keys are what 3DS expects: the first absolute, every
later one the increment from the previous orientation, stored as
Q_k = q(axis_k, -angle_k) . Q_(k-1) (docs/evaluation.md, "Accumulation")."""
import math

import bpy
import numpy as np
from mathutils import Matrix, Quaternion, Vector

import kf3ds

NAME_MAX = 10  # 3D Studio's object names; lib3ds 1.3 reads at most 10 bytes


def _names(objects):
    """Unique names of at most NAME_MAX bytes (ASCII), one per object."""
    used, out = set(), {}
    for ob in objects:
        base = ob.name.encode("ascii", "replace").decode("ascii").replace(" ", "_")[:NAME_MAX]
        name, k = base or "Object", 1
        while name in used:
            suffix = "%d" % k
            name = base[:NAME_MAX - len(suffix)] + suffix
            k += 1
        used.add(name)
        out[ob] = name
    return out


def _mesh_arrays(ob, depsgraph):
    """Points (object space), triangles, UVs and smooth flags of the evaluated
    mesh; a point per (vertex, UV) pair, as 3DS keeps one UV per point."""
    ev = ob.evaluated_get(depsgraph)
    me = ev.to_mesh()
    try:
        me.calc_loop_triangles()
        uv_layer = me.uv_layers.active.data if me.uv_layers.active else None
        index, points, uvs, faces, smooth, mats = {}, [], [], [], [], []
        for tri in me.loop_triangles:
            f = []
            for li, vi in zip(tri.loops, tri.vertices):
                uv = tuple(round(x, 6) for x in uv_layer[li].uv) if uv_layer else None
                key = (vi, uv)
                if key not in index:
                    index[key] = len(points)
                    points.append(tuple(me.vertices[vi].co))
                    uvs.append(uv or (0.0, 0.0))
                f.append(index[key])
            faces.append(f)
            smooth.append(1 if tri.use_smooth else 0)
            mats.append(tri.material_index)
        slots = [s.material.name if s.material else None for s in ob.material_slots]
        return points, faces, (uvs if uv_layer else None), smooth, mats, slots
    finally:
        ev.to_mesh_clear()


def _ordered(objects):
    """Depth first, each parent followed by its whole subtree: the builder
    needs parents first, and assimp rebuilds the tree from the node order
    rather than from the parent ids (docs/evaluation.md, "node id"), so any
    other order gives it wrong parents."""
    inside = set(objects)
    kids = {ob: [] for ob in objects}
    roots = []
    for ob in objects:
        (kids[ob.parent] if ob.parent in inside else roots).append(ob)
    order = []

    def visit(ob):
        order.append(ob)
        for ch in kids[ob]:
            visit(ch)
    for ob in roots:
        visit(ob)
    return order


def _material_color(mat):
    col = tuple(mat.diffuse_color)[:3]
    alpha = mat.diffuse_color[3]
    texture = None
    if mat.use_nodes and mat.node_tree:
        for n in mat.node_tree.nodes:
            if n.type == "BSDF_PRINCIPLED":
                col = tuple(n.inputs["Base Color"].default_value)[:3]
                alpha = n.inputs["Alpha"].default_value
            elif n.type == "TEX_IMAGE" and n.image and texture is None:
                texture = bpy.path.basename(n.image.filepath) or n.image.name
    return col, alpha, texture


def _sample(scene, objects, frames):
    """World matrices of every object at every frame."""
    out = {ob: [] for ob in objects}
    hidden = {ob: [] for ob in objects}
    extra = {ob: [] for ob in objects}
    for f in frames:
        scene.frame_set(f)
        for ob in objects:
            out[ob].append(ob.matrix_world.copy())
            hidden[ob].append(bool(ob.hide_render))
            if ob.type == "CAMERA":
                extra[ob].append(math.degrees(ob.data.angle_y if ob.data.sensor_fit != "HORIZONTAL"
                                              else ob.data.angle_x))
            elif ob.type == "LIGHT" and ob.data.type == "SPOT":
                extra[ob].append(math.degrees(ob.data.spot_size))
    return out, hidden, extra


def _qmul(a, b):
    """Quaternion product a . b, (w, x, y, z), in double precision."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw)


def _f32(x):
    return float(np.float32(x))


def _rotation_keys(b, node, frames, quats):
    """Q_k = q(axis_k, -angle_k) . Q_(k-1): the increment D = Q_k . Q_(k-1)^-1 as
    an axis and the negated angle (the short way round), in double precision
    with atan2 (acos loses small angles). Each increment is taken from the
    orientation the reader accumulates from the stored float32 values, not
    from Blender's, so rounding does not build up over the keys."""
    prev = (1.0, 0.0, 0.0, 0.0)
    for f, q in zip(frames, quats):
        q = tuple(float(c) for c in q)
        n = math.sqrt(sum(c * c for c in q)) or 1.0
        q = tuple(c / n for c in q)
        d = _qmul(q, (prev[0], -prev[1], -prev[2], -prev[3]))
        if d[0] < 0:
            d = tuple(-c for c in d)
        sn = math.sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3])
        if sn < 1e-12:
            angle, axis = 0.0, (0.0, 0.0, 1.0)
        else:
            angle = 2.0 * math.atan2(sn, d[0])
            axis = (d[1] / sn, d[2] / sn, d[3] / sn)
        a32 = _f32(-angle)
        ax32 = tuple(_f32(c) for c in axis)
        b.key(node, "rot", f, (a32,) + ax32)
        # what the reader accumulates: q(axis, -stored angle) . prev
        la = math.sqrt(sum(c * c for c in ax32)) or 1.0
        h = -a32 / 2.0
        inc = (math.cos(h),) + tuple(math.sin(h) * c / la for c in ax32)
        prev = _qmul(inc, prev)


def _hide_keys(b, node, frames, hidden):
    """Hide keys toggle from the second on (docs/evaluation.md, "Hide track")."""
    if not any(hidden):
        return
    b.key(node, "hide", frames[0])
    state = False
    for f, h in zip(frames, hidden):
        if h != state:
            b.key(node, "hide", f)
            state = h


def _trs_keys(b, node, frames, locals_):
    quats = []
    for f, m in zip(frames, locals_):
        loc, q, s = m.decompose()
        b.key(node, "pos", f, tuple(loc))
        b.key(node, "scl", f, tuple(s))
        quats.append(q)
    _rotation_keys(b, node, frames, quats)


def build(context, *, selected_only=False):
    """The kf3ds.Scene of the Blender scene."""
    scene = context.scene
    kinds = ("MESH", "EMPTY", "CAMERA", "LIGHT")
    objects = [ob for ob in scene.objects if ob.type in kinds and
               (not selected_only or ob.select_get())]
    objects = _ordered(objects)
    names = _names(objects)
    first, last = scene.frame_start, max(scene.frame_start, scene.frame_end)
    frames = list(range(first, last + 1))
    depsgraph = context.evaluated_depsgraph_get()
    saved_frame = scene.frame_current
    scene.frame_set(first)

    b = kf3ds.Builder()
    mat_names = {}
    for mat in bpy.data.materials:
        if not any(s.material == mat for ob in objects for s in ob.material_slots):
            continue
        col, alpha, texture = _material_color(mat)
        nm = mat.name.encode("ascii", "replace").decode("ascii")[:16] or "Material"
        while nm in mat_names.values():
            nm = nm[:13] + "%03d" % len(mat_names)
        b.material(nm, diffuse=col, ambient=tuple(0.2 * c for c in col),
                   transparency=1.0 - alpha, texture=texture)
        mat_names[mat.name] = nm

    for ob in objects:
        if ob.type != "MESH":
            continue
        points, faces, uvs, smooth, mats, slots = _mesh_arrays(ob, depsgraph)
        if len(points) > 65535 or len(faces) > 65535:
            raise ValueError("%s: %d points, %d faces: 3DS holds at most 65535 of each; "
                             "split the mesh" % (ob.name, len(points), len(faces)))
        # Stored in world space at the first frame with that matrix as
        # MESH_MATRIX, as 3D Studio writes meshes (so editor-only readers see
        # the scene); the identity where the matrix is singular or mirrors,
        # which readers would take for a mirrored mesh.
        w0 = ob.matrix_world.copy()
        if w0.determinant() > 1e-9:
            pts = [tuple(w0 @ Vector(p)) for p in points]
            mm = w0
        else:
            pts, mm = points, Matrix.Identity(4)
        material = None
        used = sorted(set(mats))
        if used and used[0] < len(slots) and slots[used[0]] in mat_names:
            material = mat_names[slots[used[0]]]
        b.mesh(names[ob], pts, faces, matrix=[list(r) for r in mm], uvs=uvs,
               smoothing=[1 if s else 0 for s in smooth], material=material)
    cams = {}
    lights = {}
    for ob in objects:
        w = ob.matrix_world
        pos = tuple(w.translation)
        fwd = -(w.to_3x3() @ Vector((0, 0, 1)))
        tgt = tuple(w.translation + fwd * 100.0)
        if ob.type == "CAMERA":
            lens = 2400.0 / max(1e-3, math.degrees(ob.data.angle_y))
            cams[ob] = b.camera(names[ob], pos, tgt, lens=lens)
        elif ob.type == "LIGHT":
            spot = ob.data.type == "SPOT"
            lights[ob] = b.light(names[ob], pos, color=tuple(ob.data.color), spot=spot,
                                 target=tgt,
                                 falloff=math.degrees(ob.data.spot_size) if spot else 45.0,
                                 hotspot=math.degrees(ob.data.spot_size) *
                                 (1 - ob.data.spot_blend) if spot else 30.0)

    worlds, hidden, extra = _sample(scene, objects, frames)
    b.keyframer(last - first, segment=(first, last))
    node_of = {}
    for ob in objects:
        parent = node_of.get(ob.parent, -1) if ob.type in ("MESH", "EMPTY") else -1
        if ob.type == "MESH":
            n = b.node("object", names[ob], parent)
        elif ob.type == "EMPTY":
            n = b.node("object", "$$$DUMMY", parent, instance=names[ob])
        elif ob.type == "CAMERA":
            n = b.node("camera", names[ob])
        elif ob.data.type == "SPOT":
            n = b.node("spot", names[ob])
        else:
            n = b.node("light", names[ob])
        node_of[ob] = n
        if ob.type in ("MESH", "EMPTY"):
            pw = worlds.get(ob.parent) if ob.parent in node_of else None
            locals_ = [(pw[k].inverted_safe() @ m) if pw else m
                       for k, m in enumerate(worlds[ob])]
            _trs_keys(b, n, frames, locals_)
            _hide_keys(b, n, frames, hidden[ob])
        else:
            for f, m in zip(frames, worlds[ob]):
                b.key(n, "pos", f, tuple(m.translation))
        if ob.type == "CAMERA":
            t = b.node("target", names[ob])
            rolls = []
            for f, m in zip(frames, worlds[ob]):
                fwd = -(m.to_3x3() @ Vector((0, 0, 1))).normalized()
                b.key(t, "pos", f, tuple(m.translation + fwd * 100.0))
                rolls.append(_roll(m, fwd))
            for f, r, fov in zip(frames, rolls, extra[ob]):
                b.key(n, "roll", f, r)
                b.key(n, "fov", f, fov)
        elif ob.type == "LIGHT" and ob.data.type == "SPOT":
            t = b.node("ltarget", names[ob])
            for f, m, fall in zip(frames, worlds[ob], extra[ob]):
                fwd = -(m.to_3x3() @ Vector((0, 0, 1))).normalized()
                b.key(t, "pos", f, tuple(m.translation + fwd * 100.0))
                b.key(n, "fall", f, fall)
    scene.frame_set(saved_frame)
    return b.finish(name=bpy.path.basename(bpy.data.filepath) or "<blender>")


def _roll(m, fwd):
    """The roll (degrees, kf3ds's sign) that turns the look-at's right vector
    into the camera's own (docs/evaluation.md, "Cameras")."""
    up0 = Vector((0, 0, 1)) if abs(fwd.x) > 0 or abs(fwd.y) > 0 else Vector((-1, 0, 0))
    r = fwd.cross(up0).normalized()
    u = r.cross(fwd).normalized()
    rb = (m.to_3x3() @ Vector((1, 0, 0))).normalized()
    rho = math.atan2(-rb.dot(u), rb.dot(r))
    return -math.degrees(rho)


def export_file(context, path, *, selected_only=False):
    s = build(context, selected_only=selected_only)
    try:
        s.save(path)
        return "%d nodes, %d meshes, frames %d..%d" % (len(s.nodes), len(s.meshes),
                                                      s.segment[0], s.segment[1])
    finally:
        s.close()
