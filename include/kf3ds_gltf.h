/*
 * kf3ds glTF export: a loaded scene and its keyframer animation as glTF 2.0,
 * written into memory (docs/gltf.md has the mapping, "The library call" an
 * example). It is what `kf3ds export` runs; the browser build and language
 * bindings call it the same way.
 *
 * The module is C99, uses libc, libm and kf3ds.h only, no stdio: the caller
 * writes the bytes wherever they go, and gives texture images through a
 * callback (the library never opens a file). Every byte it allocates comes
 * from options->allocator.
 */
#ifndef KF3DS_GLTF_H
#define KF3DS_GLTF_H

#include "kf3ds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Export flags (kf3ds_gltf_options.flags). */
#define KF3DS_GLTF_SEPARATE       0x001 /* a .gltf's JSON and the buffer for a .bin beside it
                                         * (else one .glb); needs bin_uri */
#define KF3DS_GLTF_NO_ANIMATION   0x002 /* the pose at the first frame, no animation */
#define KF3DS_GLTF_STATIC_FRAME   0x004 /* the pose at static_frame, no animation (takes
                                         * neither KF3DS_GLTF_FRAMES nor KF3DS_GLTF_CUBIC) */
#define KF3DS_GLTF_FRAMES         0x008 /* export first_frame..last_frame, not the file's segment */
#define KF3DS_GLTF_CUBIC          0x010 /* position and scale tracks without ease as CUBICSPLINE */
#define KF3DS_GLTF_VISIBILITY_EXT 0x020 /* hide nodes with KHR_node_visibility, not scale 0 */
#define KF3DS_GLTF_NO_EASE        0x040 /* ignore ease-to/ease-from (KF3DS_EVAL_NO_EASE) */
#define KF3DS_GLTF_EMBED_IMAGES   0x080 /* texture images inside the output, not by URI */
#define KF3DS_GLTF_EVERY_FRAME    0x100 /* a key at every sample (frame × rate), as before
                                         * resampling; else keys within `tolerance` */
#define KF3DS_GLTF_LINEAR         0x200 /* resampled with LINEAR (and STEP) keys only, for
                                         * readers that drop CUBICSPLINE tangents (Blender
                                         * 3.4's importer): within `tolerance` at every
                                         * instant, but not held to the per-frame export's
                                         * key total as the default is (docs/gltf.md rule
                                         * 36); takes no KF3DS_GLTF_CUBIC */

/* The limits of one export: exported frames × rate + 1 samples at most
 * (KF3DS_GLTF_LIMIT_FRAMES), samples of one animated property
 * (KF3DS_GLTF_LIMIT_PROPERTY); public so that callers can word the failure.
 * The largest fps and rate an option may give. */
#define KF3DS_GLTF_MAX_SAMPLES          1000000.0
#define KF3DS_GLTF_MAX_PROPERTY_SAMPLES 20000000u
#define KF3DS_GLTF_MAX_FPS              100000.0
#define KF3DS_GLTF_MAX_RATE             1000
#define KF3DS_GLTF_DEFAULT_TOLERANCE    1e-5
#define KF3DS_GLTF_MAX_TOLERANCE        0.1

/* What the image callback found for a map. */
typedef enum kf3ds_gltf_image_result {
    KF3DS_GLTF_IMAGE_FOUND = 0,   /* *image is filled in */
    KF3DS_GLTF_IMAGE_MISSING = 1, /* no such picture: the map is left out with a warning */
    KF3DS_GLTF_IMAGE_SKIP = 2     /* left out without a warning (the caller said why) */
} kf3ds_gltf_image_result;

/* A texture image the caller gives. The bytes stay the caller's; they must
 * stay valid until the callback is called again or kf3ds_gltf_write returns.
 * Only PNG and JPEG (told by their first bytes) go into glTF; any other is
 * left out with a warning, so a caller that can decode other formats hands
 * back PNG bytes instead (kf3ds export re-encodes BMP, TGA, CEL, ... so, and
 * names the copy it writes beside the output in `uri`). */
typedef struct kf3ds_gltf_image {
    const void *data;        /* the image file's bytes */
    size_t size;
    const char *uri;         /* without KF3DS_GLTF_EMBED_IMAGES: where the output refers to
                              * it, a path relative to the output (percent-encoded here);
                              * NULL: the image is left out */
} kf3ds_gltf_image;

/* Asked once per distinct map name (texture 1 of each material), with the
 * name as the material stores it (often a DOS file name): returns a
 * kf3ds_gltf_image_result, or a negative number to stop the export
 * (KF3DS_ERR_IO). */
typedef int (*kf3ds_gltf_image_fn)(void *user, const char *name, kf3ds_gltf_image *image);

/* Why a warning was given; the export goes on without that part. */
typedef enum kf3ds_gltf_warning_kind {
    KF3DS_GLTF_WARN_MAP_MISSING = 1, /* the callback did not find the map (or there is none) */
    KF3DS_GLTF_WARN_MAP_TYPE = 2     /* the map's bytes are neither PNG nor JPEG */
} kf3ds_gltf_warning_kind;

typedef struct kf3ds_gltf_warning {
    kf3ds_gltf_warning_kind kind;
    const char *map;         /* the map's name as stored */
    const char *message;     /* one English line, for callers that print it as it is */
} kf3ds_gltf_warning;

/* Called once per warning, while kf3ds_gltf_write runs; the strings are
 * valid during the call only. */
typedef void (*kf3ds_gltf_warning_fn)(void *user, const kf3ds_gltf_warning *warning);

/* Zero-initialise; every zero field means its default. */
typedef struct kf3ds_gltf_options {
    kf3ds_allocator allocator;  /* all memory, the output's bytes too (kf3ds_gltf_free gives
                                 * them back); both hooks NULL: the library's default
                                 * allocator (kf3ds_load_options') */
    unsigned flags;             /* KF3DS_GLTF_... */
    const char *bin_uri;        /* KF3DS_GLTF_SEPARATE: the .bin's name as the JSON refers to
                                 * it (percent-encoded here), e.g. "scene.bin" */
    const char *file_name;      /* the input's name, recorded in asset.extras.kf3ds.file and as
                                 * the scene's name; NULL: "" */
    double static_frame;        /* KF3DS_GLTF_STATIC_FRAME: any finite frame */
    int32_t first_frame, last_frame; /* KF3DS_GLTF_FRAMES: first <= last */
    double fps;                 /* frames per second of the glTF timeline; 0: 30 */
    int rate;                   /* samples per frame of the sampled channels; 0: 1 */
    kf3ds_gltf_image_fn image;  /* NULL: every map is missing */
    void *image_user;
    kf3ds_gltf_warning_fn warning; /* NULL: warnings are not reported */
    void *warning_user;
    double tolerance;           /* without KF3DS_GLTF_EVERY_FRAME: how far the played animation
                                 * may stray from kf3ds's, as a fraction of the scene's extent
                                 * (docs/gltf.md, "Resampling"); 0: 1e-5; at most 0.1 */
} kf3ds_gltf_options;

/* Which limit a KF3DS_ERR_LIMIT failure hit. */
typedef enum kf3ds_gltf_limit {
    KF3DS_GLTF_LIMIT_NONE = 0,
    KF3DS_GLTF_LIMIT_FRAMES,    /* frames × rate over KF3DS_GLTF_MAX_SAMPLES */
    KF3DS_GLTF_LIMIT_PROPERTY,  /* one property over KF3DS_GLTF_MAX_PROPERTY_SAMPLES */
    KF3DS_GLTF_LIMIT_GLB_SIZE   /* a .glb over 4 GiB (a .gltf has no such limit) */
} kf3ds_gltf_limit;

/* What was written, for a summary line. The frames are set as soon as they
 * are chosen, so also when KF3DS_GLTF_LIMIT_FRAMES fails the export. */
typedef struct kf3ds_gltf_summary {
    uint32_t num_nodes;         /* glTF nodes, the Z-up root included */
    uint32_t num_meshes;
    uint32_t num_channels;      /* animation channels */
    int animated;               /* an animation was written (frames first..last) */
    double first_frame, last_frame; /* the exported frames; not animated: both the pose's frame */
    double fps;                 /* the timeline's (the option or its default) */
    kf3ds_gltf_limit limit;     /* after KF3DS_ERR_LIMIT: which one */
} kf3ds_gltf_summary;

/* The bytes of one export. */
typedef struct kf3ds_gltf_output {
    void *bytes;                /* the .glb, or with KF3DS_GLTF_SEPARATE the .gltf's JSON */
    size_t size;
    void *bin;                  /* KF3DS_GLTF_SEPARATE: the .bin's bytes; NULL (size 0) when
                                 * the scene has no binary data (write no .bin then) */
    size_t bin_size;
    kf3ds_gltf_summary summary;
    kf3ds_allocator allocator_; /* private: where kf3ds_gltf_free gives the bytes back */
} kf3ds_gltf_output;

/* Exports the scene. Returns KF3DS_OK with *out filled in (free it with
 * kf3ds_gltf_free), or an error with *out empty (its summary as far as it
 * got) and *error saying what: KF3DS_ERR_ARGUMENT (NULL scene or out, a
 * value out of range: fps, rate, frames, unknown flags, hooks given in part,
 * SEPARATE without bin_uri), KF3DS_ERR_NOMEM, KF3DS_ERR_LIMIT (which one in
 * out->summary.limit), KF3DS_ERR_IO (the image callback stopped it).
 * `options` (defaults) and `error` may be NULL. The scene is not changed. */
KF3DS_API kf3ds_status kf3ds_gltf_write(const kf3ds_scene *scene,
                                        const kf3ds_gltf_options *options,
                                        kf3ds_gltf_output *out, kf3ds_diag *error);
/* Gives the output's bytes back and empties it; an empty one is fine. */
KF3DS_API void kf3ds_gltf_free(kf3ds_gltf_output *out);

#ifdef __cplusplus
}
#endif

#endif
