"""File > Import > 3D Studio with animation (kf3ds): a .3ds file's scene and its
keyframer animation as Blender objects, evaluated by kf3ds (docs/blender.md).

How the animation stays exact: kf3ds evaluates every node's world matrix N(t)
at every frame and half frame of the segment; each Blender object gets the
local transform inv(N_parent(t)) . N(t) at those times as LINEAR keys. Blender
then shows kf3ds's pose at every frame and half frame (up to float rounding)
and interpolates linearly in between (docs/blender.md, "The bound")."""
import math
import os

import bpy
from mathutils import Matrix, Quaternion

import kf3ds
from kf3ds import _structs as S
from kf3ds._lib import lib as clib
from kf3ds.__main__ import map_find

import ctypes as C

#: samples per frame: whole and half frames
SAMPLES_PER_FRAME = 2


def _matrix(m):
    return Matrix([[float(x) for x in row] for row in m])


def _sample_times(scene):
    a, b = scene.segment
    if b < a:
        b = a
    n = (b - a) * SAMPLES_PER_FRAME + 1
    return [a + i / SAMPLES_PER_FRAME for i in range(n)]


def _fcurve(action, path, index, times, values, interpolation="LINEAR", group=None):
    fc = action.fcurves.new(path, index=index, action_group=group or "")
    fc.keyframe_points.add(len(times))
    co = []
    for t, v in zip(times, values):
        co += (t, v)
    fc.keyframe_points.foreach_set("co", co)
    for k in fc.keyframe_points:
        k.interpolation = interpolation
    fc.update()
    return fc


def _mesh_space_points(scene, node, mesh):
    """The mesh's points in the node's own space: T(-pivot) . M^-1 . p, so that
    the object at N(t) places them at N(t) . T(-pivot) . M^-1 . p (kf3ds's
    placement, docs/evaluation.md "Mesh placement")."""
    inv = _matrix(mesh.inv_matrix)
    px, py, pz = (float(x) for x in node.pivot)
    out = []
    for p in mesh.points.tolist():
        q = inv @ _vec3(p)
        out.append((q[0] - px, q[1] - py, q[2] - pz))
    return out


def _vec3(p):
    from mathutils import Vector
    return Vector((float(p[0]), float(p[1]), float(p[2])))


def _smoothing_sharp_edges(me, smoothing):
    """3DS smoothing groups as Blender's smooth faces and sharp edges: an edge
    between two faces that share no group is sharp."""
    faces_of_edge = {}
    for poly in me.polygons:
        for ek in poly.edge_keys:
            faces_of_edge.setdefault(ek, []).append(poly.index)
    sharp = set()
    for ek, fs in faces_of_edge.items():
        if len(fs) == 2 and not (int(smoothing[fs[0]]) & int(smoothing[fs[1]])):
            sharp.add(ek)
        elif len(fs) == 1:
            continue
    for e in me.edges:
        e.use_edge_sharp = tuple(sorted(e.vertices)) in sharp
    for poly in me.polygons:
        poly.use_smooth = bool(int(smoothing[poly.index]))
    if hasattr(me, "use_auto_smooth"):
        me.use_auto_smooth = True
        me.auto_smooth_angle = math.pi


def _make_material(m, dirs, images):
    mat = bpy.data.materials.new(m.name or "material")
    mat.use_nodes = True
    nt = mat.node_tree
    bsdf = next((n for n in nt.nodes if n.type == "BSDF_PRINCIPLED"), None)
    diffuse = tuple(float(x) for x in m.diffuse)
    alpha = 1.0 - float(getattr(m, "transparency", 0.0) or 0.0)
    mat.diffuse_color = diffuse + (alpha,)
    if bsdf is not None:
        bsdf.inputs["Base Color"].default_value = diffuse + (1.0,)
        bsdf.inputs["Alpha"].default_value = alpha
        if "Specular" in bsdf.inputs:
            bsdf.inputs["Specular"].default_value = min(1.0, float(m.shin_strength or 0.0))
        bsdf.inputs["Roughness"].default_value = 1.0 - min(1.0, float(m.shininess or 0.0))
    if alpha < 1.0:
        mat.blend_method = "BLEND"
    mat.use_backface_culling = not getattr(m, "two_sided", False)
    tex = m.maps.get("texture1")
    if tex is not None and bsdf is not None:
        path = map_find(dirs, tex.file)
        img = None
        if path:
            if path not in images:
                try:
                    img = bpy.data.images.load(os.path.abspath(path), check_existing=True)
                    if tuple(img.size) == (0, 0):  # loads lazily: (0, 0) when unreadable
                        bpy.data.images.remove(img)
                        img = None
                except RuntimeError:
                    img = None
                # None for a format Blender does not read (Autodesk CEL...): the
                # material keeps its diffuse colour
                images[path] = img
            img = images[path]
        node = nt.nodes.new("ShaderNodeTexImage")
        node.label = tex.file
        if img is not None:
            node.image = img
            nt.links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
        mapping = nt.nodes.new("ShaderNodeMapping")
        coord = nt.nodes.new("ShaderNodeTexCoord")
        nt.links.new(coord.outputs["UV"], mapping.inputs["Vector"])
        mapping.inputs["Scale"].default_value = (float(tex.u_scale or 1.0),
                                                 float(tex.v_scale or 1.0), 1.0)
        mapping.inputs["Location"].default_value = (float(tex.u_offset), float(tex.v_offset),
                                                    0.0)
        mapping.inputs["Rotation"].default_value = (0.0, 0.0, math.radians(float(tex.rotation)))
        nt.links.new(mapping.outputs["Vector"], node.inputs["Vector"])
    return mat


def _make_mesh(scene, node, mesh, materials, name):
    me = bpy.data.meshes.new(name)
    pts = _mesh_space_points(scene, node, mesh)
    faces = mesh.faces.tolist()
    if mesh.mirrored:
        faces = [(f[0], f[2], f[1]) for f in faces]  # the mirror flips the winding
    me.from_pydata(pts, [], [tuple(f) for f in faces])
    me.validate(clean_customdata=False)
    # validate() may drop degenerate faces; the per-face data below is kept
    # only when the faces are still those of the file.
    same = len(me.polygons) == len(faces)
    fm = mesh.face_materials.tolist()
    used = sorted(set(i for i in fm if i >= 0))
    slot = {}
    for i in used:
        slot[i] = len(me.materials)
        me.materials.append(materials[i])
    if same and used:
        me.polygons.foreach_set("material_index", [slot.get(i, 0) for i in fm])
    if len(mesh.uvs) == len(mesh.points) and len(mesh.uvs) and same:
        uv = me.uv_layers.new(name="UVMap")
        uvs = mesh.uvs.tolist()
        flat = []
        for loop in me.loops:
            u, v = uvs[loop.vertex_index]
            flat += (u, v)
        uv.data.foreach_set("uv", flat)
    if same and mesh.has_smoothing:
        _smoothing_sharp_edges(me, mesh.smoothing)
    me.update()
    return me


_look_at = clib.kf3ds_look_at
_look_at.restype = C.c_int
_look_at.argtypes = [C.POINTER(C.c_float), C.POINTER(C.c_float), C.c_float, C.POINTER(S.Mat4)]


def _look_at_world(eye, target, roll):
    """inv(view) of kf3ds_look_at: the camera's world matrix (Blender's cameras,
    like kf3ds's view, look down -z with y up)."""
    view = S.Mat4()
    e = (C.c_float * 3)(*eye)
    t = (C.c_float * 3)(*target)
    if not _look_at(e, t, float(roll), C.byref(view)):
        return Matrix.Translation(eye)
    return _matrix(view.m).inverted_safe()


def import_file(context, path, *, collection_name=None):
    """Imports path into a new collection; returns (objects, scene) report."""
    scene = kf3ds.load(path)
    try:
        return _import_scene(context, path, scene, collection_name)
    finally:
        scene.close()


def _import_scene(context, path, scene, collection_name):
    bscene = context.scene
    base = os.path.splitext(os.path.basename(path))[0]
    coll = bpy.data.collections.new(collection_name or base)
    bscene.collection.children.link(coll)

    folder = os.path.dirname(path) or "."
    dirs = [folder] + [d for d in os.environ.get("KF3DS_MAPS", "").split(":") if d]
    images = {}
    materials = [_make_material(m, dirs, images) for m in scene.materials]

    nodes = scene.nodes
    meshes = scene.meshes
    times = _sample_times(scene)
    a, b = scene.segment
    bscene.frame_start, bscene.frame_end = int(a), int(max(a, b))

    worlds = scene.eval(times).astype("float64") if nodes else None
    poses = [scene.poses(t) for t in times] if nodes else []

    objects = []
    if not nodes:
        # editor data only: the meshes as stored
        for mesh in meshes:
            class _N:
                pivot = (0.0, 0.0, 0.0)
            me = _make_mesh(scene, _N, mesh, materials, mesh.name)
            ob = bpy.data.objects.new(mesh.name, me)
            ob.matrix_world = _matrix(mesh.matrix)
            coll.objects.link(ob)
            objects.append(ob)
        return objects

    for i, n in enumerate(nodes):
        label = n.instance and "%s.%s" % (n.name, n.instance) or n.name
        if n.type == "object" and n.mesh >= 0 and not n.is_dummy:
            data = _make_mesh(scene, n, meshes[n.mesh], materials, label)
        elif n.type == "camera":
            data = bpy.data.cameras.new(label)
            data.sensor_fit = "VERTICAL"
        elif n.type in ("light", "spot"):
            data = bpy.data.lights.new(label, "SPOT" if n.type == "spot" else "POINT")
            if 0 <= n.light < len(scene.lights):
                lt = scene.lights[n.light]
                data.color = tuple(float(x) for x in lt.color)
                data.energy = 1000.0 * float(lt.multiplier or 1.0)
        else:
            data = None
        ob = bpy.data.objects.new(label, data)
        if data is None:
            ob.empty_display_type = "PLAIN_AXES" if n.type != "target" else "SPHERE"
        ob["kf3ds_node"] = i
        ob["kf3ds_type"] = n.type
        coll.objects.link(ob)
        objects.append(ob)

    # Cameras and spotlights take their orientation from their target, not
    # from the hierarchy: they are roots with world keys.
    free = set(i for i, n in enumerate(nodes) if n.type in ("camera", "spot"))
    for i, n in enumerate(nodes):
        if i not in free and 0 <= n.parent < len(nodes) and n.parent != i:
            objects[i].parent = objects[n.parent]
            objects[i].matrix_parent_inverse = Matrix.Identity(4)

    ptr = scene._ptr()
    for i, n in enumerate(nodes):
        ob = objects[i]
        ob.rotation_mode = "QUATERNION"
        locs, quats, scales = [], [], []
        extra = {}
        prev = None
        for k, t in enumerate(times):
            w = _matrix(worlds[k, i])
            if i in free:
                raw = scene._poses(ptr, float(t), 0)
                view = S.Mat4()
                fov = C.c_float()
                roll = C.c_float()
                if n.type == "camera" and clib.kf3ds_node_camera_view(
                        ptr, i, raw, C.byref(view), C.byref(fov), C.byref(roll)):
                    w = _matrix(view.m).inverted_safe()
                    extra.setdefault("fov", []).append(math.radians(fov.value))
                elif n.type == "spot" and 0 <= n.target < len(nodes):
                    eye = tuple(float(worlds[k, i][r][3]) for r in range(3))
                    tgt = tuple(float(worlds[k, n.target][r][3]) for r in range(3))
                    w = _look_at_world(eye, tgt, poses[k][i]["roll"] or 0.0)
                local = w
            elif 0 <= n.parent < len(nodes) and n.parent != i:
                pw = _matrix(worlds[k, n.parent])
                local = pw.inverted_safe() @ w
            else:
                local = w
            loc, q, s = local.decompose()
            if prev is not None:
                q.make_compatible(prev)
            prev = q
            locs.append(loc)
            quats.append(q)
            scales.append(s)
        action = bpy.data.actions.new(ob.name + "Action")
        ob.animation_data_create().action = action
        for c in range(3):
            _fcurve(action, "location", c, times, [v[c] for v in locs], group="Object Transforms")
            _fcurve(action, "scale", c, times, [v[c] for v in scales], group="Object Transforms")
        for c in range(4):
            _fcurve(action, "rotation_quaternion", c, times, [q[c] for q in quats],
                    group="Object Transforms")
        hidden = [1.0 if poses[k][i]["hidden"] else 0.0 for k in range(len(times))]
        if any(hidden):
            for prop in ("hide_viewport", "hide_render"):
                _fcurve(action, prop, 0, times, hidden, "CONSTANT", group="Visibility")
        if "fov" in extra:
            cam_action = bpy.data.actions.new(ob.data.name + "Action")
            ob.data.animation_data_create().action = cam_action
            # angle is derived, not animatable: key the lens that gives the FOV
            # on the vertical sensor
            h = ob.data.sensor_height
            lens = [h / 2.0 / math.tan(min(max(f, 1e-4), math.pi - 1e-4) / 2.0)
                    for f in extra["fov"]]
            _fcurve(cam_action, "lens", 0, times, lens)
            ob.data.lens = lens[0]
        if n.type == "spot":
            sp_action = bpy.data.actions.new(ob.data.name + "Action")
            ob.data.animation_data_create().action = sp_action
            _fcurve(sp_action, "spot_size", 0, times,
                    [math.radians(min(180.0, max(1.0, poses[k][i]["falloff"] or 45.0)))
                     for k in range(len(times))])
        if n.type == "object" and "morph" in n.tracks and ob.type == "MESH":
            _morph_shape_keys(scene, n, ob, times, poses, i)
    bscene.frame_set(int(a))
    return objects


def _morph_shape_keys(scene, node, ob, times, poses, i):
    """A morph track as shape keys: one per target mesh with the node's number
    of points, switched on (1) while its key is in effect, CONSTANT."""
    meshes = scene.meshes
    own = meshes[node.mesh]
    targets = sorted(set(p[i]["morph_mesh"] for p in poses
                         if 0 <= p[i]["morph_mesh"] < len(meshes)
                         and p[i]["morph_mesh"] != node.mesh
                         and len(meshes[p[i]["morph_mesh"]].points) == len(own.points)))
    if not targets:
        return
    ob.shape_key_add(name="Basis", from_mix=False)
    me_action = bpy.data.actions.new(ob.name + "Morph")
    keys = ob.data.shape_keys
    keys.animation_data_create().action = me_action
    for m in targets:
        sk = ob.shape_key_add(name=meshes[m].name, from_mix=False)
        # the target's points placed with the node's own matrix and pivot
        # (docs/evaluation.md, "Morph track")
        class _M:
            points = meshes[m].points
            inv_matrix = own.inv_matrix
        pts = _mesh_space_points(scene, node, _M)
        for v, p in zip(sk.data, pts):
            v.co = p
        _fcurve(me_action, 'key_blocks["%s"].value' % sk.name, 0, times,
                [1.0 if p[i]["morph_mesh"] == m else 0.0 for p in poses], "CONSTANT")
