"""Scenes: loading, the scene's contents, evaluation and saving."""
import ctypes as C
import os

import numpy as np

from . import _structs as S
from ._lib import lib

_KIND_INDEX = {name: i for i, name in enumerate(S.TRACK_NAMES)}
_TYPE_INDEX = {name: i for i, name in enumerate(S.NODE_TYPES)}


def _str(b):
    """A C string as str: UTF-8, other bytes kept as surrogates (os.fsdecode's rule), so
    ``s.encode("utf-8", "surrogateescape")`` gives the file's bytes back."""
    if b is None:
        return None
    return b.decode("utf-8", "surrogateescape")


def _bytes(s, what="name"):
    if isinstance(s, bytes):
        return s
    if not isinstance(s, str):
        raise TypeError("%s must be str or bytes, not %s" % (what, type(s).__name__))
    return s.encode("utf-8", "surrogateescape")


# ---------------------------------------------------------------------------
# Diagnostics and errors


class Diagnostic:
    """One problem found while reading (a kf3ds_diag).

    Attributes: ``code`` (the kf3ds_status number), ``status`` (its words,
    "truncated data"), ``severity`` ("error" or "warning"), ``offset`` (byte offset
    in the input), ``chunk`` (the chunk id being read, 0 when none), ``chunk_name``
    ("ROT_TRACK_TAG"; "" when no chunk, "?" when unknown) and ``message``.
    """

    __slots__ = ("code", "status", "severity", "offset", "chunk", "chunk_name", "message")

    def __init__(self, code, severity, offset, chunk, chunk_name, message):
        self.code = code
        self.status = _str(lib.kf3ds_status_string(code)) or "unknown"
        self.severity = severity
        self.offset = offset
        self.chunk = chunk
        self.chunk_name = chunk_name
        self.message = message

    @classmethod
    def _from_c(cls, d, force_error=False):
        name = _str(d.chunk_name) if d.chunk_name else ""
        if not name and d.chunk_id:
            name = _str(lib.kf3ds_chunk_name(d.chunk_id)) or "?"
        sev = "error" if force_error or d.severity == 1 else "warning"
        raw = bytes(d.message).split(b"\0", 1)[0]
        return cls(int(d.code), sev, int(d.offset), int(d.chunk_id), name, _str(raw))

    @property
    def is_error(self):
        return self.severity == "error"

    def __str__(self):
        where = ""
        if self.chunk or self.chunk_name:
            where = "offset %d, chunk 0x%04X %s: " % (self.offset, self.chunk, self.chunk_name)
        elif self.offset:
            where = "offset %d: " % self.offset
        return "%s: %s%s" % (self.severity, where, self.message or self.status)

    def __repr__(self):
        return "<kf3ds.Diagnostic %s>" % self


class Error(Exception):
    """A load, save or builder call failed, or a closed scene was used.

    ``offset``, ``chunk`` (id), ``chunk_name``, ``message`` and ``code`` say what
    and where, as in :class:`Diagnostic`; ``diagnostic`` is the whole record
    (None for errors of the binding itself, such as a closed scene).
    """

    def __init__(self, message, diagnostic=None, name=None):
        self.diagnostic = diagnostic
        self.message = message
        self.name = name
        self.offset = diagnostic.offset if diagnostic else 0
        self.chunk = diagnostic.chunk if diagnostic else 0
        self.chunk_name = diagnostic.chunk_name if diagnostic else ""
        self.code = diagnostic.code if diagnostic else None
        text = str(diagnostic)[len("error: "):] if diagnostic else message
        super().__init__("%s: %s" % (name, text) if name else text)

    @classmethod
    def _from_c(cls, d, name=None):
        diag = Diagnostic._from_c(d, force_error=True)
        return cls(diag.message or diag.status, diag, name)


# ---------------------------------------------------------------------------
# Zero-copy arrays over the scene's memory


class _Handle:
    """Owns one kf3ds_scene*; frees it when the last reference goes (the Scene,
    or a numpy view into its arrays)."""

    __slots__ = ("ptr", "__weakref__")

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self):
        ptr, self.ptr = self.ptr, None
        if ptr and lib is not None:
            lib.kf3ds_scene_free(ptr)


class _View:
    """Exposes memory at an address to numpy (__array_interface__) and keeps the
    scene that owns it alive while any array made from it lives."""

    def __init__(self, owner, addr, shape, typestr, strides=None):
        self.owner = owner
        self.__array_interface__ = {
            "version": 3, "shape": shape, "typestr": typestr,
            "data": (addr, True), "strides": strides,
        }


def _array(owner, addr, shape, dtype, strides=None):
    dtype = np.dtype(dtype)
    if not addr or 0 in shape:
        a = np.zeros(shape, dtype)  # an empty array (or zeros for a NULL member)
        a.flags.writeable = False
        return a
    return np.asarray(_View(owner, addr, shape, dtype.str, strides))


def _tuple(arr):
    return tuple(_tuple(x) if isinstance(x, C.Array) else float(x) if isinstance(x, float)
                 else x for x in arr)


def _record_fields(obj, st, skip=()):
    for name, _t in st._fields_:
        if name.endswith("_") or name in skip:
            continue
        v = getattr(st, name)
        if isinstance(v, C.Array):
            v = _tuple(v)
        elif isinstance(v, bytes):
            v = _str(v)
        setattr(obj, name, v)


class _Record:
    """A snapshot of one C struct's public fields as attributes."""

    def __repr__(self):
        name = getattr(self, "name", None)
        return "<kf3ds.%s %r>" % (type(self).__name__, name)


class TextureMap(_Record):
    """A material's map: ``file`` ("" when absent), ``strength``, ``tiling`` bits,
    ``blur``, ``u_scale``, ``v_scale``, ``u_offset``, ``v_offset``, ``rotation``."""

    def __init__(self, st):
        _record_fields(self, st)

    def __bool__(self):
        return bool(self.file)

    def __repr__(self):
        return "<kf3ds.TextureMap %r>" % self.file


class Material(_Record):
    """A material (kf3ds_material): ``name``, ``ambient``/``diffuse``/``specular``
    colours (0..1 triples), ``shininess``, ``shin_strength``, ``transparency``,
    ``self_illum``, ``shading``, ``two_sided``... and ``maps``, a dict from the map
    kind ("texture1", "opacity", "bump", ...) to :class:`TextureMap`, holding only
    the maps the material has."""

    def __init__(self, index, st):
        self.index = index
        _record_fields(self, st, skip=S.MAP_FIELDS)
        self.maps = {}
        for kind, field in zip(S.MAP_NAMES, S.MAP_FIELDS):
            m = TextureMap(getattr(st, field))
            if m.file:
                self.maps[kind] = m


class Camera(_Record):
    """An editor camera: ``name``, ``position``, ``target``, ``roll`` and ``fov``
    (degrees), ``lens`` (mm), ``near_range``, ``far_range``, ``see_cone``, ``hidden``."""

    def __init__(self, index, st):
        self.index = index
        _record_fields(self, st)


class Light(_Record):
    """An editor light: ``name``, ``position``, ``color``, ``spot`` (1 for a
    spotlight, with ``target``, ``hotspot``, ``falloff``, ``roll``), ``off``,
    ``multiplier``, ``inner_range``, ``outer_range`` and the display flags."""

    def __init__(self, index, st):
        self.index = index
        _record_fields(self, st)


class Mesh:
    """A mesh of the scene. The arrays are read-only views of the scene's own
    memory (no copy), valid as long as they live, even after ``scene.close()``:

    - ``points``: (n, 3) float32, the stored vertices (mirror fix applied)
    - ``uvs``: (n, 2) float32 texture coordinates (empty when the mesh has none)
    - ``faces``: (m, 3) uint16 vertex indices; ``face_flags``: (m,) uint16 edge flags
    - ``smoothing``: (m,) uint32 smoothing-group bits (zeros when the mesh has none)
    - ``face_materials``: (m,) int32 material index per face (-1 for none)
    - ``point_flags``: (k,) uint16

    and ``name``, ``matrix``/``inv_matrix`` (4×4 float32, MESH_MATRIX as column
    vectors), ``mirrored``, ``hidden``, ``color``, ``groups`` (a list of
    (material name, material index, face index array)).
    """

    def __init__(self, handle, index, st):
        self.index = index
        self.name = _str(st.name)
        n, m = st.num_points, st.num_faces
        self.points = _array(handle, st.points, (n, 3), "<f4")
        self.uvs = _array(handle, st.texcoords, (st.num_texcoords, 2), "<f4")
        faces = _array(handle, st.faces, (m, 4), "<u2")
        self.faces = faces[:, :3]
        self.face_flags = faces[:, 3]
        self.smoothing = _array(handle, st.smoothing, (m,), "<u4")
        if st.face_materials:
            self.face_materials = _array(handle, st.face_materials, (m,), "<i4")
        else:
            self.face_materials = np.full((m,), -1, np.int32)
            self.face_materials.flags.writeable = False
        self.has_smoothing = bool(st.smoothing)
        self.point_flags = _array(handle, st.point_flags, (st.num_point_flags,), "<u2")
        self.matrix = np.array(st.matrix.m, dtype=np.float32)
        self.inv_matrix = np.array(st.inv_matrix.m, dtype=np.float32)
        self.mirrored = bool(st.mirrored)
        self.has_matrix = bool(st.has_matrix)
        self.hidden = bool(st.hidden)
        self.color = int(st.color)
        self.groups = []
        for g in range(st.num_groups):
            grp = st.groups[g]
            faces_addr = C.cast(grp.faces, C.c_void_p).value
            self.groups.append((_str(grp.material_name), int(grp.material),
                                _array(handle, faces_addr, (grp.num_faces,), "<u2")))

    @property
    def texcoords(self):
        """The same as ``uvs``."""
        return self.uvs

    def __repr__(self):
        return "<kf3ds.Mesh %r: %d points, %d faces>" % (self.name, len(self.points),
                                                         len(self.faces))


class Track:
    """The keys of one track of a node: ``kind`` ("pos", "rot", ...), ``flags``,
    ``loop`` ("single", "wrap", "repeat" or "loop"), ``frames`` (int32 array),
    ``values`` ((n, 4) float32: POS/SCL/COL x y z, FOV/ROLL/HOT/FALL the value,
    ROT angle (radians, relative to the previous key) and axis), ``quats``
    ((n, 4) float32, ROT only: the accumulated rotation x y z w), ``tcb``
    ((n, 5) float32: tension, continuity, bias, ease to, ease from) and
    ``morph_names`` (MORPH only). Copies, not views."""

    def __init__(self, kind, st):
        n = st.num_keys
        self.kind = kind
        self.flags = int(st.flags)
        self.loop = ("single", "wrap", "repeat", "loop")[st.flags & 3]
        self.frames = np.empty(n, np.int32)
        self.values = np.empty((n, 4), np.float32)
        self.quats = np.empty((n, 4), np.float32)
        self.tcb = np.empty((n, 5), np.float32)
        self.morph_names = [] if kind == "morph" else None
        for k in range(n):
            key = st.keys[k]
            self.frames[k] = key.frame
            self.values[k] = key.value[:]
            self.quats[k] = key.quat[:]
            self.tcb[k] = (key.tension, key.continuity, key.bias, key.ease_to, key.ease_from)
            if self.morph_names is not None:
                self.morph_names.append(_str(key.morph_name))

    def __len__(self):
        return len(self.frames)

    def __repr__(self):
        return "<kf3ds.Track %s: %d keys>" % (self.kind, len(self))


class Node(_Record):
    """A keyframer node: ``index``, ``name``, ``type`` ("object", "camera",
    "target", "light", "spot", "ltarget", "ambient"), ``parent`` (index, -1 for a
    root), ``id``, ``instance`` (None or the INSTANCE_NAME), ``pivot``, ``mesh``,
    ``camera``, ``light``, ``target`` (indices, -1 for none), ``flags1``,
    ``flags2``, ``hidden``, ``is_dummy``, ``depth``, ``key_counts`` (a dict from
    every track kind to its number of keys) and ``tracks`` (a dict from the kinds
    that have keys to :class:`Track`)."""

    def __init__(self, index, st):
        self.index = index
        _record_fields(self, st, skip=("type", "tracks"))
        self.type_code = int(st.type)
        self.type = _str(lib.kf3ds_node_type_name(st.type)) or "?"
        self.hidden = bool(st.flags1 & 0x800)
        self.key_counts = {S.TRACK_NAMES[k]: int(st.tracks[k].num_keys)
                           for k in range(S.TRACK_COUNT)}
        self.tracks = {S.TRACK_NAMES[k]: Track(S.TRACK_NAMES[k], st.tracks[k])
                       for k in range(S.TRACK_COUNT) if st.tracks[k].num_keys}


# ---------------------------------------------------------------------------
# The scene


def _frames_array(frames):
    if isinstance(frames, (str, bytes, bytearray)) or frames is None:
        raise TypeError("frames must be a number or a sequence of numbers, not %s"
                        % type(frames).__name__)
    try:
        fr = np.asarray(frames, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError("frames must be numbers: %s" % e) from None
    if fr.ndim > 1:
        raise TypeError("frames must be a number or a 1-D sequence of numbers")
    if not np.all(np.isfinite(fr)):
        raise ValueError("frames must be finite numbers")
    return fr


class Scene:
    """A loaded (or built) scene. Use :func:`load` or :class:`Builder` to make one.

    The contents are read-only. ``close()`` (or leaving a ``with`` block) gives
    the scene back; any later use raises :class:`Error`. Arrays taken from the
    meshes stay valid: the C scene is freed when the last of them goes.
    """

    def __init__(self, ptr, name, error=None, truncated=False):
        self._h = _Handle(ptr)
        self.name = name
        #: The load's first error (a :class:`Diagnostic`), None when it succeeded.
        self.error = error
        #: True when the input ends before its root chunk does (a cut file).
        self.truncated = truncated
        self._cache = {}

    # -- life -----------------------------------------------------------------
    def _ptr(self):
        h = self._h
        if h is None or not h.ptr:
            raise Error("the scene is closed", name=self.name)
        return h.ptr

    def _s(self):
        return self._ptr().contents

    def close(self):
        """Gives the scene back (freed now, or when the last array view of it goes).
        Closing twice is allowed."""
        self._h = None
        self._cache = {}

    @property
    def closed(self):
        return self._h is None

    def __enter__(self):
        self._ptr()
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self._h is None:
            return "<kf3ds.Scene %r (closed)>" % self.name
        s = self._s()
        return "<kf3ds.Scene %r: %d meshes, %d nodes>" % (self.name, s.num_meshes, s.num_nodes)

    def _cached(self, key, make):
        s = self._s()
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = make(s)
        return v

    # -- contents ---------------------------------------------------------------
    @property
    def ok(self):
        """True when the load had no error (warnings allowed) and the file is whole."""
        self._ptr()
        return (self.error is None and not self.truncated and
                not any(d.is_error for d in self.diagnostics))

    @property
    def diagnostics(self):
        """The warnings and errors found while reading, in order (list of Diagnostic)."""
        return list(self._cached("diags", lambda s: [
            Diagnostic._from_c(s.diags[i]) for i in range(s.num_diags)]))

    @property
    def dropped_diagnostics(self):
        """How many diagnostics went beyond the limit and were only counted."""
        return int(self._s().num_dropped_diags)

    @property
    def version(self):
        return int(self._s().version)

    @property
    def mesh_version(self):
        return int(self._s().mesh_version)

    @property
    def master_scale(self):
        return float(self._s().master_scale)

    @property
    def ambient(self):
        return _tuple(self._s().ambient)

    @property
    def has_keyframer(self):
        return bool(self._s().has_keyframer)

    @property
    def keyframer_revision(self):
        return int(self._s().kf_revision)

    @property
    def keyframer_filename(self):
        return _str(self._s().kf_filename)

    @property
    def anim_length(self):
        return int(self._s().anim_length)

    @property
    def segment(self):
        """The active segment (KFSEG) as (start, end) frames."""
        s = self._s()
        return (int(s.segment_start), int(s.segment_end))

    @property
    def current_frame(self):
        return int(self._s().current_frame)

    @property
    def nodes(self):
        """The keyframer nodes (list of :class:`Node`), in file order."""
        return list(self._cached("nodes", lambda s: [
            Node(i, s.nodes[i]) for i in range(s.num_nodes)]))

    @property
    def meshes(self):
        """The meshes (list of :class:`Mesh`; their arrays are zero-copy views)."""
        h = self._h
        return list(self._cached("meshes", lambda s: [
            Mesh(h, i, s.meshes[i]) for i in range(s.num_meshes)]))

    @property
    def materials(self):
        return list(self._cached("materials", lambda s: [
            Material(i, s.materials[i]) for i in range(s.num_materials)]))

    @property
    def cameras(self):
        return list(self._cached("cameras", lambda s: [
            Camera(i, s.cameras[i]) for i in range(s.num_cameras)]))

    @property
    def lights(self):
        return list(self._cached("lights", lambda s: [
            Light(i, s.lights[i]) for i in range(s.num_lights)]))

    @property
    def num_nodes(self):
        return int(self._s().num_nodes)

    def find_node(self, name):
        """The index of the first node called ``name``, or None."""
        i = lib.kf3ds_scene_find_node(self._ptr(), _bytes(name))
        return None if i < 0 else int(i)

    def find_mesh(self, name):
        """The index of the first mesh called ``name``, or None."""
        i = lib.kf3ds_scene_find_mesh(self._ptr(), _bytes(name))
        return None if i < 0 else int(i)

    def _node_index(self, node):
        n = self._s().num_nodes
        if isinstance(node, (str, bytes)):
            i = self.find_node(node)
            if i is None:
                raise KeyError("no node named %r" % (node,))
            return i
        if isinstance(node, bool) or not isinstance(node, (int, np.integer)):
            raise TypeError("node must be an index or a name, not %s" % type(node).__name__)
        i = int(node)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("node index %d out of range (%d nodes)" % (node, n))
        return i

    # -- evaluation -------------------------------------------------------------
    def _poses(self, ptr, frame, flags):
        n = ptr.contents.num_nodes
        poses = (S.Pose * max(n, 1))()
        lib.kf3ds_scene_eval(ptr, frame, flags, poses)
        return poses

    def eval(self, frames, *, no_ease=False):
        """World matrices N(t) of every node.

        ``frames`` is a number or a sequence of numbers (any finite value; 12.5 is
        halfway between frames 12 and 13). Returns a float32 array of shape
        (len(frames), num_nodes, 4, 4), or (num_nodes, 4, 4) for one number;
        matrices are m[row][col] for column vectors (translation in the last
        column), exactly the numbers ``kf3ds eval`` prints.
        ``no_ease=True`` ignores ease-to/ease-from (``kf3ds eval --no-ease``).
        """
        fr = _frames_array(frames)
        ptr = self._ptr()
        flags = S.EVAL_NO_EASE if no_ease else 0
        n = ptr.contents.num_nodes
        flat = fr.reshape(-1)
        out = np.empty((len(flat), n, 4, 4), np.float32)
        poses = (S.Pose * max(n, 1))()
        world = np.asarray(_View(poses, C.addressof(poses), (n, 4, 4), "<f4",
                                 (C.sizeof(S.Pose), 16, 4))) if n else np.zeros((0, 4, 4), np.float32)
        for f, frame in enumerate(flat):
            lib.kf3ds_scene_eval(ptr, float(frame), flags, poses)
            out[f] = world
        return out[0] if fr.ndim == 0 else out

    def poses(self, frame, *, no_ease=False):
        """Every node's pose at one frame, as a list of dicts: ``world`` (4×4),
        ``position``, ``rotation`` (quaternion x y z w), ``scale``, ``color``,
        ``fov``, ``roll``, ``hotspot``, ``falloff``, ``hidden``, ``morph_mesh``."""
        fr = _frames_array(frame)
        if fr.ndim:
            raise TypeError("poses() takes one frame")
        ptr = self._ptr()
        poses = self._poses(ptr, float(fr), S.EVAL_NO_EASE if no_ease else 0)
        out = []
        for i in range(ptr.contents.num_nodes):
            p = poses[i]
            out.append({
                "world": np.array(p.world.m, np.float32), "position": _tuple(p.position),
                "rotation": _tuple(p.rotation), "scale": _tuple(p.scale),
                "color": _tuple(p.color), "fov": p.fov, "roll": p.roll,
                "hotspot": p.hotspot, "falloff": p.falloff, "hidden": bool(p.hidden),
                "morph_mesh": int(p.morph_mesh)})
        return out

    def mesh_matrix(self, frame, node, *, no_ease=False):
        """The 4×4 float32 matrix N(t)·T(−pivot)·M⁻¹ that places an object node's
        mesh vertices at ``frame``, or None when the node places no mesh."""
        fr = _frames_array(frame)
        if fr.ndim:
            raise TypeError("mesh_matrix() takes one frame")
        i = self._node_index(node)
        ptr = self._ptr()
        s = ptr.contents
        nd = s.nodes[i]
        if nd.type != 1 or nd.mesh < 0 or nd.mesh >= s.num_meshes:
            return None
        poses = self._poses(ptr, float(fr), S.EVAL_NO_EASE if no_ease else 0)
        m = S.Mat4()
        if not lib.kf3ds_node_mesh_matrix(ptr, i, C.byref(poses[i]), C.byref(m)):
            return None
        return np.array(m.m, np.float32)

    def vertices(self, frame, node, *, no_ease=False):
        """The placed vertices of an object node's mesh at ``frame``: a new (n, 3)
        float32 array, the same numbers as ``kf3ds eval --verts``. ``node`` is an
        index or a name. None when the node places no mesh."""
        m = self.mesh_matrix(frame, node, no_ease=no_ease)
        if m is None:
            return None
        mesh = self.meshes[self._s().nodes[self._node_index(node)].mesh]
        p = mesh.points
        out = np.empty(p.shape, np.float32)
        with np.errstate(all="ignore"):
            for r in range(3):  # the C order of operations, float32 throughout
                out[:, r] = m[r, 0] * p[:, 0] + m[r, 1] * p[:, 1] + m[r, 2] * p[:, 2] + m[r, 3]
        return out

    # -- saving -----------------------------------------------------------------
    def save(self, path=None, *, repair=True, canonical=False, drop_unknown=False,
             keyframer=True, segment=None):
        """Writes the scene as a .3ds file: returns its bytes, or with ``path``
        writes them there (no partial file is left on failure) and returns None.

        The defaults give ``kf3ds rewrite``'s file: a loaded scene's chunks in its
        file's order with what the loader repaired (``repair=False``: the values
        as the file had them), unknown chunks kept (``drop_unknown=True`` leaves
        them out), ``canonical=True`` for kf3ds's own chunk order,
        ``keyframer=False`` for editor data only, ``segment=(a, b)`` for another
        active segment. Raises :class:`Error` when the scene does not fit the
        format (over 65535 points in a mesh...).
        """
        ptr = self._ptr()
        opts = S.SaveOptions()
        flags = 0
        if repair:
            flags |= S.SAVE_REPAIR
        if canonical:
            flags |= S.SAVE_CANONICAL
        if drop_unknown:
            flags |= S.SAVE_DROP_UNKNOWN
        if not keyframer:
            flags |= S.SAVE_NO_KEYFRAMER
        if segment is not None:
            try:
                a, b = segment
                a, b = int(a), int(b)
            except (TypeError, ValueError):
                raise TypeError("segment must be a pair of integers (start, end)") from None
            if a > b or a < -2**31 or b >= 2**31:
                raise ValueError("segment must be (start, end) with start <= end")
            flags |= S.SAVE_SEGMENT
            opts.segment_start, opts.segment_end = a, b
        opts.flags = flags
        if path is not None and not isinstance(path, (str, bytes, os.PathLike)):
            raise TypeError("path must be a file name, not %s" % type(path).__name__)
        buf = C.c_void_p()
        size = C.c_size_t()
        err = S.Diag()
        st = lib.kf3ds_save_memory(ptr, C.byref(opts), C.byref(buf), C.byref(size),
                                   C.byref(err))
        if st != S.OK:
            raise Error._from_c(err, self.name)
        try:
            data = C.string_at(buf, size.value)
        finally:
            lib.kf3ds_save_free(buf, C.byref(opts))
        if path is None:
            return data
        path = os.fspath(path)
        tmp = path + (b".tmp" if isinstance(path, bytes) else ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return None

    # -- export and bake --------------------------------------------------------
    def export_gltf(self, path=None, *, binary=None, static_frame=None, frames=None, fps=30,
                    rate=1, cubic=False, visibility_ext=False, no_ease=False,
                    no_animation=False, embed_images=False, images=None, tolerance=None,
                    every_frame=False, linear=False):
        """The scene and its animation as glTF 2.0, as ``kf3ds export`` writes it
        (docs/gltf.md): the same options give the same bytes.

        Without ``path`` returns the .glb's bytes, or with ``binary=False`` a pair
        (the .gltf's JSON bytes, the .bin's bytes; b"" when there is no binary
        data). With ``path`` (ending in .glb, or .gltf for ``binary=False``, which
        is then the default) writes the file(s) and returns None; OUT.gltf's
        buffer goes to OUT.bin beside it.

        ``frames=(first, last)`` whole frames (default: the segment), ``fps``
        frames per second of the timeline, ``rate`` samples per frame, ``cubic``,
        ``visibility_ext``, ``no_ease``, ``no_animation`` (the pose at the first
        frame), ``static_frame=F`` (the pose at frame F; takes no frames,
        rate or cubic), ``tolerance``, ``every_frame`` and ``linear`` (LINEAR
        keys only, for Blender's importer; takes no ``cubic``) are the command's
        options. Texture images: ``images`` is a
        callable name -> bytes (or ``(bytes, uri)``, or None: missing) or a dict,
        asked once per map name as the material stores it; by default they are
        looked for beside the loaded file as the command does (the name's last
        part, its case ignored when no exact match), and referred to by a URI
        relative to ``path``'s folder (without ``path``: the current directory)
        unless ``embed_images=True`` puts them inside. Maps left out are reported
        as :class:`kf3ds.GltfWarning` through the ``warnings`` module. Raises
        :class:`Error` when the export fails, ValueError/TypeError for bad options.
        """
        from ._export import export_gltf
        return export_gltf(self, path, binary=binary, static_frame=static_frame,
                           frames=frames, fps=fps, rate=rate, cubic=cubic,
                           visibility_ext=visibility_ext, no_ease=no_ease,
                           no_animation=no_animation, embed_images=embed_images,
                           tolerance=tolerance, every_frame=every_frame,
                           linear=linear, images=images)

    def bake(self, path=None, *, fixed=False, frac_bits=None, meshes=True, step=1,
             frames=None, nodes=None, tolerance=None):
        """The animation baked into a .kfb file (docs/kfb.md), as ``kf3ds bake``
        writes it: returns its bytes, or with ``path`` writes them and returns None.

        ``frames=(a, b)`` and ``step`` are decimal numbers with at most six
        decimals (default: the segment at step 1); ``fixed=True`` 16.16 fixed
        point, ``frac_bits`` (0 to 28, or "auto") another split (implies fixed);
        ``meshes=False`` matrices and channels only; ``nodes`` a sequence of node
        names (or instance names) to bake. ``tolerance`` (1e-9 to 0.1, as
        ``kf3ds bake --tolerance``) halves ``step`` until an engine that blends
        the baked matrices linearly stays within that fraction of the scene's
        extent between frames (:meth:`bake_between`). Raises :class:`Error`
        when the scene cannot be baked (no keyframer nodes, an unknown node, a
        value out of the fixed-point range, no step of six decimals within
        ``tolerance``).
        """
        from ._export import bake
        return bake(self, path, fixed=fixed, frac_bits=frac_bits, meshes=meshes, step=step,
                    frames=frames, nodes=nodes, tolerance=tolerance)

    def bake_between(self, *, step=1, frames=None):
        """How far an engine that blends two baked frames' matrices linearly
        strays from kf3ds between them (``kf3ds bake --between``; docs/kfb.md,
        "Between baked frames"), for the frames :meth:`bake` would bake with
        these arguments: a dict with ``worst`` (a fraction of the extent of the
        baked frames' vertices, measured at quarter steps), and the ``frame``
        and ``node`` where it is largest.
        """
        from ._export import bake_between
        return bake_between(self, step=step, frames=frames)


# ---------------------------------------------------------------------------
# Loading


def _root_cut(data):
    """True when the data's root chunk declares more bytes than there are."""
    if len(data) < 6:
        return False
    cid = data[0] | data[1] << 8
    length = int.from_bytes(data[2:6], "little")
    return bool(lib.kf3ds_chunk_is_root(cid)) and length > len(data)


def load(source, *, name=None, keep_source=True, strict=False, max_memory=0, max_nodes=0,
         max_keys=0, max_diags=0):
    """Loads a .3ds file: ``source`` is a path (str or os.PathLike) or the file's
    contents (bytes, bytearray, memoryview).

    Returns a :class:`Scene`. A damaged file gives the scene of everything that
    could be read, with ``scene.error`` set to the first error and
    ``scene.diagnostics`` listing every problem; ``strict=True`` raises
    :class:`Error` for it instead. Nothing usable (not a 3DS file, unreadable)
    raises :class:`Error`. ``name`` labels the scene in messages (default: the
    path, or "<bytes>"). ``keep_source=True`` (the default) keeps what saving
    needs to write the file back as it was (about the file's size again in
    memory). The ``max_`` limits are those of kf3ds_limits (0: the default).
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        label = name if name is not None else "<bytes>"
    elif isinstance(source, (str, os.PathLike)):
        label = name if name is not None else os.fspath(source)
        try:
            with open(source, "rb") as f:
                data = f.read()
        except OSError as e:
            raise Error("cannot open: %s" % (e.strerror or e), name=label) from e
    else:
        raise TypeError("load() takes a path or bytes, not %s" % type(source).__name__)
    if isinstance(label, bytes):
        label = os.fsdecode(label)
    for v, what in ((max_memory, "max_memory"), (max_nodes, "max_nodes"),
                    (max_keys, "max_keys"), (max_diags, "max_diags")):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("%s must be an int" % what)
        if v < 0 or v >= (2**64 if what == "max_memory" else 2**32):
            raise ValueError("%s out of range" % what)
    if len(data) > 0xFFFFFFFF:
        raise Error("the input is larger than 4 GiB", name=label)
    opts = S.LoadOptions()
    opts.flags = S.LOAD_KEEP_SOURCE if keep_source else 0
    opts.limits.max_memory = max_memory
    opts.limits.max_nodes = max_nodes
    opts.limits.max_keys = max_keys
    opts.limits.max_diags = max_diags
    err = S.Diag()
    ptr = lib.kf3ds_load_memory(data, len(data), C.byref(opts), C.byref(err))
    if not ptr:
        raise Error._from_c(err, label)
    error = Diagnostic._from_c(err, force_error=True) if err.code != S.OK else None
    scene = Scene(ptr, label, error, _root_cut(data))
    if isinstance(source, (str, os.PathLike)):
        scene._source = os.fspath(source)  # where export_gltf looks for texture maps
    if strict and not scene.ok:
        first = error or next((d for d in scene.diagnostics if d.is_error), None)
        scene.close()
        if first is None:
            raise Error("truncated: the file ends before its root chunk does", name=label)
        raise Error(first.message or first.status, first, label)
    return scene
