/* The keyframer tracks for `kf3ds dump` (cmd_dump.h): the track header and
 * every key; rotation keys also with their accumulated quaternion, taken from
 * the loaded scene when its track matches the file's. */
#include "cmd_dump.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct raw_key {
    int32_t frame;
    unsigned flags;
    float tcb[5];
    float value[4];
    const char *name;
    size_t name_len;
} raw_key;

/* Reads one key; 0 when the payload ends inside it. */
static int read_key(kf3ds_reader *r, kf3ds_track_kind kind, raw_key *k)
{
    int b;
    memset(k, 0, sizeof *k);
    if (kf3ds_reader_left(r) < 6)
        return 0;
    k->frame = kf3ds_read_i32(r);
    k->flags = kf3ds_read_u16(r);
    for (b = 0; b < 5; b++)
        if (k->flags & (1u << b))
            k->tcb[b] = kf3ds_read_f32(r);
    switch (kind) {
    case KF3DS_TRACK_POS:
    case KF3DS_TRACK_SCL:
    case KF3DS_TRACK_COL:
        dump_read_floats(r, k->value, 3);
        break;
    case KF3DS_TRACK_ROT:
        dump_read_floats(r, k->value, 4);
        break;
    case KF3DS_TRACK_FOV:
    case KF3DS_TRACK_ROLL:
    case KF3DS_TRACK_HOT:
    case KF3DS_TRACK_FALL:
        k->value[0] = kf3ds_read_f32(r);
        break;
    case KF3DS_TRACK_MORPH: {
        int term = 0;
        if (kf3ds_reader_left(r) == 0)
            return 0;
        k->name = kf3ds_read_cstr(r, &k->name_len, &term);
        if (!term)
            return 0;
        break;
    }
    default:
        break;
    }
    return !r->short_read;
}

/* q(axis, -angle) ⊗ prev, the accumulation rule of the keyframer. */
static void accumulate(const float value[4], double q[4])
{
    double ax = value[1], ay = value[2], az = value[3];
    double len = sqrt(ax * ax + ay * ay + az * az);
    double k[4], out[4];
    if (!(len > 0.0) || isinf(len) || isnan((double)value[0])) {
        return; /* zero (or unusable) axis: the identity, Q unchanged */
    }
    {
        double h = -(double)value[0] / 2.0, s = sin(h) / len;
        k[0] = ax * s;
        k[1] = ay * s;
        k[2] = az * s;
        k[3] = cos(h);
    }
    out[3] = k[3] * q[3] - k[0] * q[0] - k[1] * q[1] - k[2] * q[2];
    out[0] = k[3] * q[0] + k[0] * q[3] + k[1] * q[2] - k[2] * q[1];
    out[1] = k[3] * q[1] - k[0] * q[2] + k[1] * q[3] + k[2] * q[0];
    out[2] = k[3] * q[2] + k[0] * q[1] - k[1] * q[0] + k[2] * q[3];
    memcpy(q, out, sizeof out);
}

typedef struct frame_rank {
    int32_t frame;
    uint32_t index;
} frame_rank;

static int cmp_frame_rank(const void *a, const void *b)
{
    const frame_rank *x = a, *y = b;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* For each raw key (file order) its index among the scene's sorted keys:
 * the library sorts stably, so it is the key's rank by (frame, file order).
 * NULL when the scene's track cannot be matched (then the quaternions are
 * accumulated here from the raw keys). */
static uint32_t *scene_key_ranks(const kf3ds_track *t, kf3ds_reader r, uint32_t declared)
{
    frame_rank *fr;
    uint32_t *rank, n = 0, i;
    int sorted = 1;
    if (!t || !t->keys || t->num_keys != declared || declared == 0)
        return NULL;
    fr = malloc(sizeof *fr * declared);
    rank = malloc(sizeof *rank * declared);
    if (!fr || !rank) {
        free(fr);
        free(rank);
        return NULL;
    }
    for (n = 0; n < declared; n++) {
        raw_key k;
        if (!read_key(&r, KF3DS_TRACK_ROT, &k))
            break;
        fr[n].frame = k.frame;
        fr[n].index = n;
        if (n && k.frame < fr[n - 1].frame)
            sorted = 0;
    }
    if (n != declared) {
        free(fr);
        free(rank);
        return NULL;
    }
    if (!sorted)
        qsort(fr, n, sizeof *fr, cmp_frame_rank);
    for (i = 0; i < n; i++) {
        rank[fr[i].index] = i;
        if (t->keys[i].frame != fr[i].frame) { /* not the track the scene holds */
            free(fr);
            free(rank);
            return NULL;
        }
    }
    free(fr);
    return rank;
}

int dump_dec_track(dumper *d, const kf3ds_chunk *c, kf3ds_reader *r, dump_ctx *ctx)
{
    static const char *const tcb_names[5] = { "tension", "continuity", "bias", "ease_to",
                                              "ease_from" };
    kf3ds_track_kind kind = (kf3ds_track_kind)(c->id - KF3DS_CHUNK_POS_TRACK_TAG);
    const kf3ds_track *scene_track = NULL;
    uint32_t declared, i, *ranks = NULL;
    unsigned long shown_keys = 0;
    double q[4] = { 0, 0, 0, 1 };
    int ok = 1;

    if (!dump_require_bytes(d, c, r, 14, "14-byte track header"))
        return 0;
    dump_fld_hex(d, "flags", kf3ds_read_u16(r), 4);
    {
        unsigned long u[2];
        u[0] = kf3ds_read_u32(r);
        u[1] = kf3ds_read_u32(r);
        dump_fld_ints(d, "unknown", u, 2);
    }
    declared = kf3ds_read_u32(r);
    dump_fld_uint(d, "count", declared);
    if (kind == KF3DS_TRACK_ROT && d->scene && ctx->node >= 0 &&
        (uint32_t)ctx->node < d->scene->num_nodes) {
        scene_track = &d->scene->nodes[ctx->node].tracks[KF3DS_TRACK_ROT];
        ranks = scene_key_ranks(scene_track, *r, declared);
    }
    dump_list_begin(d, "keys");
    for (i = 0; i < declared; i++) {
        raw_key k;
        int b;
        if (kf3ds_reader_left(r) == 0) {
            dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c,
                            "track declares %lu %s, the payload ends after %lu",
                            (unsigned long)declared, cli_plural(declared, "key", "keys"),
                            (unsigned long)i);
            ok = 0;
            break;
        }
        if (!read_key(r, kind, &k)) {
            dump_chunk_diag(d, KF3DS_ERR_TRUNCATED, c, "key %lu of %lu is cut short",
                            (unsigned long)i, (unsigned long)declared);
            ok = 0;
            break;
        }
        dump_item_begin(d, "key", i);
        dump_fld_int(d, "frame", (long)k.frame);
        dump_fld_hex(d, "spline_flags", k.flags, 4);
        for (b = 0; b < 5; b++)
            if (k.flags & (1u << b))
                dump_fld_float(d, tcb_names[b], k.tcb[b]);
        switch (kind) {
        case KF3DS_TRACK_POS:
        case KF3DS_TRACK_SCL:
        case KF3DS_TRACK_COL:
            dump_fld_vec(d, "value", k.value, 3);
            break;
        case KF3DS_TRACK_FOV:
        case KF3DS_TRACK_ROLL:
        case KF3DS_TRACK_HOT:
        case KF3DS_TRACK_FALL:
            dump_fld_float(d, "value", k.value[0]);
            break;
        case KF3DS_TRACK_MORPH:
            dump_fld_str(d, "name", k.name, k.name_len);
            break;
        case KF3DS_TRACK_ROT: {
            float qf[4];
            accumulate(k.value, q);
            if (ranks) {
                memcpy(qf, scene_track->keys[ranks[i]].quat, sizeof qf);
            } else {
                qf[0] = (float)q[0];
                qf[1] = (float)q[1];
                qf[2] = (float)q[2];
                qf[3] = (float)q[3];
            }
            dump_fld_float(d, "angle", k.value[0]);
            dump_fld_vec(d, "axis", k.value + 1, 3);
            dump_fld_vec(d, "quat", qf, 4);
            break;
        }
        default:
            break;
        }
        dump_item_end(d);
        shown_keys++;
    }
    dump_list_end(d, shown_keys, shown_keys);
    free(ranks);
    return ok;
}
