"""ctypes mirrors of the structs in include/kf3ds.h.

Every struct here has the same fields, in the same order and with the same
types, as its C declaration; tests/python/test_layout.py compiles a small C
program that prints sizeof and offsetof for each of them and compares, so a
change to the header that is not made here too fails the tests.
"""
import ctypes as C

TRACK_COUNT = 10
MAP_COUNT = 8

c_enum = C.c_int  # every enum of the header fits an int

# kf3ds_status
OK = 0
ERR_ARGUMENT, ERR_IO, ERR_NOMEM, ERR_NOT_3DS, ERR_CHUNK, ERR_TRUNCATED, ERR_LIMIT = range(1, 8)
WARN_OVERRUN, WARN_UNSORTED, WARN_PARENT, WARN_REFERENCE, WARN_VALUE, WARN_TRAILING = range(8, 14)

LOAD_KEEP_SOURCE = 0x1
SAVE_CANONICAL = 0x01
SAVE_REPAIR = 0x02
SAVE_DROP_UNKNOWN = 0x04
SAVE_NO_KEYFRAMER = 0x08
SAVE_SEGMENT = 0x10
EVAL_NO_EASE = 0x1
NONE = -1

TRACK_NAMES = ("pos", "rot", "scl", "fov", "roll", "col", "morph", "hot", "fall", "hide")
NODE_TYPES = ("ambient", "object", "camera", "target", "light", "ltarget", "spot")
MAP_NAMES = ("texture1", "texture2", "opacity", "bump", "specular", "shininess",
             "self_illum", "reflection")


class Diag(C.Structure):
    _fields_ = [
        ("code", c_enum),
        ("severity", c_enum),
        ("offset", C.c_uint32),
        ("chunk_id", C.c_uint16),
        ("chunk_name", C.c_char_p),
        ("message", C.c_char * 112),
    ]


class Mat4(C.Structure):
    _fields_ = [("m", (C.c_float * 4) * 4)]


class TextureMap(C.Structure):
    _fields_ = [
        ("file", C.c_char_p),
        ("strength", C.c_float),
        ("tiling", C.c_uint16),
        ("blur", C.c_float),
        ("u_scale", C.c_float),
        ("v_scale", C.c_float),
        ("u_offset", C.c_float),
        ("v_offset", C.c_float),
        ("rotation", C.c_float),
    ]


class Material(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("ambient", C.c_float * 3),
        ("diffuse", C.c_float * 3),
        ("specular", C.c_float * 3),
        ("shininess", C.c_float),
        ("shin_strength", C.c_float),
        ("transparency", C.c_float),
        ("self_illum", C.c_float),
        ("wire_size", C.c_float),
        ("shading", C.c_uint16),
        ("two_sided", C.c_uint8),
        ("additive", C.c_uint8),
        ("wire", C.c_uint8),
        ("decal", C.c_uint8),
        ("face_map", C.c_uint8),
        ("soften", C.c_uint8),
        ("self_illum_flag", C.c_uint8),
        ("texture1", TextureMap),
        ("texture2", TextureMap),
        ("opacity", TextureMap),
        ("bump", TextureMap),
        ("specular_map", TextureMap),
        ("shininess_map", TextureMap),
        ("self_illum_map", TextureMap),
        ("reflection", TextureMap),
    ]


MAP_FIELDS = ("texture1", "texture2", "opacity", "bump", "specular_map", "shininess_map",
              "self_illum_map", "reflection")


class Face(C.Structure):
    _fields_ = [("v", C.c_uint16 * 3), ("flags", C.c_uint16)]


class MaterialGroup(C.Structure):
    _fields_ = [
        ("material_name", C.c_char_p),
        ("material", C.c_int32),
        ("faces", C.POINTER(C.c_uint16)),
        ("num_faces", C.c_uint32),
    ]


class Mesh(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("points", C.c_void_p),
        ("num_points", C.c_uint32),
        ("point_flags", C.c_void_p),
        ("num_point_flags", C.c_uint32),
        ("texcoords", C.c_void_p),
        ("num_texcoords", C.c_uint32),
        ("faces", C.c_void_p),
        ("num_faces", C.c_uint32),
        ("smoothing", C.c_void_p),
        ("face_materials", C.c_void_p),
        ("groups", C.POINTER(MaterialGroup)),
        ("num_groups", C.c_uint32),
        ("matrix", Mat4),
        ("inv_matrix", Mat4),
        ("mirrored", C.c_uint8),
        ("has_matrix", C.c_uint8),
        ("hidden", C.c_uint8),
        ("color", C.c_uint8),
    ]


class Camera(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("position", C.c_float * 3),
        ("target", C.c_float * 3),
        ("roll", C.c_float),
        ("lens", C.c_float),
        ("fov", C.c_float),
        ("near_range", C.c_float),
        ("far_range", C.c_float),
        ("see_cone", C.c_uint8),
        ("hidden", C.c_uint8),
    ]


class Light(C.Structure):
    _fields_ = [
        ("name", C.c_char_p),
        ("position", C.c_float * 3),
        ("color", C.c_float * 3),
        ("off", C.c_uint8),
        ("spot", C.c_uint8),
        ("hidden", C.c_uint8),
        ("attenuate", C.c_uint8),
        ("shadowed", C.c_uint8),
        ("see_cone", C.c_uint8),
        ("rectangular", C.c_uint8),
        ("overshoot", C.c_uint8),
        ("inner_range", C.c_float),
        ("outer_range", C.c_float),
        ("multiplier", C.c_float),
        ("target", C.c_float * 3),
        ("hotspot", C.c_float),
        ("falloff", C.c_float),
        ("roll", C.c_float),
    ]


class Key(C.Structure):
    _fields_ = [
        ("frame", C.c_int32),
        ("spline_flags", C.c_uint16),
        ("tension", C.c_float),
        ("continuity", C.c_float),
        ("bias", C.c_float),
        ("ease_to", C.c_float),
        ("ease_from", C.c_float),
        ("value", C.c_float * 4),
        ("quat", C.c_float * 4),
        ("morph_mesh", C.c_int32),
        ("morph_name", C.c_char_p),
    ]


class Track(C.Structure):
    _fields_ = [
        ("keys", C.POINTER(Key)),
        ("num_keys", C.c_uint32),
        ("flags", C.c_uint16),
        ("frames_", C.c_void_p),
        ("segments_", C.c_void_p),
    ]


class Node(C.Structure):
    _fields_ = [
        ("type", c_enum),
        ("parent", C.c_int32),
        ("flags1", C.c_uint16),
        ("flags2", C.c_uint16),
        ("mesh", C.c_int32),
        ("camera", C.c_int32),
        ("light", C.c_int32),
        ("target", C.c_int32),
        ("active_tracks_", C.c_uint32),
        ("tracks", Track * TRACK_COUNT),
        ("pivot", C.c_float * 3),
        ("offset", C.c_uint32),
        ("id", C.c_int32),
        ("parent_raw", C.c_uint16),
        ("has_node_id", C.c_uint8),
        ("is_dummy", C.c_uint8),
        ("has_prescale", C.c_uint8),
        ("has_bbox", C.c_uint8),
        ("has_morph_smooth", C.c_uint8),
        ("name", C.c_char_p),
        ("instance", C.c_char_p),
        ("prescale", C.c_float * 3),
        ("bbox_min", C.c_float * 3),
        ("bbox_max", C.c_float * 3),
        ("morph_smooth", C.c_float),
        ("depth", C.c_uint32),
    ]


class Environment(C.Structure):
    _fields_ = [
        ("background", c_enum),
        ("atmosphere", c_enum),
        ("bitmap", C.c_char_p),
        ("solid", C.c_float * 3),
        ("gradient_mid", C.c_float),
        ("gradient", (C.c_float * 3) * 3),
        ("fog_near", C.c_float),
        ("fog_near_density", C.c_float),
        ("fog_far", C.c_float),
        ("fog_far_density", C.c_float),
        ("fog_color", C.c_float * 3),
        ("fog_background", C.c_uint8),
        ("layer_bottom", C.c_float),
        ("layer_top", C.c_float),
        ("layer_density", C.c_float),
        ("layer_flags", C.c_uint32),
        ("layer_color", C.c_float * 3),
        ("cue_near", C.c_float),
        ("cue_near_dim", C.c_float),
        ("cue_far", C.c_float),
        ("cue_far_dim", C.c_float),
        ("cue_background", C.c_uint8),
    ]


class Scene(C.Structure):
    _fields_ = [
        ("version", C.c_uint32),
        ("mesh_version", C.c_uint32),
        ("master_scale", C.c_float),
        ("ambient", C.c_float * 3),
        ("environment", Environment),
        ("meshes", C.POINTER(Mesh)),
        ("num_meshes", C.c_uint32),
        ("materials", C.POINTER(Material)),
        ("num_materials", C.c_uint32),
        ("cameras", C.POINTER(Camera)),
        ("num_cameras", C.c_uint32),
        ("lights", C.POINTER(Light)),
        ("num_lights", C.c_uint32),
        ("has_keyframer", C.c_uint8),
        ("kf_revision", C.c_uint16),
        ("kf_filename", C.c_char_p),
        ("anim_length", C.c_int32),
        ("segment_start", C.c_int32),
        ("segment_end", C.c_int32),
        ("current_frame", C.c_int32),
        ("nodes", C.POINTER(Node)),
        ("num_nodes", C.c_uint32),
        ("eval_order", C.POINTER(C.c_uint32)),
        ("diags", C.POINTER(Diag)),
        ("num_diags", C.c_uint32),
        ("num_dropped_diags", C.c_uint32),
        ("internal_", C.c_void_p),
        ("source_", C.c_void_p),
    ]


MALLOC_FN = C.CFUNCTYPE(C.c_void_p, C.c_size_t, C.c_void_p)
FREE_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_void_p)


class Allocator(C.Structure):
    _fields_ = [("malloc_fn", MALLOC_FN), ("free_fn", FREE_FN), ("user", C.c_void_p)]


class Limits(C.Structure):
    _fields_ = [
        ("max_memory", C.c_size_t),
        ("max_nodes", C.c_uint32),
        ("max_keys", C.c_uint32),
        ("max_diags", C.c_uint32),
    ]


class LoadOptions(C.Structure):
    _fields_ = [("allocator", Allocator), ("limits", Limits), ("flags", C.c_uint)]


class SaveOptions(C.Structure):
    _fields_ = [
        ("allocator", Allocator),
        ("flags", C.c_uint),
        ("segment_start", C.c_int32),
        ("segment_end", C.c_int32),
    ]


class Pose(C.Structure):
    _fields_ = [
        ("world", Mat4),
        ("position", C.c_float * 3),
        ("rotation", C.c_float * 4),
        ("scale", C.c_float * 3),
        ("color", C.c_float * 3),
        ("fov", C.c_float),
        ("roll", C.c_float),
        ("hotspot", C.c_float),
        ("falloff", C.c_float),
        ("hidden", C.c_uint8),
        ("morph_mesh", C.c_int32),
        ("segment_hint_", C.c_uint32 * TRACK_COUNT),
    ]


# include/kf3ds_gltf.h
GLTF_SEPARATE = 0x001
GLTF_NO_ANIMATION = 0x002
GLTF_STATIC_FRAME = 0x004
GLTF_FRAMES = 0x008
GLTF_CUBIC = 0x010
GLTF_VISIBILITY_EXT = 0x020
GLTF_NO_EASE = 0x040
GLTF_EMBED_IMAGES = 0x080
GLTF_EVERY_FRAME = 0x100
GLTF_LINEAR = 0x200
GLTF_MAX_FPS = 100000.0
GLTF_MAX_RATE = 1000
GLTF_IMAGE_FOUND, GLTF_IMAGE_MISSING, GLTF_IMAGE_SKIP = 0, 1, 2
GLTF_WARN_MAP_MISSING, GLTF_WARN_MAP_TYPE = 1, 2
GLTF_LIMIT_NONE, GLTF_LIMIT_FRAMES, GLTF_LIMIT_PROPERTY, GLTF_LIMIT_GLB_SIZE = range(4)


class GltfImage(C.Structure):
    _fields_ = [("data", C.c_void_p), ("size", C.c_size_t), ("uri", C.c_char_p)]


GLTF_IMAGE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_char_p, C.POINTER(GltfImage))


class GltfWarning(C.Structure):
    _fields_ = [("kind", c_enum), ("map", C.c_char_p), ("message", C.c_char_p)]


GLTF_WARNING_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(GltfWarning))


class GltfOptions(C.Structure):
    _fields_ = [
        ("allocator", Allocator),
        ("flags", C.c_uint),
        ("bin_uri", C.c_char_p),
        ("file_name", C.c_char_p),
        ("static_frame", C.c_double),
        ("first_frame", C.c_int32),
        ("last_frame", C.c_int32),
        ("fps", C.c_double),
        ("rate", C.c_int),
        ("image", GLTF_IMAGE_FN),
        ("image_user", C.c_void_p),
        ("warning", GLTF_WARNING_FN),
        ("warning_user", C.c_void_p),
        ("tolerance", C.c_double),
    ]


class GltfSummary(C.Structure):
    _fields_ = [
        ("num_nodes", C.c_uint32),
        ("num_meshes", C.c_uint32),
        ("num_channels", C.c_uint32),
        ("animated", C.c_int),
        ("first_frame", C.c_double),
        ("last_frame", C.c_double),
        ("fps", C.c_double),
        ("limit", c_enum),
    ]


class GltfOutput(C.Structure):
    _fields_ = [
        ("bytes", C.c_void_p),
        ("size", C.c_size_t),
        ("bin", C.c_void_p),
        ("bin_size", C.c_size_t),
        ("summary", GltfSummary),
        ("allocator_", Allocator),
    ]


# include/kf3ds_bake.h
BAKE_FIXED = 0x1
BAKE_NO_MESHES = 0x2
BAKE_MAX_FRAC_BITS = 28
BAKE_FRAC_AUTO = -1
BAKE_FRAC_NONE = -2
(BAKE_OK, BAKE_BAD_OPTION, BAKE_STATIC, BAKE_UNKNOWN_NODE, BAKE_RANGE, BAKE_TOO_BIG,
 BAKE_NOMEM) = range(7)


class BakeOptions(C.Structure):
    _fields_ = [
        ("allocator", Allocator),
        ("flags", C.c_uint),
        ("frac_bits", C.c_int),
        ("frame_first", C.c_int32),
        ("frame_step", C.c_int32),
        ("frame_scale", C.c_uint32),
        ("num_frames", C.c_uint32),
        ("nodes", C.POINTER(C.c_char_p)),
        ("num_nodes", C.c_uint32),
    ]


class BakeInfo(C.Structure):
    _fields_ = [
        ("problem", c_enum),
        ("fixed", C.c_int),
        ("frac_bits", C.c_int),
        ("largest", C.c_double),
        ("frame_first", C.c_int32),
        ("frame_step", C.c_int32),
        ("frame_scale", C.c_uint32),
        ("num_frames", C.c_uint32),
        ("num_nodes", C.c_uint32),
        ("num_channels", C.c_uint32),
        ("num_meshes", C.c_uint32),
        ("num_materials", C.c_uint32),
        ("missing_node", C.c_char_p),
    ]


BAKE_FIT_OK, BAKE_FIT_DECIMALS, BAKE_FIT_FRAMES, BAKE_FIT_RANGE = range(4)


class BakeBetweenInfo(C.Structure):
    _fields_ = [
        ("worst", C.c_double),
        ("frame", C.c_double),
        ("node", C.c_uint32),
        ("limit", c_enum),
    ]


# C name of each mirror, for the layout test.
C_NAMES = {
    Diag: "kf3ds_diag", Mat4: "kf3ds_mat4", TextureMap: "kf3ds_texture_map",
    Material: "kf3ds_material", Face: "kf3ds_face", MaterialGroup: "kf3ds_material_group",
    Mesh: "kf3ds_mesh", Camera: "kf3ds_camera", Light: "kf3ds_light", Key: "kf3ds_key",
    Track: "kf3ds_track", Node: "kf3ds_node", Environment: "kf3ds_environment",
    Scene: "kf3ds_scene", Allocator: "kf3ds_allocator", Limits: "kf3ds_limits",
    LoadOptions: "kf3ds_load_options", SaveOptions: "kf3ds_save_options", Pose: "kf3ds_pose",
    GltfImage: "kf3ds_gltf_image", GltfWarning: "kf3ds_gltf_warning",
    GltfOptions: "kf3ds_gltf_options", GltfSummary: "kf3ds_gltf_summary",
    GltfOutput: "kf3ds_gltf_output", BakeOptions: "kf3ds_bake_options",
    BakeInfo: "kf3ds_bake_info", BakeBetweenInfo: "kf3ds_bake_between_info",
}
