/* kf3ds export: the file's key budget (docs/gltf.md, "Resampling", rule 36).
 * Every resampled channel has a LINEAR and a CUBICSPLINE form that keep its
 * bound; the export as a whole may have no more keys than the per-frame
 * export (`--every-frame`) has. Channels that need more keys than their
 * samples borrow from the many that need fewer, so the choice is made over
 * the file:
 *   1. each channel takes the form with fewer floats (a CUBICSPLINE key holds
 *      three values per component, a LINEAR key one);
 *   2. while the file's keys exceed the per-frame total, channels switch from
 *      LINEAR to CUBICSPLINE where that saves keys, the largest saving first;
 *   3. while they still exceed it, channels fall back to their samples
 *      (EX_FORM_SAMPLES, at most as many keys as samples), the largest
 *      excess over their samples first.
 * Ties go to the earlier channel, so the choice is deterministic. */
#include "export_internal.h"
#include <stdlib.h>

typedef struct ranked {
    uint64_t gain;
    uint32_t index;
} ranked;

static int by_gain(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->gain != y->gain)
        return x->gain > y->gain ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static uint32_t keys_of(const ex_budget_item *it)
{
    switch (it->form) {
    case EX_FORM_STEP:
    case EX_FORM_LINEAR: return it->lin_keys;
    case EX_FORM_CUBIC: return it->cub_keys;
    case EX_FORM_SAMPLES: return it->samples;
    default: return 0;
    }
}

int kf3ds__export_budget(export_ctx *c, ex_budget_item *items, uint32_t n)
{
    uint64_t total = 0, budget = 0;
    ranked *r;
    uint32_t i, m;
    for (i = 0; i < n; i++) {
        ex_budget_item *it = &items[i];
        if (it->form == EX_FORM_LINEAR && 3 * (uint64_t)it->cub_keys < it->lin_keys)
            it->form = EX_FORM_CUBIC;
        total += keys_of(it);
        budget += it->form != EX_FORM_NONE ? it->samples : 0;
    }
    if (total <= budget)
        return 0;
    r = EX_CALLOC(c, n + 1, sizeof *r);
    if (!r) {
        c->oom = 1;
        return -1;
    }
    /* 2: LINEAR to CUBICSPLINE, the most keys saved first */
    for (i = m = 0; i < n; i++)
        if (items[i].form == EX_FORM_LINEAR && items[i].cub_keys < items[i].lin_keys) {
            r[m].gain = items[i].lin_keys - items[i].cub_keys;
            r[m++].index = i;
        }
    qsort(r, m, sizeof *r, by_gain);
    for (i = 0; i < m && total > budget; i++) {
        items[r[i].index].form = EX_FORM_CUBIC;
        total -= r[i].gain;
    }
    /* 3: the samples instead, the largest excess first */
    for (i = m = 0; total > budget && i < n; i++)
        if ((items[i].form == EX_FORM_LINEAR || items[i].form == EX_FORM_CUBIC) &&
            keys_of(&items[i]) > items[i].samples) {
            r[m].gain = keys_of(&items[i]) - items[i].samples;
            r[m++].index = i;
        }
    qsort(r, m, sizeof *r, by_gain);
    for (i = 0; i < m && total > budget; i++) {
        items[r[i].index].form = EX_FORM_SAMPLES;
        total -= r[i].gain;
    }
    EX_FREE(c, r);
    return 0;
}
