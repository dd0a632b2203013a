/* kf3ds export: the property values the animation samples, each evaluated
 * once (docs/gltf.md, "Resampling", and Limits). Rules 34-35 ask for the same
 * property at the same frame many times over: the quarter points of an
 * interval are the midpoints of its halves, the one-sided slopes of a
 * sample step onto its dense neighbours, and every round of the Hermite
 * samples takes every slope again. Evaluating a property is a pure function
 * of the frame (kf3ds_node_eval starts without search hints), so a value
 * kept from an earlier call is the value a new call would give, bit for
 * bit: the export's output does not change.
 *
 * The values are kept in one open-addressing table keyed by the frame's
 * bits, for the property asked last: a different property starts a new
 * generation, which empties the table without touching it. The table grows
 * (doubling, through the options' allocator) until it holds the largest
 * property's frames; no evaluation allocates after that. When memory runs
 * out the values are simply evaluated each time. */
#include "export_internal.h"
#include <string.h>

typedef struct memo_slot {
    uint64_t key;             /* the frame's bits */
    uint32_t gen;             /* the slot holds a value of generation `gen` */
    float v[4];
} memo_slot;

struct ex_memo {
    memo_slot *slots;
    uint32_t cap;             /* a power of two, 0 before the first value */
    uint32_t used;            /* slots of the current generation */
    uint32_t gen;
    const ex_prop *prop;      /* the property the current generation holds */
    int width;
};

/* First allocation and the fill that doubles it (at most half full, so a
 * probe ends soon). */
#define MEMO_FIRST 1024u
#define MEMO_LIMIT (1u << 30)

static uint64_t frame_bits(double frame)
{
    uint64_t b;
    memcpy(&b, &frame, sizeof b); /* -0 and +0 apart: a zero's sign may reach a value */
    return b;
}

static uint32_t slot_of(uint64_t key, uint32_t mask)
{
    /* mixed down from every bit: whole and dyadic frames differ only in
     * their high bits, which a plain multiply would leave out of the mask */
    key ^= key >> 33;
    key *= UINT64_C(0xFF51AFD7ED558CCD);
    key ^= key >> 33;
    key *= UINT64_C(0xC4CEB9FE1A85EC53);
    key ^= key >> 33;
    return (uint32_t)key & mask;
}

int kf3ds__export_samples_init(export_ctx *c)
{
    c->memo = EX_CALLOC(c, 1, sizeof *c->memo);
    if (!c->memo) {
        c->oom = 1;
        return -1;
    }
    return 0;
}

void kf3ds__export_samples_free(export_ctx *c)
{
    if (!c->memo)
        return;
    EX_FREE(c, c->memo->slots);
    EX_FREE(c, c->memo);
    c->memo = NULL;
}

/* Doubles the table, keeping the current generation's values. 0 when out of
 * memory (the table is then left as it was). */
static int grow(export_ctx *c, struct ex_memo *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : MEMO_FIRST, k;
    memo_slot *s;
    if (m->cap >= MEMO_LIMIT)
        return 0;
    s = EX_CALLOC(c, cap, sizeof *s);
    if (!s)
        return 0;
    for (k = 0; k < m->cap; k++) {
        const memo_slot *o = &m->slots[k];
        uint32_t j;
        if (o->gen != m->gen)
            continue;
        for (j = slot_of(o->key, cap - 1); s[j].gen; j = (j + 1) & (cap - 1))
            ;
        s[j] = *o;
        s[j].gen = 1;
    }
    EX_FREE(c, m->slots);
    m->slots = s;
    m->cap = cap;
    m->gen = 1; /* the new table's values are generation 1, its empty slots 0 */
    return 1;
}

int kf3ds__export_sample(export_ctx *c, const ex_prop *p, double frame, float out[4])
{
    struct ex_memo *m = c->memo;
    uint64_t key;
    uint32_t j;
    unsigned flags;
    int w;
    if (!m)
        return export_prop_value(c, p, frame, out);
    if (m->prop != p || !m->cap) {
        m->prop = p;
        m->used = 0;
        m->width = 0;
        if (++m->gen == 0) { /* wrapped: every slot must read as empty */
            if (m->slots)
                memset(m->slots, 0, (size_t)m->cap * sizeof *m->slots);
            m->gen = 1;
        }
    }
    key = frame_bits(frame);
    if (m->cap) {
        for (j = slot_of(key, m->cap - 1); m->slots[j].gen == m->gen; j = (j + 1) & (m->cap - 1))
            if (m->slots[j].key == key) {
                memcpy(out, m->slots[j].v, (size_t)m->width * sizeof *out);
                return m->width;
            }
    }
    /* kf3ds_node_eval multiplies each ancestor's matrix onto the node's
     * world (a 2,000-deep chain evaluates 1,000 nodes per call on average),
     * which only an aim rotation reads: the node's own values (its tracks,
     * its hiding, its morph mesh) are the same bits without */
    flags = c->flags;
    if (p->kind != EX_AIM)
        c->flags |= KF3DS_EVAL_LOCAL;
    w = export_prop_value(c, p, frame, out);
    c->flags = flags;
    m->width = w;
    if ((m->used + 1) * 2 > m->cap && !grow(c, m))
        return w; /* no room: this value is not kept */
    for (j = slot_of(key, m->cap - 1); m->slots[j].gen == m->gen; j = (j + 1) & (m->cap - 1))
        ;
    m->slots[j].key = key;
    m->slots[j].gen = m->gen;
    memcpy(m->slots[j].v, out, (size_t)w * sizeof *out);
    m->used++;
    return w;
}
