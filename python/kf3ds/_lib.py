"""Finding libkf3ds.so and declaring the C functions the binding calls.

The library is looked for, in order:

1. the file named by the environment variable KF3DS_LIBRARY;
2. a libkf3ds.so shipped inside this package (a wheel built with
   ``make python-wheel`` carries one);
3. ``build/libkf3ds.so`` of the source tree this package sits in
   (``python/kf3ds/../../build``), for running from a checkout;
4. the system's, through ``ctypes.util.find_library("kf3ds")``.
"""
import ctypes as C
import ctypes.util
import glob
import os

from . import _structs as S

_HERE = os.path.dirname(os.path.abspath(__file__))

#: The library major version this binding mirrors (include/kf3ds.h).
ABI_MAJOR = 0


def _candidates():
    env = os.environ.get("KF3DS_LIBRARY")
    if env:
        yield env
        return
    shipped = sorted(glob.glob(os.path.join(_HERE, "libkf3ds.so*")))
    for path in shipped:
        yield path
    tree = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "build", "libkf3ds.so")
    if os.path.exists(tree):
        yield tree
    found = ctypes.util.find_library("kf3ds")
    if found:
        yield found


def _open():
    tried = []
    for path in _candidates():
        try:
            return C.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError(
        "kf3ds: cannot find libkf3ds.so; build it with `make` and set KF3DS_LIBRARY=/path/to/"
        "libkf3ds.so" + ("; tried: " + "; ".join(tried) if tried else ""))


lib, path = _open()

_P = C.POINTER


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_fn("kf3ds_version", C.c_int)
_fn("kf3ds_version_string", C.c_char_p)
_fn("kf3ds_status_string", C.c_char_p, S.c_enum)
_fn("kf3ds_status_severity", S.c_enum, S.c_enum)
_fn("kf3ds_chunk_name", C.c_char_p, C.c_uint16)
_fn("kf3ds_chunk_is_root", C.c_int, C.c_uint16)
_fn("kf3ds_node_type_name", C.c_char_p, S.c_enum)
_fn("kf3ds_load_memory", _P(S.Scene), C.c_void_p, C.c_size_t, _P(S.LoadOptions), _P(S.Diag))
_fn("kf3ds_scene_free", None, _P(S.Scene))
_fn("kf3ds_save_memory", S.c_enum, _P(S.Scene), _P(S.SaveOptions), _P(C.c_void_p),
    _P(C.c_size_t), _P(S.Diag))
_fn("kf3ds_save_free", None, C.c_void_p, _P(S.SaveOptions))
_fn("kf3ds_scene_find_node", C.c_int32, _P(S.Scene), C.c_char_p)
_fn("kf3ds_scene_find_mesh", C.c_int32, _P(S.Scene), C.c_char_p)
_fn("kf3ds_scene_eval", None, _P(S.Scene), C.c_double, C.c_uint, _P(S.Pose))
_fn("kf3ds_node_eval", None, _P(S.Scene), C.c_uint32, C.c_double, C.c_uint, _P(S.Pose))
_fn("kf3ds_track_eval", C.c_int, _P(S.Track), S.c_enum, C.c_double, C.c_uint,
    _P(C.c_float))
_fn("kf3ds_node_mesh_matrix", C.c_int, _P(S.Scene), C.c_uint32, _P(S.Pose), _P(S.Mat4))
_fn("kf3ds_node_camera_view", C.c_int, _P(S.Scene), C.c_uint32, _P(S.Pose), _P(S.Mat4),
    _P(C.c_float), _P(C.c_float))
_fn("kf3ds_node_pose_mesh", C.c_int32, _P(S.Scene), C.c_uint32, _P(S.Pose))
_fn("kf3ds_scene_bounds", C.c_int, _P(S.Scene), _P(S.Pose), _P(C.c_float), _P(C.c_float))
_fn("kf3ds_scene_places_meshes", C.c_int, _P(S.Scene))

# The builder (include/kf3ds.h, "Building a scene in code"); an opaque pointer.
_B = C.c_void_p
_fn("kf3ds_builder_create", _B, _P(S.Allocator))
_fn("kf3ds_builder_free", None, _B)
_fn("kf3ds_builder_error", _P(S.Diag), _B)
_fn("kf3ds_builder_add_material", C.c_int32, _B, _P(S.Material))
_fn("kf3ds_builder_add_mesh", C.c_int32, _B, C.c_char_p, C.c_void_p, C.c_uint32, C.c_void_p,
    C.c_uint32, _P(S.Mat4))
_fn("kf3ds_builder_mesh_texcoords", S.c_enum, _B, C.c_int32, C.c_void_p, C.c_uint32)
_fn("kf3ds_builder_mesh_point_flags", S.c_enum, _B, C.c_int32, C.c_void_p, C.c_uint32)
_fn("kf3ds_builder_mesh_smoothing", S.c_enum, _B, C.c_int32, C.c_void_p)
_fn("kf3ds_builder_mesh_display", S.c_enum, _B, C.c_int32, C.c_int, C.c_uint8)
_fn("kf3ds_builder_mesh_material", S.c_enum, _B, C.c_int32, C.c_char_p, C.c_void_p,
    C.c_uint32)
_fn("kf3ds_builder_add_camera", C.c_int32, _B, _P(S.Camera))
_fn("kf3ds_builder_add_light", C.c_int32, _B, _P(S.Light))
_fn("kf3ds_builder_master_scale", S.c_enum, _B, C.c_float)
_fn("kf3ds_builder_ambient", S.c_enum, _B, _P(C.c_float))
_fn("kf3ds_builder_current_frame", S.c_enum, _B, C.c_int32)
_fn("kf3ds_builder_keyframer", S.c_enum, _B, C.c_char_p, C.c_int32, C.c_int32, C.c_int32)
_fn("kf3ds_builder_add_node", C.c_int32, _B, S.c_enum, C.c_char_p, C.c_int32)
_fn("kf3ds_builder_node_pivot", S.c_enum, _B, C.c_int32, _P(C.c_float))
_fn("kf3ds_builder_node_id", S.c_enum, _B, C.c_int32, C.c_uint16)
_fn("kf3ds_builder_node_instance", S.c_enum, _B, C.c_int32, C.c_char_p)
_fn("kf3ds_builder_node_flags", S.c_enum, _B, C.c_int32, C.c_uint16, C.c_uint16)
_fn("kf3ds_builder_track_flags", S.c_enum, _B, C.c_int32, S.c_enum, C.c_uint16)
_fn("kf3ds_builder_add_key", S.c_enum, _B, C.c_int32, S.c_enum, _P(S.Key))
_fn("kf3ds_builder_finish", _P(S.Scene), _B, _P(S.Diag))

# glTF export (include/kf3ds_gltf.h) and bake (include/kf3ds_bake.h).
_fn("kf3ds_gltf_write", S.c_enum, _P(S.Scene), _P(S.GltfOptions), _P(S.GltfOutput), _P(S.Diag))
_fn("kf3ds_gltf_free", None, _P(S.GltfOutput))
_fn("kf3ds_bake", S.c_enum, _P(S.Scene), _P(S.BakeOptions), _P(C.c_void_p), _P(C.c_size_t),
    _P(S.BakeInfo), _P(S.Diag))
_fn("kf3ds_bake_free", None, C.c_void_p, _P(S.BakeOptions))
_fn("kf3ds_bake_between", S.c_enum, _P(S.Scene), _P(S.BakeOptions), _P(S.BakeBetweenInfo))
_fn("kf3ds_bake_fit_step", S.c_enum, _P(S.Scene), _P(S.BakeOptions), C.c_double, C.c_void_p,
    C.c_void_p, _P(S.BakeBetweenInfo))

if lib.kf3ds_version() // 10000 != ABI_MAJOR:
    raise ImportError("kf3ds: %s is version %s; this binding needs %d.x" % (
        path, lib.kf3ds_version_string().decode(), ABI_MAJOR))
