/* carcsim C core: tile sets (each tile type in its 4 rotations). */
#include "internal.h"

/* ---------------------------------------------------------------- tile sets */

cc_tileset *cc_tileset_new(int capacity) {
    if (capacity <= 0 || capacity > 4096) return NULL;
    cc_tileset *ts = calloc(1, sizeof *ts);
    if (!ts) return NULL;
    ts->v = calloc((size_t)capacity * 4, sizeof *ts->v);
    ts->fit = malloc((size_t)capacity * NEED_CODES);
    if (!ts->v || !ts->fit) { cc_tileset_free(ts); return NULL; }
    ts->cap = capacity;
    return ts;
}

void cc_tileset_free(cc_tileset *ts) {
    if (!ts) return;
    free(ts->v);
    free(ts->fit);
    free(ts);
}

/* What a segment of kind k needs its edge to show (city, road), -1 for no edge. */
static int edge_kind(int k) {
    return k == CC_CITY ? CC_EDGE_CITY : k == CC_ROAD ? CC_EDGE_ROAD : -1;
}

/* Checks one rotation and works out its edge, half-edge and centre lookups.
 * Everything is checked before the tile set changes (cc_tileset_add is all or nothing). */
static int build_variant(const cc_tiledef *d, const cc_tiledef *first, variant_t *w) {
    if (d->nseg < 0 || d->nseg > CC_MAX_SEGS || (d->distinct != 0 && d->distinct != 1)
        || (d->no_value != 0 && d->no_value != 1))
        return CC_ERR_ARG;
    for (int e = 0; e < 4; e++)
        if (d->edges[e] < CC_EDGE_FIELD || d->edges[e] > CC_EDGE_ANY) return CC_ERR_ARG;
    w->def = *d;
    memset(w->edge_seg, -1, sizeof w->edge_seg);
    memset(w->half_seg, -1, sizeof w->half_seg);
    w->centre = -1;
    memset(w->nedges, 0, sizeof w->nedges);
    memset(w->road_end, 0, sizeof w->road_end);  /* cc_tileset_set_road_ends fills them */
    memset(w->of_kind, 0, sizeof w->of_kind);
    for (int s = 0; s < d->nseg; s++) {
        int k = d->seg_kind[s];
        uint8_t m = d->seg_mask[s];
        if (k < CC_CITY || k > CC_GARDEN) return CC_ERR_ARG;
        w->of_kind[k] = (uint16_t)(w->of_kind[k] | 1u << s);
        /* a segment is the same segment in every rotation */
        if (first && (first->nseg != d->nseg || first->seg_kind[s] != k)) return CC_ERR_ARG;
        if (d->seg_coats[s] < 0 || d->seg_coats[s] > 9 || (k != CC_CITY && d->seg_coats[s]))
            return CC_ERR_ARG;  /* coats of arms only on cities */
        if (k != CC_FIELD && d->seg_cities[s]) return CC_ERR_ARG;
        for (int c = 0; c < 16; c++)  /* a field borders cities of this tile only */
            if ((d->seg_cities[s] >> c & 1) && (c >= d->nseg || d->seg_kind[c] != CC_CITY))
                return CC_ERR_ARG;
        if (is_centre(k)) {
            if (m || w->centre >= 0) return CC_ERR_ARG;  /* one centre feature, on no edge */
            w->centre = (int8_t)s;
            continue;
        }
        if (k != CC_FIELD && m > 15) return CC_ERR_ARG;
        if (k != CC_FIELD) w->nedges[s] = (int8_t)__builtin_popcount(m);
        for (int bit = 0; bit < (k == CC_FIELD ? 8 : 4); bit++) {
            if (!(m & (1u << bit))) continue;
            /* a city or road segment on an edge showing the same; a field beside a
             * field, road or river edge, never on a city edge or a town hall's */
            int shown = d->edges[k == CC_FIELD ? bit / 2 : bit];
            if (k == CC_FIELD ? shown == CC_EDGE_CITY || shown == CC_EDGE_ANY : shown != edge_kind(k))
                return CC_ERR_ARG;
            int8_t *slot = k == CC_FIELD ? &w->half_seg[bit] : &w->edge_seg[bit];
            if (*slot != -1) return CC_ERR_ARG; /* two segments claim one edge */
            *slot = (int8_t)s;
        }
    }
    for (int e = 0; e < 4; e++)  /* a city or road edge belongs to a segment */
        if ((d->edges[e] == CC_EDGE_CITY || d->edges[e] == CC_EDGE_ROAD) && w->edge_seg[e] < 0)
            return CC_ERR_ARG;
    return 0;
}

int cc_tileset_add(cc_tileset *ts, const cc_tiledef *rot) {
    if (!ts || !rot) return CC_ERR_ARG;
    if (ts->n >= ts->cap) return CC_ERR_FULL;
    variant_t v[4];
    for (int r = 0; r < 4; r++) {
        int rc = build_variant(&rot[r], r ? &rot[0] : NULL, &v[r]);
        if (rc < 0) return rc;
    }
    memcpy(&ts->v[ts->n * 4], v, sizeof v);
    /* which rotations fit each need, so a legal-placement scan is one lookup a cell */
    uint8_t *fit = &ts->fit[(size_t)ts->n * NEED_CODES];
    for (int code = 0; code < NEED_CODES; code++) {
        fit[code] = 0;
        for (int r = 0; r < 4; r++) {
            int ok = v[r].def.distinct;
            for (int e = 0; e < 4 && ok; e++) {
                int want = code / NEED_PLACE[e] % 6;
                ok = want == 0 || edge_matches(v[r].def.edges[e], want - 1);
            }
            fit[code] |= (uint8_t)(ok << r);
        }
    }
    return ts->n++;
}

int cc_tileset_set_road_ends(cc_tileset *ts, int type, const int8_t *ends, int n) {
    if (!ts || !ends || type < 0 || type >= ts->n || n < 0 || n > CC_MAX_SEGS) return CC_ERR_ARG;
    const variant_t *v = &ts->v[type * 4];
    if (n != v->def.nseg) return CC_ERR_ARG;
    for (int s = 0; s < n; s++) {  /* checked first: all or nothing */
        int e = ends[s];
        if (e < CC_END_NONE || (e != CC_END_NONE && v->def.seg_kind[s] != CC_ROAD)) return CC_ERR_ARG;
        if (e >= CC_END_GATE && (e - CC_END_GATE >= n || v->def.seg_kind[e - CC_END_GATE] != CC_CITY))
            return CC_ERR_ARG;
    }
    for (int r = 0; r < 4; r++) memcpy(ts->v[type * 4 + r].road_end, ends, (size_t)n);
    return CC_OK;
}
