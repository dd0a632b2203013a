"""Building a scene in code: a wrapper of kf3ds_builder_* (docs/writer.md,
"Building a scene")."""
import ctypes as C

import numpy as np

from . import _structs as S
from ._lib import lib
from ._scene import Error, Scene, _bytes, _KIND_INDEX, _TYPE_INDEX


def _vec(v, n, what):
    try:
        t = tuple(float(x) for x in v)
    except TypeError:
        raise TypeError("%s must be a sequence of %d numbers" % (what, n)) from None
    if len(t) != n:
        raise ValueError("%s must have %d numbers, not %d" % (what, n, len(t)))
    return (C.c_float * n)(*t)


def _kind(kind):
    if isinstance(kind, str):
        if kind not in _KIND_INDEX:
            raise ValueError("unknown track kind %r (one of %s)" % (kind, ", ".join(S.TRACK_NAMES)))
        return _KIND_INDEX[kind]
    raise TypeError("track kind must be a name such as 'pos', not %s" % type(kind).__name__)


class Builder:
    """Makes a scene in code. Add materials, meshes, cameras, lights, nodes and
    keys, then :meth:`finish` gives the :class:`Scene` loading would give for the
    same file (``scene.save()`` writes it). Each method returns the new element's
    index where it adds one; a call the library refuses raises :class:`Error` at
    once (with the library's message). Usable as a context manager (an
    unfinished builder is freed on exit).

    >>> b = kf3ds.Builder()
    >>> b.mesh("Box", [(0,0,0), (1,0,0), (0,1,0)], [(0,1,2)])
    0
    >>> b.keyframer(30)
    >>> n = b.node("object", "Box")
    >>> b.key(n, "pos", 0, (0, 0, 0)); b.key(n, "pos", 30, (10, 0, 0))
    >>> scene = b.finish()
    """

    def __init__(self):
        self._b = lib.kf3ds_builder_create(None)
        if not self._b:
            raise MemoryError("kf3ds_builder_create")

    def _ptr(self):
        if not self._b:
            raise Error("the builder is finished or closed")
        return self._b

    def _check(self, result, index=False):
        bad = result < 0 if index else result != S.OK
        if bad:
            d = lib.kf3ds_builder_error(self._b)
            if d:
                raise Error._from_c(d.contents, "builder")
            raise Error("builder call failed", name="builder")
        return int(result) if index else None

    def close(self):
        """Frees an unfinished builder (finish() frees it too)."""
        if self._b:
            lib.kf3ds_builder_free(self._b)
            self._b = None

    def __del__(self):
        if getattr(self, "_b", None) and lib is not None:
            lib.kf3ds_builder_free(self._b)
            self._b = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- editor data ------------------------------------------------------------
    def material(self, name, *, ambient=(0, 0, 0), diffuse=(0.8, 0.8, 0.8),
                 specular=(0, 0, 0), shininess=0.0, shin_strength=0.0, transparency=0.0,
                 self_illum=0.0, shading=3, two_sided=False, texture=None):
        """Adds a material; ``texture`` is a texture map's file name. Returns its index."""
        b = self._ptr()
        m = S.Material()
        keep = [_bytes(name)]
        m.name = keep[0]
        m.ambient = _vec(ambient, 3, "ambient")
        m.diffuse = _vec(diffuse, 3, "diffuse")
        m.specular = _vec(specular, 3, "specular")
        m.shininess, m.shin_strength = float(shininess), float(shin_strength)
        m.transparency, m.self_illum = float(transparency), float(self_illum)
        m.shading = int(shading)
        m.two_sided = bool(two_sided)
        for field in S.MAP_FIELDS:
            getattr(m, field).file = b""
        if texture is not None:
            keep.append(_bytes(texture, "texture"))
            m.texture1.file = keep[-1]
            m.texture1.strength = 1.0
            m.texture1.u_scale = m.texture1.v_scale = 1.0
        return self._check(lib.kf3ds_builder_add_material(b, C.byref(m)), True)

    def mesh(self, name, points, faces, *, matrix=None, uvs=None, smoothing=None,
             material=None, hidden=False, color=0):
        """Adds a mesh: ``points`` (n, 3) as the file stores them, ``faces`` (m, 3)
        vertex indices, ``matrix`` its 4×4 MESH_MATRIX (column vectors; None: the
        identity), ``uvs`` (n, 2), ``smoothing`` (m,) group bits, ``material`` the
        name of a material added before (for all faces). Returns its index."""
        b = self._ptr()
        pts = np.ascontiguousarray(points, dtype=np.float32)
        if pts.ndim != 2 or pts.shape[1] != 3:
            raise ValueError("points must have shape (n, 3)")
        fc = np.asarray(faces)
        if fc.ndim != 2 or fc.shape[1] not in (3, 4):
            raise ValueError("faces must have shape (m, 3) (or (m, 4) with edge flags)")
        if fc.size and (fc.min() < 0 or fc.max() > 0xFFFF):
            raise ValueError("face indices must be 0..65535")
        face_arr = np.zeros((len(fc), 4), np.uint16)
        face_arr[:, :fc.shape[1]] = fc
        if fc.shape[1] == 3:
            face_arr[:, 3] = 7  # all three edges visible
        mat = None
        if matrix is not None:
            mm = np.asarray(matrix, dtype=np.float32)
            if mm.shape != (4, 4):
                raise ValueError("matrix must be 4×4")
            mat = S.Mat4()
            for r in range(4):
                for c in range(4):
                    mat.m[r][c] = float(mm[r, c])
        i = self._check(lib.kf3ds_builder_add_mesh(
            b, _bytes(name), pts.ctypes.data if len(pts) else None, len(pts),
            face_arr.ctypes.data if len(face_arr) else None, len(face_arr),
            C.byref(mat) if mat is not None else None), True)
        if uvs is not None:
            uv = np.ascontiguousarray(uvs, dtype=np.float32)
            if uv.ndim != 2 or uv.shape[1] != 2:
                raise ValueError("uvs must have shape (n, 2)")
            self._check(lib.kf3ds_builder_mesh_texcoords(b, i, uv.ctypes.data, len(uv)))
        if smoothing is not None:
            sm = np.ascontiguousarray(smoothing, dtype=np.uint32)
            if sm.shape != (len(face_arr),):
                raise ValueError("smoothing must have one value per face")
            self._check(lib.kf3ds_builder_mesh_smoothing(b, i, sm.ctypes.data))
        if material is not None:
            self._check(lib.kf3ds_builder_mesh_material(b, i, _bytes(material), None, 0))
        if hidden or color:
            self._check(lib.kf3ds_builder_mesh_display(b, i, int(bool(hidden)), int(color)))
        return i

    def camera(self, name, position, target, *, roll=0.0, lens=50.0, near_range=0.0,
               far_range=1000.0):
        """Adds an editor camera (roll in degrees, lens in mm). Returns its index."""
        b = self._ptr()
        c = S.Camera()
        nm = _bytes(name)
        c.name = nm
        c.position = _vec(position, 3, "position")
        c.target = _vec(target, 3, "target")
        c.roll, c.lens = float(roll), float(lens)
        c.near_range, c.far_range = float(near_range), float(far_range)
        return self._check(lib.kf3ds_builder_add_camera(b, C.byref(c)), True)

    def light(self, name, position, *, color=(1, 1, 1), multiplier=1.0, off=False,
              spot=False, target=(0, 0, 0), hotspot=30.0, falloff=45.0, roll=0.0):
        """Adds a light (an omni light, or with ``spot=True`` a spotlight aimed at
        ``target``, angles in degrees). Returns its index."""
        b = self._ptr()
        l = S.Light()
        nm = _bytes(name)
        l.name = nm
        l.position = _vec(position, 3, "position")
        l.color = _vec(color, 3, "color")
        l.multiplier = float(multiplier)
        l.off, l.spot = bool(off), bool(spot)
        l.target = _vec(target, 3, "target")
        l.hotspot, l.falloff, l.roll = float(hotspot), float(falloff), float(roll)
        return self._check(lib.kf3ds_builder_add_light(b, C.byref(l)), True)

    def master_scale(self, scale):
        self._check(lib.kf3ds_builder_master_scale(self._ptr(), float(scale)))

    def ambient(self, rgb):
        self._check(lib.kf3ds_builder_ambient(self._ptr(), _vec(rgb, 3, "ambient")))

    def current_frame(self, frame):
        self._check(lib.kf3ds_builder_current_frame(self._ptr(), int(frame)))

    # -- keyframer ----------------------------------------------------------------
    def keyframer(self, length, segment=None, name=""):
        """The keyframer header: animation length in frames, the active segment
        (start, end) (default 0..length) and its file name."""
        a, z = segment if segment is not None else (0, length)
        self._check(lib.kf3ds_builder_keyframer(self._ptr(), _bytes(name), int(length),
                                                int(a), int(z)))

    def node(self, type, name, parent=-1, *, pivot=None, id=None, instance=None,
             flags1=None, flags2=0):
        """Adds a node: ``type`` "object", "camera", "target", "light", "spot",
        "ltarget" or "ambient"; ``name`` the object it animates ("$$$DUMMY" for a
        dummy); ``parent`` a node added before (-1: a root). Returns its index."""
        if type not in _TYPE_INDEX:
            raise ValueError("unknown node type %r (one of %s)" % (type, ", ".join(S.NODE_TYPES)))
        if isinstance(parent, bool) or not isinstance(parent, int):
            raise TypeError("parent must be a node index")
        b = self._ptr()
        i = self._check(lib.kf3ds_builder_add_node(b, _TYPE_INDEX[type], _bytes(name),
                                                   parent), True)
        if pivot is not None:
            self._check(lib.kf3ds_builder_node_pivot(b, i, _vec(pivot, 3, "pivot")))
        if id is not None:
            self._check(lib.kf3ds_builder_node_id(b, i, int(id)))
        if instance is not None:
            self._check(lib.kf3ds_builder_node_instance(b, i, _bytes(instance)))
        if flags1 is not None or flags2:
            self._check(lib.kf3ds_builder_node_flags(b, i, int(flags1 or 0), int(flags2)))
        return i

    def track_flags(self, node, kind, flags):
        """A track's flags (low two bits: 0 single, 1 wrap, 2 repeat, 3 loop)."""
        self._check(lib.kf3ds_builder_track_flags(self._ptr(), int(node), _kind(kind),
                                                  int(flags)))

    def key(self, node, kind, frame, value=(), *, tension=0.0, continuity=0.0, bias=0.0,
            ease_to=0.0, ease_from=0.0, morph=None):
        """Adds a key to a node's track. ``kind``: "pos", "scl", "col" (value: 3
        numbers), "rot" (angle in radians relative to the previous key, then the
        axis: 4 numbers), "fov", "roll", "hot", "fall" (1 number, degrees), "hide"
        (no value) or "morph" (``morph``: the target mesh's name)."""
        k = S.Key()
        k.frame = int(frame)
        k.tension, k.continuity, k.bias = float(tension), float(continuity), float(bias)
        k.ease_to, k.ease_from = float(ease_to), float(ease_from)
        if isinstance(value, (int, float)):
            value = (value,)
        vals = [float(x) for x in value]
        if len(vals) > 4:
            raise ValueError("a key's value has at most 4 numbers")
        for j, x in enumerate(vals):
            k.value[j] = x
        keep = None
        if morph is not None:
            keep = _bytes(morph, "morph")
            k.morph_name = keep
        self._check(lib.kf3ds_builder_add_key(self._ptr(), int(node), _kind(kind),
                                              C.byref(k)))

    def finish(self, name="<builder>"):
        """The scene (the builder is used up). Raises :class:`Error` when a call
        failed or memory ran out."""
        b = self._ptr()
        self._b = None
        err = S.Diag()
        ptr = lib.kf3ds_builder_finish(b, C.byref(err))
        if not ptr:
            raise Error._from_c(err, name)
        return Scene(ptr, name)
