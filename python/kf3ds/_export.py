"""glTF export (include/kf3ds_gltf.h) and bake (include/kf3ds_bake.h) of a Scene.

Both fill the library's options the way the commands do (tools/cmd/cmd_export.c,
tools/cmd/cmd_bake.c), so that the same options give the same bytes as
``kf3ds export`` and ``kf3ds bake``.
"""
import ctypes as C
import decimal
import math
import numbers
import os
import warnings

from . import _structs as S
from ._lib import lib


class GltfWarning(UserWarning):
    """A part the glTF export left out (a texture map not found, or not PNG or JPEG).

    ``kind`` is "map_missing" or "map_type", ``map`` the map's name as the
    material stores it."""

    def __init__(self, message, kind=None, map=None):
        super().__init__(message)
        self.kind = kind
        self.map = map


_WARN_KINDS = {S.GLTF_WARN_MAP_MISSING: "map_missing", S.GLTF_WARN_MAP_TYPE: "map_type"}


def _error(scene, message):
    from ._scene import Error
    return Error(message, name=scene.name)


def _fs(path):
    """A path as bytes (the file system's own)."""
    return os.fsencode(path)


# ---------------------------------------------------------------------------
# Texture images beside the input, as the command finds them


def _ascii_lower(b):
    return bytes(c + 32 if 65 <= c <= 90 else c for c in b)


def _dir_of(path):
    """The folder part of a path with its '/' (b"" for a bare name)."""
    i = path.rfind(b"/")
    return path[:i + 1] if i >= 0 else b""


def _find_beside(folder, name):
    """find_beside of cmd_export.c: the file `name` (its last part) in `folder`, its case
    ignored when no exact match; the path or None."""
    base = name
    for i, c in enumerate(name):
        if c in b"/\\:":
            base = name[i + 1:]
    if not base or base in (b".", b".."):
        return None
    path = folder + base
    try:
        with open(path, "rb"):
            return path
    except OSError:
        pass
    try:
        entries = os.listdir(folder or b".")
    except OSError:
        return None
    want = _ascii_lower(base)
    for e in entries:
        if _ascii_lower(e) == want:
            return folder + e
    return None


_URI_CAP = 3 * 4096  # the command's uri buffer (3 * PATH_MAX)
_UNRESERVED = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")


def _uri_fits(s, cap):
    n = 0
    for c in s:
        if n + 4 >= cap:
            return False
        n += 1 if c in _UNRESERVED else 3
    return True


def _relative_path(frm, to):
    """relative_path of cmd_export.c: from folder `frm` to file `to`, or None."""
    try:
        a = os.path.realpath(frm or b".", strict=True)
        b = os.path.realpath(to, strict=True)
    except (OSError, TypeError):
        try:
            a = os.path.realpath(frm or b".")
            b = os.path.realpath(to)
            if not (os.path.exists(a) and os.path.exists(b)):
                return None
        except OSError:
            return None
    common = 0
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        if a[i] == 0x2F:
            common = i + 1
        i += 1
    if i == len(a) and i < len(b) and b[i] == 0x2F:
        common = i + 1
    pa, pb = a[common:], b[common:]
    out = b""
    p = 0
    while p < len(pa):
        if len(out) + 4 >= _URI_CAP:
            return None
        out += b"../"
        while p < len(pa) and pa[p] != 0x2F:
            p += 1
        while p < len(pa) and pa[p] == 0x2F:
            p += 1
    if not _uri_fits(pb, _URI_CAP - len(out)):
        return None
    return out + pb


# ---------------------------------------------------------------------------
# glTF


def _check_frame(v, what):
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError("%s must be a number, not %s" % (what, type(v).__name__))
    v = float(v)
    if not math.isfinite(v):
        raise ValueError("%s must be a finite number" % what)
    return v


def _check_int(v, what):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError("%s must be an int, not %s" % (what, type(v).__name__))
    return int(v)


def _flag(v, what):
    if not isinstance(v, (bool, int)) or isinstance(v, int) and v not in (0, 1):
        raise TypeError("%s must be True or False" % what)
    return bool(v)


def _write_atomic(path, data):
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


def export_gltf(scene, path=None, *, binary=None, static_frame=None, frames=None, fps=30,
                rate=1, cubic=False, visibility_ext=False, no_ease=False, no_animation=False,
                embed_images=False, images=None, tolerance=None, every_frame=False,
                linear=False):
    ptr = scene._ptr()
    if path is not None and not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("path must be a file name, not %s" % type(path).__name__)
    fpath = os.fspath(path) if path is not None else None
    bpath = _fs(fpath) if fpath is not None else None
    if binary is None:
        binary = not (bpath is not None and _ascii_lower(bpath).endswith(b".gltf"))
    binary = _flag(binary, "binary")
    cubic = _flag(cubic, "cubic")
    visibility_ext = _flag(visibility_ext, "visibility_ext")
    no_ease = _flag(no_ease, "no_ease")
    no_animation = _flag(no_animation, "no_animation")
    embed_images = _flag(embed_images, "embed_images")
    if bpath is not None:
        low = _ascii_lower(bpath)
        if binary and not low.endswith(b".glb") or not binary and not low.endswith(b".gltf"):
            raise ValueError("path must end in .glb (binary) or .gltf (binary=False)")
    fps = _check_frame(fps, "fps")
    if not (fps > 0.0) or fps > S.GLTF_MAX_FPS:
        raise ValueError("fps must be above 0 and at most %g" % S.GLTF_MAX_FPS)
    rate = _check_int(rate, "rate")
    if not 1 <= rate <= S.GLTF_MAX_RATE:
        raise ValueError("rate must be 1 to %d samples per frame" % S.GLTF_MAX_RATE)
    if frames is not None:
        try:
            first, last = frames
        except (TypeError, ValueError):
            raise TypeError("frames must be a pair of whole frames (first, last)") from None
        first = _check_int(first, "frames")
        last = _check_int(last, "frames")
        if not (-2000000000 <= first <= last <= 2000000000):
            raise ValueError("frames must be (first, last) with first <= last, within "
                             "+-2000000000")
    if static_frame is not None:
        static_frame = _check_frame(static_frame, "static_frame")
        if frames is not None or cubic or rate != 1:
            raise ValueError("static_frame exports one pose: it takes no frames, rate or cubic")
        no_animation = True
    every_frame = _flag(every_frame, "every_frame")
    linear = _flag(linear, "linear")
    if linear and cubic:
        raise ValueError("linear writes LINEAR keys only: it takes no cubic")
    if tolerance is not None:
        tolerance = _check_frame(tolerance, "tolerance")
        if not 1e-9 <= tolerance <= 0.1 or every_frame:
            raise ValueError("tolerance must be from 1e-9 to 0.1 of the scene's extent, "
                             "without every_frame")
    if images is not None and not callable(images) and not isinstance(images, dict):
        raise TypeError("images must be a callable (name -> bytes or None) or a dict")

    o = S.GltfOptions()
    o.flags = ((0 if binary else S.GLTF_SEPARATE) |
               (S.GLTF_NO_ANIMATION if no_animation else 0) |
               (S.GLTF_STATIC_FRAME if static_frame is not None else 0) |
               (S.GLTF_FRAMES if frames is not None else 0) |
               (S.GLTF_CUBIC if cubic else 0) |
               (S.GLTF_VISIBILITY_EXT if visibility_ext else 0) |
               (S.GLTF_NO_EASE if no_ease else 0) |
               (S.GLTF_EMBED_IMAGES if embed_images else 0) |
               (S.GLTF_EVERY_FRAME if every_frame else 0) |
               (S.GLTF_LINEAR if linear else 0))
    o.tolerance = tolerance or 0.0
    source = getattr(scene, "_source", None)
    if source is not None:
        file_name = os.path.basename(_fs(source))
    elif scene.name and scene.name != "<bytes>":
        file_name = os.path.basename(_fs(scene.name))
    else:
        file_name = b""
    bin_path = None
    if not binary:
        if bpath is not None:
            bin_path = bpath[:-5] + b".bin"
            bin_uri = os.path.basename(bin_path)
        else:
            stem = file_name[:-4] if _ascii_lower(file_name).endswith(b".3ds") else file_name
            bin_uri = (stem or b"scene") + b".bin"
        if not _uri_fits(bin_uri, 1024):
            raise ValueError("the .bin's name is too long")
    else:
        bin_uri = b""
    o.bin_uri = bin_uri
    o.file_name = file_name
    if static_frame is not None:
        o.static_frame = static_frame
    if frames is not None:
        o.first_frame, o.last_frame = first, last
    o.fps = fps
    o.rate = rate

    in_dir = _dir_of(_fs(source)) if source is not None else None
    out_dir = _dir_of(bpath) if bpath is not None else b""
    held = {}       # the last image's bytes and uri, alive until the next call
    failed = []     # an exception from a callback, raised after the export
    found = {}

    def find_image(_user, name, image):
        held.clear()
        try:
            if images is not None:
                key = _str(name)
                got = images.get(key) if isinstance(images, dict) else images(key)
                if got is None:
                    return S.GLTF_IMAGE_MISSING
                uri = None
                if isinstance(got, tuple):
                    got, uri = got
                data = bytes(got)
                if uri is None:
                    base = name
                    for i, c in enumerate(name):
                        if c in b"/\\:":
                            base = name[i + 1:]
                    uri = base
                uri = _fs(uri) if uri else None
            else:
                if in_dir is None:
                    return S.GLTF_IMAGE_MISSING
                path = _find_beside(in_dir, name)
                if path is None:
                    return S.GLTF_IMAGE_MISSING
                found[name] = path
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError as e:
                    warnings.warn(GltfWarning("%s: cannot read texture map: %s"
                                              % (os.fsdecode(path), e.strerror or e),
                                              "map_unreadable", _str(name)), stacklevel=4)
                    return S.GLTF_IMAGE_SKIP
                uri = None if embed_images else _relative_path(out_dir, path)
            buf = C.create_string_buffer(data, len(data))
            held["buf"], held["uri"] = buf, uri
            image[0].data = C.cast(buf, C.c_void_p)
            image[0].size = len(data)
            image[0].uri = uri
            return S.GLTF_IMAGE_FOUND
        except BaseException as e:  # noqa: B902 - given back after the export
            failed.append(e)
            return -1

    reported = []

    def on_warning(_user, w):
        w = w[0]
        reported.append(GltfWarning(_str(w.message) or "", _WARN_KINDS.get(w.kind, w.kind),
                                    _str(w.map)))

    image_cb = S.GLTF_IMAGE_FN(find_image)
    warning_cb = S.GLTF_WARNING_FN(on_warning)
    o.image = image_cb
    o.warning = warning_cb
    out = S.GltfOutput()
    err = S.Diag()
    st = lib.kf3ds_gltf_write(ptr, C.byref(o), C.byref(out), C.byref(err))
    held.clear()
    try:
        if failed:
            raise failed[0]
        if st != S.OK:
            lim = out.summary.limit
            if st == S.ERR_LIMIT and lim == S.GLTF_LIMIT_FRAMES:
                msg = ("export: frames %.0f..%.0f at %d samples per frame are over 1000000 "
                       "samples; choose fewer with frames=(first, last)"
                       % (out.summary.first_frame, out.summary.last_frame, rate))
            elif st == S.ERR_LIMIT and lim == S.GLTF_LIMIT_PROPERTY:
                msg = "export: too many samples for one property; export fewer frames"
            elif st == S.ERR_LIMIT and lim == S.GLTF_LIMIT_GLB_SIZE:
                msg = "export: over 4 GB, too big for a .glb (export with binary=False)"
            else:
                msg = "export: " + (_str(err.message) or
                                    lib.kf3ds_status_string(st).decode())
            raise _error(scene, msg)
        data = C.string_at(out.bytes, out.size)
        sm = out.summary
        # what the export holds, for `python -m kf3ds export`'s "wrote" line
        scene._gltf_summary = (int(sm.num_nodes), int(sm.num_meshes), int(sm.num_channels),
                               bool(sm.animated), float(sm.first_frame), float(sm.last_frame))
        bin_data = C.string_at(out.bin, out.bin_size) if out.bin_size else b""
    finally:
        lib.kf3ds_gltf_free(C.byref(out))
    for w in reported:
        warnings.warn(w, stacklevel=3)
    if fpath is None:
        return data if binary else (data, bin_data)
    if binary:
        _write_atomic(fpath, data)
    else:
        if bin_data:
            _write_atomic(os.fsdecode(bin_path) if isinstance(fpath, str) else bin_path,
                          bin_data)
        _write_atomic(fpath, data)
    return None


def _str(b):
    if b is None:
        return None
    return b.decode("utf-8", "surrogateescape")


# ---------------------------------------------------------------------------
# Bake

_MAX_DECIMALS = 6


def _decimal(v, what):
    """parse_decimal of cmd_bake.c: (num, decimals) with |num| < 2^31 and at most six
    decimals (trailing zeros dropped)."""
    if isinstance(v, bool) or not isinstance(v, (numbers.Real, str, decimal.Decimal)):
        raise TypeError("%s must be a number, not %s" % (what, type(v).__name__))
    try:
        if isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError
            d = decimal.Decimal(repr(v))
        elif isinstance(v, numbers.Integral):
            d = decimal.Decimal(int(v))
        else:
            d = decimal.Decimal(v if isinstance(v, (str, decimal.Decimal)) else str(v))
        if not d.is_finite():
            raise ValueError
    except (decimal.InvalidOperation, ValueError):
        raise ValueError("%s must be a finite decimal number" % what) from None
    sign, digits, exp = d.as_tuple()
    while exp < 0 and digits and digits[-1] == 0:
        digits = digits[:-1]
        exp += 1
    num = int("".join(map(str, digits)) or "0")
    if exp > 0:
        num *= 10 ** exp
        exp = 0
    if -exp > _MAX_DECIMALS:
        raise ValueError("%s must have at most %d decimals" % (what, _MAX_DECIMALS))
    if num > 2**31 - 1:
        raise ValueError("%s is too large" % what)
    return (-num if sign else num), -exp


def _bake_frames(s, frames, step):
    """The frames, as plan_frames of cmd_bake.c: (first, step, scale, count)."""
    a, b, st, da, db, ds = s.segment_start, s.segment_end, 1, 0, 0, 0
    if frames is not None:
        try:
            fa, fb_ = frames
        except (TypeError, ValueError):
            raise TypeError("frames must be a pair (first, last)") from None
        a, da = _decimal(fa, "frames")
        b, db = _decimal(fb_, "frames")
    st, ds = _decimal(step, "step")
    if st <= 0:
        raise ValueError("step must be a positive number")
    d = max(da, db, ds)
    a *= 10 ** (d - da)
    b *= 10 ** (d - db)
    st *= 10 ** (d - ds)
    if b < a:
        raise ValueError("frames: the last frame comes before the first")
    count = (b - a) // st + 1
    if a < -2**31 or a > 2**31 - 1 or b > 2**31 - 1 or st > 2**31 - 1:
        raise ValueError("the frames do not fit the file's 32-bit frame numbers")
    if count > 0xFFFFFFFF:
        raise ValueError("%d frames are too many" % count)
    return a, st, 10 ** d, count


def _between_dict(m):
    return {"worst": m.worst, "frame": m.frame, "node": m.node}


def _fit_step(scene, ptr, o, tolerance):
    """kf3ds_bake_fit_step: o's step halved until a lerping engine stays within tolerance."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real):
        raise TypeError("tolerance must be a number, not %s" % type(tolerance).__name__)
    tolerance = float(tolerance)
    if not 1e-9 <= tolerance <= 0.1:
        raise ValueError("tolerance must be from 1e-9 to 0.1 of the scene's extent")
    m = S.BakeBetweenInfo()
    rc = lib.kf3ds_bake_fit_step(ptr, C.byref(o), tolerance, None, None, C.byref(m))
    if rc == S.ERR_LIMIT:
        why = {S.BAKE_FIT_DECIMALS: "would have more than 6 decimals",
               S.BAKE_FIT_RANGE: "would not fit 32-bit frame numbers"}.get(
                   m.limit, "would make over a million frames")
        raise _error(scene, "bake: tolerance %g: at step %.6g (%d frames) an engine that lerps "
                     "the baked matrices still strays %.3g of the extent (node %d, frame %.6g), "
                     "and half that step %s: bake fewer frames or allow more" % (
                         tolerance, o.frame_step / o.frame_scale, o.num_frames, m.worst, m.node,
                         m.frame, why))
    if rc != S.OK:
        raise _error(scene, "bake: " + lib.kf3ds_status_string(rc).decode())
    return _between_dict(m)


def bake_between(scene, *, step=1, frames=None):
    ptr = scene._ptr()
    o = S.BakeOptions()
    o.frame_first, o.frame_step, o.frame_scale, o.num_frames = _bake_frames(ptr.contents, frames,
                                                                            step)
    m = S.BakeBetweenInfo()
    rc = lib.kf3ds_bake_between(ptr, C.byref(o), C.byref(m))
    if rc != S.OK:
        raise _error(scene, "bake_between: " + lib.kf3ds_status_string(rc).decode())
    return _between_dict(m)


def bake(scene, path=None, *, fixed=False, frac_bits=None, meshes=True, step=1, frames=None,
         nodes=None, tolerance=None):
    ptr = scene._ptr()
    s = ptr.contents
    if path is not None and not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("path must be a file name, not %s" % type(path).__name__)
    fixed = _flag(fixed, "fixed")
    meshes = _flag(meshes, "meshes")
    if frac_bits is None:
        fb = 0
    elif frac_bits == "auto":
        fb = S.BAKE_FRAC_AUTO
        fixed = True
    else:
        n = _check_int(frac_bits, "frac_bits")
        if not 0 <= n <= S.BAKE_MAX_FRAC_BITS:
            raise ValueError("frac_bits must be 0 to %d, or 'auto'" % S.BAKE_MAX_FRAC_BITS)
        fb = 0 if n == 16 else S.BAKE_FRAC_NONE if n == 0 else n
        fixed = True
    a, st, scale, count = _bake_frames(s, frames, step)
    o = S.BakeOptions()
    o.flags = (S.BAKE_FIXED if fixed else 0) | (0 if meshes else S.BAKE_NO_MESHES)
    o.frac_bits = fb
    o.frame_first, o.frame_step = a, st
    o.frame_scale, o.num_frames = scale, count
    names = None
    if nodes is not None:
        if isinstance(nodes, (str, bytes)):
            raise TypeError("nodes must be a sequence of node names, not one string")
        try:
            nodes = list(nodes)
        except TypeError:
            raise TypeError("nodes must be a sequence of node names") from None
        if not nodes:
            raise ValueError("nodes must name at least one node")
        enc = []
        for n in nodes:
            if isinstance(n, str):
                n = n.encode("utf-8", "surrogateescape")
            elif not isinstance(n, bytes):
                raise TypeError("node names must be str or bytes, not %s" % type(n).__name__)
            if b"\0" in n:
                raise ValueError("node names cannot hold NUL")
            enc.append(n)
        names = (C.c_char_p * len(enc))(*enc)
        o.nodes = C.cast(names, C.POINTER(C.c_char_p))
        o.num_nodes = len(enc)
    between = None
    if tolerance is not None:
        between = _fit_step(scene, ptr, o, tolerance)
    buf = C.c_void_p()
    size = C.c_size_t()
    info = S.BakeInfo()
    err = S.Diag()
    rc = lib.kf3ds_bake(ptr, C.byref(o), C.byref(buf), C.byref(size), C.byref(info),
                        C.byref(err))
    try:
        if rc != S.OK or not buf:
            p = info.problem
            if p == S.BAKE_STATIC:
                msg = "no keyframer nodes: a static model, nothing to bake"
            elif p == S.BAKE_UNKNOWN_NODE:
                msg = "nodes: no node is called %r" % _str(info.missing_node)
            elif p == S.BAKE_TOO_BIG:
                msg = "the baked file would exceed 4 GiB: bake fewer frames or nodes"
            elif p == S.BAKE_RANGE:
                if info.frac_bits >= 0:
                    msg = ("a value of magnitude %.6g does not fit the fixed point asked for: "
                           "use frac_bits=%d or less (or 'auto')" % (info.largest,
                                                                     info.frac_bits))
                else:
                    msg = ("a value of magnitude %.6g does not fit 32-bit fixed point: bake "
                           "without fixed" % info.largest)
            else:
                msg = _str(err.message) or lib.kf3ds_status_string(rc).decode()
            raise _error(scene, "bake: " + msg)
        data = C.string_at(buf, size.value)
        # what the bake holds, for `python -m kf3ds bake`'s "wrote" line
        scene._bake_info = {name: getattr(info, name) for name in (
            "fixed", "frac_bits", "frame_first", "frame_step", "frame_scale", "num_frames",
            "num_nodes", "num_channels", "num_meshes", "num_materials")}
        scene._bake_info["between"] = between
    finally:
        lib.kf3ds_bake_free(C.cast(buf, C.c_void_p), C.byref(o))
    if path is None:
        return data
    _write_atomic(os.fspath(path), data)
    return None
