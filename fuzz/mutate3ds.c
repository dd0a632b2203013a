/* A structure-aware libFuzzer mutator for .3ds files (LLVMFuzzerCustomMutator).
 *
 * Byte flips rarely reach the evaluator's corners: a flipped byte in a chunk
 * length hides everything after it, and a random float is almost never NaN.
 * This mutator parses the chunk tree (iteratively, at most MAX_CHUNKS chunks)
 * and changes it the way a broken exporter would:
 *  - floats anywhere in a payload: NaN, ±inf, ±FLT_MAX, 1e38, 1e18, denormals,
 *    ±0, tiny and huge values;
 *  - counts (POINT_ARRAY, FACE_ARRAY, TEX_VERTS, POINT_FLAG_ARRAY,
 *    MSH_MAT_GROUP, track key counts): 0, 1, 65535, 4 billion, ±1, ×2;
 *  - chunk lengths: below 6, ±1, beyond the parent, 4 GiB;
 *  - keys: duplicate and out-of-order frames, extreme frames, loop flags,
 *    zero rotation axes, huge angles, odd TCB/ease values;
 *  - parents: self-parents, cycles, unknown ids; duplicate and huge NODE_IDs;
 *  - MESH_MATRIX: zero, singular (repeated axis), nearly singular, mirrored,
 *    huge, NaN;
 *  - structure: duplicate a chunk (many node copies), delete, swap siblings,
 *    nest a chunk in itself, change a node tag or track kind; the ancestors'
 *    lengths are fixed so that the file stays walkable.
 * Half of the mutations are libFuzzer's own byte-level ones. Deterministic
 * for a given seed. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../tests/support_chunks.h" /* which chunks hold sub-chunks */

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define MAX_CHUNKS 1024
#define MAX_DEPTH 32

typedef struct rec {
    uint32_t off, end, payload; /* header start, clamped end, first byte after any prefix */
    uint16_t id;
    int parent;                 /* index in the list or -1 */
    uint32_t node_index;        /* for node tags: their index among KFDATA's nodes */
} rec;

typedef struct tree {
    rec r[MAX_CHUNKS];
    int n;
} tree;

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(p, u);
}

/* The node tags and the track tags each run without a gap. */
static int is_track(uint16_t id)
{
    return id >= KF3DS_CHUNK_POS_TRACK_TAG && id <= KF3DS_CHUNK_HIDE_TRACK_TAG;
}
static int is_node(uint16_t id)
{
    return id >= KF3DS_CHUNK_AMBIENT_NODE_TAG && id <= KF3DS_CHUNK_SPOTLIGHT_NODE_TAG;
}

static void parse(const uint8_t *d, size_t size, tree *t)
{
    uint32_t stack_end[MAX_DEPTH], pos[MAX_DEPTH];
    int parent[MAX_DEPTH], top = 0;
    uint32_t nodes = 0;
    t->n = 0;
    pos[0] = 0;
    stack_end[0] = (uint32_t)size;
    parent[0] = -1;
    while (top >= 0 && t->n < MAX_CHUNKS) {
        uint32_t p = pos[top], end = stack_end[top], len, cend;
        rec *r;
        long pre;
        if (end - p < 6 || p >= end) {
            top--;
            continue;
        }
        len = get32(d + p + 2);
        if (len < 6) {
            top--;
            continue;
        }
        cend = len > end - p ? end : p + len;
        pos[top] = cend;
        r = &t->r[t->n];
        r->off = p;
        r->end = cend;
        r->id = get16(d + p);
        r->parent = parent[top];
        r->payload = p + 6;
        r->node_index = 0;
        if (is_node(r->id))
            r->node_index = nodes++;
        pre = support_chunk_children_at(r->id, d + p + 6, cend - p - 6);
        t->n++;
        if (pre >= 0 && (uint32_t)pre <= cend - p - 6 && top + 1 < MAX_DEPTH) {
            r->payload = p + 6 + (uint32_t)pre;
            top++;
            pos[top] = r->payload;
            stack_end[top] = cend;
            parent[top] = t->n - 1;
        }
    }
}

static int pick(const tree *t, int (*want)(uint16_t))
{
    int idx[MAX_CHUNKS], n = 0, i;
    for (i = 0; i < t->n; i++)
        if (!want || want(t->r[i].id))
            idx[n++] = i;
    return n ? idx[rnd((uint32_t)n)] : -1;
}

static int is_hdr(uint16_t id) { return id == KF3DS_CHUNK_NODE_HDR || id == KF3DS_CHUNK_NODE_ID; }
static int is_matrix(uint16_t id) { return id == KF3DS_CHUNK_MESH_MATRIX; }
static int is_counted(uint16_t id)
{
    return id == KF3DS_CHUNK_POINT_ARRAY || id == KF3DS_CHUNK_POINT_FLAG_ARRAY ||
           id == KF3DS_CHUNK_FACE_ARRAY || id == KF3DS_CHUNK_TEX_VERTS ||
           id == KF3DS_CHUNK_MSH_MAT_GROUP ||
           is_track(id);
}

static float special_float(void)
{
    static const float v[] = { NAN, INFINITY, -INFINITY, 3.4028235e38f, -3.4028235e38f, 1e38f,
                               -1e38f, 1e30f, 1e18f, -1e18f, 1e-40f, -1e-45f, 1.1754944e-38f,
                               0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.14159265f, 1e-30f, 1e9f,
                               -7.0f, 65535.0f, 2.0f };
    return v[rnd(sizeof v / sizeof v[0])];
}

/* Adds delta to the length of chunk i's ancestors (and of i when self). */
static void fix_lengths(uint8_t *d, const tree *t, int i, long delta)
{
    for (; i >= 0; i = t->r[i].parent)
        put32(d + t->r[i].off + 2, (uint32_t)((long)get32(d + t->r[i].off + 2) + delta));
}

static int mut_float(uint8_t *d, const tree *t)
{
    int i = pick(t, NULL);
    uint32_t span, at;
    if (i < 0 || t->r[i].end - t->r[i].off < 10)
        return 0;
    span = t->r[i].end - t->r[i].off - 6 - 4 + 1;
    at = t->r[i].off + 6 + rnd(span);
    if (rnd(2)) /* often aligned as the payload's floats are */
        at -= (at - t->r[i].off - 6) % 4;
    putf(d + at, special_float());
    if (rnd(3) == 0 && at + 8 <= t->r[i].end)
        putf(d + at + 4, special_float());
    return 1;
}

static int mut_count(uint8_t *d, const tree *t)
{
    static const uint32_t c32[] = { 0, 1, 2, 3, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000u,
                                    0xFFFFFFFFu, 1000000, 4000000000u };
    int i = pick(t, is_counted);
    uint32_t at;
    const rec *r;
    if (i < 0)
        return 0;
    r = &t->r[i];
    if (is_track(r->id)) {
        at = r->off + 6 + 10;
        if (at + 4 > r->end)
            return 0;
        switch (rnd(4)) {
        case 0: put32(d + at, c32[rnd(sizeof c32 / sizeof c32[0])]); break;
        case 1: put32(d + at, get32(d + at) + 1); break;
        case 2: put32(d + at, get32(d + at) - 1); break;
        default: put32(d + at, get32(d + at) * 2 + 1); break;
        }
        return 1;
    }
    at = r->off + 6;
    if (r->id == KF3DS_CHUNK_MSH_MAT_GROUP) {
        const uint8_t *z = memchr(d + at, 0, r->end - at);
        if (!z)
            return 0;
        at = (uint32_t)(z - d) + 1;
    }
    if (at + 2 > r->end)
        return 0;
    switch (rnd(4)) {
    case 0: put16(d + at, (uint16_t)c32[rnd(5)]); break;
    case 1: put16(d + at, (uint16_t)(get16(d + at) + 1)); break;
    case 2: put16(d + at, (uint16_t)(get16(d + at) - 1)); break;
    default: put16(d + at, 0xFFFF); break;
    }
    return 1;
}

static int mut_length(uint8_t *d, const tree *t)
{
    int i = pick(t, NULL);
    uint32_t len, v;
    if (i < 0)
        return 0;
    len = get32(d + t->r[i].off + 2);
    switch (rnd(8)) {
    case 0: v = rnd(6); break;
    case 1: v = 6; break;
    case 2: v = len - 1; break;
    case 3: v = len + 1; break;
    case 4: v = 0xFFFFFFFFu; break;
    case 5: v = 0x80000000u; break;
    case 6: v = len + rnd(64); break;
    default: v = len - rnd(len); break;
    }
    put32(d + t->r[i].off + 2, v);
    return 1;
}

/* The keys of a track chunk: their offsets (at most 64). */
static int track_keys(const uint8_t *d, const rec *r, uint32_t *keys, int cap)
{
    uint16_t kind = (uint16_t)(r->id - KF3DS_CHUNK_POS_TRACK_TAG); /* kinds in id order */
    uint32_t p = r->off + 6 + 14, n = 0;
    uint32_t count;
    if (r->off + 6 + 14 > r->end)
        return 0;
    count = get32(d + r->off + 16);
    while (n < count && (int)n < cap && p + 6 <= r->end) {
        uint16_t fl = get16(d + p + 4);
        uint32_t q = p + 6, b;
        for (b = 0; b < 5; b++)
            if (fl & (1u << b))
                q += 4;
        switch (kind) {
        case 0: case 2: case 5: q += 12; break;
        case 1: q += 16; break;
        case 6: {
            const uint8_t *z = q < r->end ? memchr(d + q, 0, r->end - q) : NULL;
            q = z ? (uint32_t)(z - d) + 1 : r->end + 1;
            break;
        }
        case 9: break;
        default: q += 4; break;
        }
        if (q > r->end)
            break;
        keys[n++] = p;
        p = q;
    }
    return (int)n;
}

static int mut_keys(uint8_t *d, const tree *t)
{
    static const int32_t frames[] = { INT32_MIN, INT32_MAX, -1, 0, 1, 100, -100000, 65535 };
    uint32_t keys[64];
    int i = pick(t, is_track), n, a, b;
    const rec *r;
    if (i < 0)
        return 0;
    r = &t->r[i];
    n = track_keys(d, r, keys, 64);
    if (r->off + 8 <= r->end && rnd(5) == 0) { /* loop bits */
        put16(d + r->off + 6, (uint16_t)((get16(d + r->off + 6) & ~3u) | rnd(4)));
        return 1;
    }
    if (!n)
        return 0;
    a = (int)rnd((uint32_t)n);
    b = (int)rnd((uint32_t)n);
    switch (rnd(7)) {
    case 0: /* duplicate frame */
        put32(d + keys[a], get32(d + keys[b]));
        break;
    case 1: { /* swap frames: out of order */
        uint32_t fa = get32(d + keys[a]);
        put32(d + keys[a], get32(d + keys[b]));
        put32(d + keys[b], fa);
        break;
    }
    case 2:
        put32(d + keys[a], (uint32_t)frames[rnd(sizeof frames / sizeof frames[0])]);
        break;
    case 3: { /* a zero axis or a huge angle in a rotation key */
        uint16_t fl = get16(d + keys[a] + 4);
        uint32_t q = keys[a] + 6, bit;
        for (bit = 0; bit < 5; bit++)
            if (fl & (1u << bit))
                q += 4;
        if (r->id == KF3DS_CHUNK_ROT_TRACK_TAG && q + 16 <= r->end) {
            if (rnd(2)) {
                putf(d + q + 4, 0.0f);
                putf(d + q + 8, 0.0f);
                putf(d + q + 12, 0.0f);
            } else {
                putf(d + q, rnd(2) ? 1e30f : 100.0f * 3.14159265f);
            }
        } else if (q + 4 <= r->end) {
            putf(d + q, special_float());
        }
        break;
    }
    case 4: { /* an odd TCB/ease value (only those stored) */
        uint16_t fl = get16(d + keys[a] + 4);
        if (fl & 0x1F) {
            uint32_t q = keys[a] + 6, bit, k = rnd(5), slot = 0;
            for (bit = 0; bit < 5; bit++)
                if (fl & (1u << bit)) {
                    if (bit == k || slot == 0)
                        q = keys[a] + 6 + 4 * slot;
                    slot++;
                }
            putf(d + q, special_float());
        } else {
            put32(d + keys[a], get32(d + keys[a]) + 1);
        }
        break;
    }
    case 5: /* all keys on one frame */
        for (b = 0; b < n; b++)
            put32(d + keys[b], get32(d + keys[a]));
        break;
    default: /* reversed order */
        for (b = 0; b < n; b++)
            put32(d + keys[b], (uint32_t)(n - b) * 5u);
        break;
    }
    return 1;
}

static int mut_parent(uint8_t *d, const tree *t)
{
    int i = pick(t, is_hdr), node;
    const rec *r;
    uint32_t at, self;
    uint16_t v;
    if (i < 0)
        return 0;
    r = &t->r[i];
    node = r->parent;
    self = node >= 0 ? t->r[node].node_index : 0;
    switch (rnd(6)) {
    case 0: v = (uint16_t)self; break;                 /* self-parent */
    case 1: v = (uint16_t)(self + 1); break;           /* likely a cycle with the next */
    case 2: v = (uint16_t)(self ? self - 1 : 0); break;
    case 3: v = 0xFFFF; break;
    case 4: v = 0xFFFE; break;
    default: v = (uint16_t)rnd(8); break;
    }
    if (r->id == KF3DS_CHUNK_NODE_ID) {
        at = r->off + 6;
    } else {
        const uint8_t *z = memchr(d + r->off + 6, 0, r->end - r->off - 6);
        if (!z)
            return 0;
        at = (uint32_t)(z - d) + 1 + 4;
    }
    if (at + 2 > r->end)
        return 0;
    put16(d + at, v);
    return 1;
}

static int mut_matrix(uint8_t *d, const tree *t)
{
    int i = pick(t, is_matrix), k;
    float m[12];
    uint32_t at;
    if (i < 0)
        return 0;
    at = t->r[i].off + 6;
    if (at + 48 > t->r[i].end)
        return 0;
    for (k = 0; k < 12; k++) {
        uint32_t u = get32(d + at + 4 * k);
        memcpy(&m[k], &u, 4);
    }
    switch (rnd(8)) {
    case 0: memset(m, 0, sizeof m); break;
    case 1: memcpy(m + 3, m, 3 * sizeof(float)); break;           /* Y = X: singular */
    case 2: m[0] = m[1] = m[2] = 0.0f; break;                     /* zero X axis */
    case 3: for (k = 0; k < 9; k++) m[k] *= 1e-12f; break;        /* nearly singular */
    case 4: for (k = 0; k < 3; k++) m[k] = -m[k]; break;          /* mirrored */
    case 5: for (k = 0; k < 12; k++) m[k] *= 1e30f; break;        /* huge */
    case 6: m[rnd(12)] = special_float(); break;
    default: m[0] = 1.0f; m[4] = 1.0f + 1e-7f; m[1] = m[3] = 1.0f; break; /* det ~ 1e-7 */
    }
    for (k = 0; k < 12; k++)
        putf(d + at + 4 * k, m[k]);
    return 1;
}

/* Inserts `n` bytes from `src` at `at` (memmove-safe when src is inside d). */
static size_t insert(uint8_t *d, size_t size, size_t max_size, uint32_t at, const uint8_t *src,
                     size_t n, uint8_t *scratch)
{
    if (size + n > max_size)
        return 0;
    memcpy(scratch, src, n);
    memmove(d + at + n, d + at, size - at);
    memcpy(d + at, scratch, n);
    return size + n;
}

static uint8_t scratch_buf[1 << 20];

static size_t mut_structure(uint8_t *d, size_t size, size_t max_size, const tree *t)
{
    int i = rnd(3) ? pick(t, NULL) : pick(t, is_node);
    const rec *r;
    uint32_t len;
    if (i < 0)
        return 0;
    r = &t->r[i];
    len = r->end - r->off;
    switch (rnd(6)) {
    case 0: { /* duplicate, several times for nodes */
        uint32_t copies = is_node(r->id) ? 1 + rnd(rnd(2) ? 4 : 2000) : 1, k;
        size_t ns = size;
        if (len > sizeof scratch_buf)
            return 0;
        for (k = 0; k < copies; k++) {
            size_t s2 = insert(d, ns, max_size, r->end, d + r->off, len, scratch_buf);
            if (!s2)
                break;
            ns = s2;
            fix_lengths(d, t, r->parent, (long)len);
        }
        if (len != get32(d + r->off + 2)) /* a clamped chunk: keep the copies walkable */
            put32(d + r->off + 2, len);
        return ns != size ? ns : 0;
    }
    case 1: /* delete */
        memmove(d + r->off, d + r->end, size - r->end);
        fix_lengths(d, t, r->parent, -(long)len);
        return size - len;
    case 2: { /* nest inside a copy of its own header */
        uint8_t hdr[6];
        size_t ns;
        memcpy(hdr, d + r->off, 6);
        put32(hdr + 2, len + 6);
        ns = insert(d, size, max_size, r->off, hdr, 6, scratch_buf);
        if (!ns)
            return 0;
        fix_lengths(d, t, r->parent, 6);
        return ns;
    }
    case 3: { /* swap with the next sibling */
        int j;
        for (j = i + 1; j < t->n && t->r[j].parent != r->parent; j++)
            ;
        if (j >= t->n || t->r[j].off != r->end || t->r[j].end - r->off > sizeof scratch_buf)
            return 0;
        memcpy(scratch_buf, d + r->off, len);
        memmove(d + r->off, d + r->end, t->r[j].end - r->end);
        memcpy(d + r->off + (t->r[j].end - r->end), scratch_buf, len);
        return size;
    }
    case 4: /* another node tag or track kind */
        if (is_node(r->id))
            put16(d + r->off, (uint16_t)(KF3DS_CHUNK_AMBIENT_NODE_TAG + rnd(7)));
        else if (is_track(r->id))
            put16(d + r->off, (uint16_t)(KF3DS_CHUNK_POS_TRACK_TAG + rnd(10)));
        else
            put16(d + r->off, (uint16_t)(r->id ^ (1u << rnd(16))));
        return size;
    default: { /* truncate the file inside this chunk */
        size_t cut = r->off + 6 + rnd(len - 5);
        return cut < size ? cut : 0;
    }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    static tree t;
    size_t out = 0;
    int tries;
    rng = ((uint64_t)seed << 32) ^ 0x9E3779B97F4A7C15u ^ size;
    if (!rng)
        rng = 1;
    if (size < 6 || rnd(2) == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    parse(data, size, &t);
    if (t.n == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    for (tries = 0; tries < 4 && !out; tries++) {
        switch (rnd(8)) {
        case 0: case 1: out = mut_float(data, &t) ? size : 0; break;
        case 2: out = mut_count(data, &t) ? size : 0; break;
        case 3: out = mut_length(data, &t) ? size : 0; break;
        case 4: out = mut_keys(data, &t) ? size : 0; break;
        case 5: out = mut_parent(data, &t) ? size : 0; break;
        case 6: out = mut_matrix(data, &t) ? size : 0; break;
        default: out = mut_structure(data, size, max_size, &t); break;
        }
    }
    return out ? out : LLVMFuzzerMutate(data, size, max_size);
}
