/* carcsim C core: tile sets (each tile type in its 4 rotations). */
#include "internal.h"

/* ---------------------------------------------------------------- tile sets */

cc_tileset *cc_tileset_new(int capacity) {
    if (capacity <= 0 || capacity > 4096) return NULL;
    cc_tileset *ts = calloc(1, sizeof *ts);
    if (!ts) return NULL;
    ts->v = calloc((size_t)capacity * 4, sizeof *ts->v);
    if (!ts->v) { free(ts); return NULL; }
    ts->cap = capacity;
    return ts;
}

void cc_tileset_free(cc_tileset *ts) {
    if (!ts) return;
    free(ts->v);
    free(ts);
}

int cc_tileset_add(cc_tileset *ts, const cc_tiledef *rot) {
    if (!ts || !rot) return CC_ERR_ARG;
    if (ts->n >= ts->cap) return CC_ERR_FULL;
    for (int r = 0; r < 4; r++) {
        const cc_tiledef *d = &rot[r];
        if (d->nseg < 0 || d->nseg > CC_MAX_SEGS) return CC_ERR_ARG;
        for (int e = 0; e < 4; e++)
            if (d->edges[e] < CC_EDGE_FIELD || d->edges[e] > CC_EDGE_ANY) return CC_ERR_ARG;
        for (int s = 0; s < d->nseg; s++) {
            if (d->seg_kind[s] < CC_CITY || d->seg_kind[s] > CC_MONASTERY) return CC_ERR_ARG;
            if (d->seg_kind[s] != CC_FIELD && d->seg_mask[s] > 15) return CC_ERR_ARG;
        }
    }
    variant_t *v = &ts->v[ts->n * 4];
    for (int r = 0; r < 4; r++) {
        variant_t *w = &v[r];
        w->def = rot[r];
        memset(w->edge_seg, -1, sizeof w->edge_seg);
        memset(w->half_seg, -1, sizeof w->half_seg);
        w->monastery = -1;
        for (int s = 0; s < rot[r].nseg; s++) {
            int k = rot[r].seg_kind[s];
            uint8_t m = rot[r].seg_mask[s];
            if (k == CC_MONASTERY) {
                w->monastery = (int8_t)s;
                continue;
            }
            for (int bit = 0; bit < (k == CC_FIELD ? 8 : 4); bit++) {
                if (!(m & (1u << bit))) continue;
                int8_t *slot = k == CC_FIELD ? &w->half_seg[bit] : &w->edge_seg[bit];
                if (*slot != -1) return CC_ERR_ARG; /* two segments claim one edge */
                *slot = (int8_t)s;
            }
        }
    }
    return ts->n++;
}
