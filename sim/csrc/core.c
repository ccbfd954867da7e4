/* carcsim C core; the contract is in core.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

/* Neighbour offsets per edge N E S W (y grows to the north). */
static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {1, 0, -1, 0};
/* Half-edge h of a tile touches half-edge HALF_PARTNER[h] of the neighbour. */
static const int HALF_PARTNER[8] = {5, 4, 7, 6, 1, 0, 3, 2};

typedef struct {
    cc_tiledef def;
    int8_t edge_seg[4];  /* local city/road segment on each edge, -1 if none */
    int8_t half_seg[8];  /* local field segment on each half-edge, -1 if none */
    int8_t monastery;    /* local monastery segment, -1 if none */
} variant_t;

struct cc_tileset {
    int n, cap;
    variant_t *v;        /* n * 4 variants */
};

typedef struct {
    int32_t parent, next;  /* union-find parent; circular list of the feature's segments */
    int16_t tile;          /* placed tile index, -1 for an unused slot */
    int8_t kind, local;
    /* aggregates, valid at the root only */
    int16_t ntiles, open, coats, nsegs, nfig;
    uint8_t count[6], strength[6];
} seg_t;

typedef struct {
    int16_t type, rot, x, y;
} placed_t;

typedef struct {
    int8_t player, kind, strength, scores;
    int32_t seg;           /* -1: free slot */
} figure_t;

struct cc_board {
    const cc_tileset *ts;
    int max_tiles, ntiles, dim, origin, nfront;
    int16_t *grid;         /* dim*dim placed indices, -1 empty */
    int32_t *front_pos;    /* dim*dim index into front, -1 if not on the frontier */
    int32_t *front;        /* frontier cells (empty cells next to a tile) */
    placed_t *tiles;
    seg_t *segs;           /* max_tiles * CC_MAX_SEGS */
    figure_t figs[CC_MAX_FIGURES];
};

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

/* ---------------------------------------------------------------- boards */

static const variant_t *variant(const cc_board *b, int type, int rot) {
    return &b->ts->v[type * 4 + rot];
}

cc_board *cc_board_new(const cc_tileset *ts, int max_tiles) {
    if (!ts || max_tiles <= 0 || max_tiles > 4000) return NULL;
    cc_board *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->ts = ts;
    b->max_tiles = max_tiles;
    /* tiles are connected, so none lies further than max_tiles from the start;
     * one more ring keeps every frontier cell inside the grid */
    b->origin = max_tiles + 1;
    b->dim = 2 * max_tiles + 3;
    size_t cells = (size_t)b->dim * b->dim;
    b->grid = malloc(cells * sizeof *b->grid);
    b->front_pos = malloc(cells * sizeof *b->front_pos);
    b->front = malloc(cells * sizeof *b->front);
    b->tiles = calloc((size_t)max_tiles, sizeof *b->tiles);
    b->segs = calloc((size_t)max_tiles * CC_MAX_SEGS, sizeof *b->segs);
    if (!b->grid || !b->front_pos || !b->front || !b->tiles || !b->segs) {
        cc_board_free(b);
        return NULL;
    }
    memset(b->grid, -1, cells * sizeof *b->grid);
    memset(b->front_pos, -1, cells * sizeof *b->front_pos);
    for (int i = 0; i < CC_MAX_FIGURES; i++) b->figs[i].seg = -1;
    return b;
}

void cc_board_free(cc_board *b) {
    if (!b) return;
    free(b->grid);
    free(b->front_pos);
    free(b->front);
    free(b->tiles);
    free(b->segs);
    free(b);
}

cc_board *cc_board_clone(const cc_board *b) {
    if (!b) return NULL;
    cc_board *c = cc_board_new(b->ts, b->max_tiles);
    if (!c) return NULL;
    size_t cells = (size_t)b->dim * b->dim;
    memcpy(c->grid, b->grid, cells * sizeof *b->grid);
    memcpy(c->front_pos, b->front_pos, cells * sizeof *b->front_pos);
    memcpy(c->front, b->front, (size_t)b->nfront * sizeof *b->front);
    memcpy(c->tiles, b->tiles, (size_t)b->ntiles * sizeof *b->tiles);
    memcpy(c->segs, b->segs, (size_t)b->ntiles * CC_MAX_SEGS * sizeof *b->segs);
    memcpy(c->figs, b->figs, sizeof b->figs);
    c->ntiles = b->ntiles;
    c->nfront = b->nfront;
    return c;
}

int cc_board_ntiles(const cc_board *b) { return b ? b->ntiles : CC_ERR_ARG; }

/* Cell index of (x, y), or -1 outside the grid. */
static int cell(const cc_board *b, int x, int y) {
    int gx = x + b->origin, gy = y + b->origin;
    if (gx < 0 || gy < 0 || gx >= b->dim || gy >= b->dim) return -1;
    return gy * b->dim + gx;
}

static int seg_valid(const cc_board *b, int seg) {
    return seg >= 0 && seg < b->ntiles * CC_MAX_SEGS && b->segs[seg].tile >= 0;
}

static int find(cc_board *b, int s) {
    int r = s;
    while (b->segs[r].parent != r) r = b->segs[r].parent;
    while (b->segs[s].parent != r) { /* path compression */
        int nx = b->segs[s].parent;
        b->segs[s].parent = r;
        s = nx;
    }
    return r;
}

static int find_const(const cc_board *b, int s) {
    while (b->segs[s].parent != s) s = b->segs[s].parent;
    return s;
}

int cc_find(const cc_board *b, int seg) {
    if (!b || !seg_valid(b, seg)) return CC_ERR_ARG;
    return find_const(b, seg);
}

/* Number of distinct tiles the features ra and rb have in common (for R-BASE-6:
 * a tile counts once per feature). */
static int shared_tiles(cc_board *b, int ra, int rb) {
    int shared = 0, s = ra;
    do {
        const seg_t *sg = &b->segs[s];
        int base = sg->tile * CC_MAX_SEGS, first = 1, hit = 0;
        for (int l = 0; l < CC_MAX_SEGS; l++) {
            const seg_t *o = &b->segs[base + l];
            if (l == sg->local || o->tile < 0 || o->kind != sg->kind) continue;
            int r = find(b, base + l);
            if (r == ra && l < sg->local) first = 0;
            if (r == rb) hit = 1;
        }
        if (first && hit) shared++;
        s = b->segs[s].next;
    } while (s != ra);
    return shared;
}

static int unite(cc_board *b, int a, int c) {
    int ra = find(b, a), rb = find(b, c);
    if (ra == rb) return ra;
    if (b->segs[ra].nsegs > b->segs[rb].nsegs) { int t = ra; ra = rb; rb = t; }
    seg_t *A = &b->segs[ra], *B = &b->segs[rb];
    int shared = shared_tiles(b, ra, rb);
    B->ntiles = (int16_t)(A->ntiles + B->ntiles - shared);
    B->open = (int16_t)(A->open + B->open);
    B->coats = (int16_t)(A->coats + B->coats);
    B->nsegs = (int16_t)(A->nsegs + B->nsegs);
    B->nfig = (int16_t)(A->nfig + B->nfig);
    for (int p = 0; p < CC_MAX_PLAYERS; p++) {
        B->count[p] = (uint8_t)(B->count[p] + A->count[p]);
        B->strength[p] = (uint8_t)(B->strength[p] + A->strength[p]);
    }
    int32_t t = A->next; /* splice the two circular lists */
    A->next = B->next;
    B->next = t;
    A->parent = rb;
    return rb;
}

static int edge_matches(int mine, int theirs) {
    return mine == CC_EDGE_ANY || theirs == CC_EDGE_ANY || mine == theirs;
}

int cc_misfit(const cc_board *b, int type, int x, int y, int rot) {
    if (!b || type < 0 || type >= b->ts->n || rot < 0 || rot > 3) return CC_ERR_ARG;
    int c = cell(b, x, y);
    /* a tile on the outermost ring would have neighbours outside the grid */
    if (c < 0 || x + b->origin < 1 || y + b->origin < 1 || x + b->origin >= b->dim - 1
        || y + b->origin >= b->dim - 1)
        return CC_ERR_RANGE;
    if (b->grid[c] >= 0) return 6;
    if (b->ntiles >= b->max_tiles) return CC_ERR_FULL;
    const variant_t *v = variant(b, type, rot);
    int neighbours = 0;
    for (int e = 0; e < 4; e++) {
        int n = b->grid[cell(b, x + DX[e], y + DY[e])];
        if (n < 0) continue;
        neighbours++;
        const placed_t *p = &b->tiles[n];
        if (!edge_matches(v->def.edges[e], variant(b, p->type, p->rot)->def.edges[(e + 2) % 4]))
            return 1 + e;
    }
    if (neighbours == 0 && b->ntiles > 0) return 5;
    return 0;
}

int cc_fits(const cc_board *b, int type, int x, int y, int rot) {
    int m = cc_misfit(b, type, x, y, rot);
    return m < 0 ? m : m == 0;
}

static int cmp_cells(const void *pa, const void *pb) {
    /* cells are row-major with y growing with the row, so the index orders by y, x */
    int32_t a = *(const int32_t *)pa, c = *(const int32_t *)pb;
    return (a > c) - (a < c);
}

int cc_legal_placements(const cc_board *b, int type, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || type < 0 || type >= b->ts->n) return CC_ERR_ARG;
    if (b->ntiles >= b->max_tiles) return 0;
    int32_t *cells = malloc(((size_t)b->nfront + 1) * sizeof *cells);
    if (!cells) return CC_ERR_NOMEM;
    memcpy(cells, b->front, (size_t)b->nfront * sizeof *cells);
    qsort(cells, (size_t)b->nfront, sizeof *cells, cmp_cells);
    const variant_t *v = variant(b, type, 0);
    int n = 0;
    for (int i = 0; i < b->nfront; i++) {
        int x = cells[i] % b->dim - b->origin, y = cells[i] / b->dim - b->origin;
        if (x + b->origin < 1 || y + b->origin < 1 || x + b->origin >= b->dim - 1
            || y + b->origin >= b->dim - 1)
            continue;  /* the outermost ring stays empty (see cc_misfit) */
        /* what each side must show, or -1 where there is no neighbour */
        int need[4];
        for (int e = 0; e < 4; e++) {
            int t = b->grid[cells[i] + DY[e] * b->dim + DX[e]];
            need[e] = -1;
            if (t >= 0) {
                const placed_t *p = &b->tiles[t];
                need[e] = variant(b, p->type, p->rot)->def.edges[(e + 2) % 4];
            }
        }
        for (int r = 0; r < 4; r++) {
            const cc_tiledef *d = &v[r].def;
            if (!d->distinct) continue;
            int ok = 1;
            for (int e = 0; e < 4 && ok; e++)
                ok = need[e] < 0 || edge_matches(d->edges[e], need[e]);
            if (!ok) continue;
            if (n + 3 > cap) { free(cells); return CC_ERR_FULL; }
            out[n++] = x;
            out[n++] = y;
            out[n++] = r;
        }
    }
    free(cells);
    return n / 3;
}

static void frontier_add(cc_board *b, int c) {
    if (b->grid[c] >= 0 || b->front_pos[c] >= 0) return;
    b->front_pos[c] = b->nfront;
    b->front[b->nfront++] = c;
}

static void frontier_remove(cc_board *b, int c) {
    int i = b->front_pos[c];
    if (i < 0) return;
    int last = b->front[--b->nfront];
    b->front[i] = last;
    b->front_pos[last] = i;
    b->front_pos[c] = -1;
}

static int add_unique(int32_t *list, int n, int v) {
    for (int i = 0; i < n; i++)
        if (list[i] == v) return n;
    list[n] = v;
    return n + 1;
}

int cc_neighbours8(const cc_board *b, int x, int y) {
    if (!b) return CC_ERR_ARG;
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            int c = cell(b, x + dx, y + dy);
            if (c >= 0 && b->grid[c] >= 0) n++;
        }
    return n;
}

/* R-MM-10: the tiles a monastery at (x, y) is worth, its own and every neighbour
 * but town halls. The one place that knows a monastery's tile count. */
static int monastery_tiles(const cc_board *b, int x, int y) {
    int n = 1;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            int c = cell(b, x + dx, y + dy);
            if (c < 0 || b->grid[c] < 0) continue;
            const placed_t *p = &b->tiles[b->grid[c]];
            n += !variant(b, p->type, p->rot)->def.no_value;
        }
    return n;
}

int cc_place(cc_board *b, int type, int x, int y, int rot, int32_t *completed, int cap) {
    if (!completed || cap < 0) return CC_ERR_ARG;
    int m = cc_misfit(b, type, x, y, rot);
    if (m < 0) return m;
    if (m == 6) return CC_ERR_OCCUPIED;
    if (m != 0) return CC_ERR_NOFIT;
    const variant_t *v = variant(b, type, rot);
    int idx = b->ntiles++, c = cell(b, x, y), base = idx * CC_MAX_SEGS;
    b->tiles[idx] = (placed_t){(int16_t)type, (int16_t)rot, (int16_t)x, (int16_t)y};
    b->grid[c] = (int16_t)idx;
    for (int l = 0; l < CC_MAX_SEGS; l++) {
        seg_t *s = &b->segs[base + l];
        memset(s, 0, sizeof *s);
        s->parent = s->next = base + l;
        s->tile = -1;
        if (l >= v->def.nseg) continue;
        s->tile = (int16_t)idx;
        s->local = (int8_t)l;
        s->kind = v->def.seg_kind[l];
        s->ntiles = 1;
        s->nsegs = 1;
        s->coats = v->def.seg_coats[l];
        if (s->kind == CC_CITY || s->kind == CC_ROAD)
            s->open = (int16_t)__builtin_popcount(v->def.seg_mask[l]);
    }
    int32_t closed[4];  /* neighbours' segments whose edge this tile closed */
    int nclosed = 0;
    for (int e = 0; e < 4; e++) {
        int n = b->grid[cell(b, x + DX[e], y + DY[e])];
        if (n < 0) continue;
        const placed_t *p = &b->tiles[n];
        const variant_t *w = variant(b, p->type, p->rot);
        int nbase = n * CC_MAX_SEGS, mine = v->edge_seg[e], theirs = w->edge_seg[(e + 2) % 4];
        if (theirs >= 0) closed[nclosed++] = nbase + theirs;
        /* a town hall (ANY) side has no segment: it closes the other side's edge */
        if (mine >= 0 && theirs >= 0 && v->def.edges[e] == w->def.edges[(e + 2) % 4]) {
            int r = unite(b, base + mine, nbase + theirs);
            b->segs[r].open -= 2;
        } else {
            if (mine >= 0) b->segs[find(b, base + mine)].open -= 1;
            if (theirs >= 0) b->segs[find(b, nbase + theirs)].open -= 1;
        }
        for (int h = 2 * e; h < 2 * e + 2; h++) {
            int fm = v->half_seg[h], ft = w->half_seg[HALF_PARTNER[h]];
            if (fm >= 0 && ft >= 0) unite(b, base + fm, nbase + ft);
        }
    }
    frontier_remove(b, c);
    for (int e = 0; e < 4; e++) frontier_add(b, cell(b, x + DX[e], y + DY[e]));

    int n = 0;
    int32_t found[CC_MAX_SEGS + 4 + 9];
    for (int l = 0; l < v->def.nseg; l++) {
        int k = v->def.seg_kind[l];
        if (k != CC_CITY && k != CC_ROAD) continue;
        int r = find(b, base + l);
        if (b->segs[r].open == 0) n = add_unique(found, n, r);
    }
    /* R-MM-10/13: a town hall joins nothing but closes what it touches */
    for (int i = 0; i < nclosed; i++) {
        int r = find(b, closed[i]);
        if (b->segs[r].open == 0) n = add_unique(found, n, r);
    }
    /* R-BASE-5: a monastery is complete when its tile and all 8 around hold tiles */
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int t = b->grid[cell(b, x + dx, y + dy)];
            if (t < 0) continue;
            const placed_t *p = &b->tiles[t];
            int mon = variant(b, p->type, p->rot)->monastery;
            if (mon >= 0 && cc_neighbours8(b, p->x, p->y) == 8)
                n = add_unique(found, n, find(b, t * CC_MAX_SEGS + mon));
        }
    if (n > cap) return CC_ERR_FULL;
    memcpy(completed, found, (size_t)n * sizeof *found);
    return n;
}

int cc_tile_info(const cc_board *b, int idx, int32_t *out) {
    if (!b || !out || idx < 0 || idx >= b->ntiles) return CC_ERR_ARG;
    const placed_t *p = &b->tiles[idx];
    out[0] = p->type;
    out[1] = p->rot;
    out[2] = p->x;
    out[3] = p->y;
    return CC_OK;
}

int cc_tile_at(const cc_board *b, int x, int y) {
    if (!b) return CC_ERR_ARG;
    int c = cell(b, x, y);
    if (c < 0) return CC_ERR_RANGE;
    return b->grid[c];
}

int cc_feature_info(const cc_board *b, int seg, int32_t *out) {
    if (!b || !out || !seg_valid(b, seg)) return CC_ERR_ARG;
    int r = find_const(b, seg);
    const seg_t *s = &b->segs[r];
    out[0] = r;
    out[1] = s->kind;
    out[2] = s->ntiles;
    out[3] = s->open;
    out[4] = s->coats;
    out[6] = s->nsegs;
    out[7] = s->nfig;
    if (s->kind == CC_MONASTERY) {
        const placed_t *p = &b->tiles[s->tile];
        out[2] = monastery_tiles(b, p->x, p->y);
        out[3] = 8 - cc_neighbours8(b, p->x, p->y);
    }
    out[5] = s->kind != CC_FIELD && out[3] == 0;
    return CC_OK;
}

int cc_feature_strength(const cc_board *b, int seg, int32_t *out) {
    if (!b || !out || !seg_valid(b, seg)) return CC_ERR_ARG;
    const seg_t *s = &b->segs[find_const(b, seg)];
    for (int p = 0; p < CC_MAX_PLAYERS; p++) {
        out[p] = s->count[p];
        out[CC_MAX_PLAYERS + p] = s->strength[p];
    }
    return CC_OK;
}

int cc_field_cities(const cc_board *b, int seg, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || !seg_valid(b, seg)) return CC_ERR_ARG;
    int r = find_const(b, seg), s = r, n = 0;
    if (b->segs[r].kind != CC_FIELD) return CC_ERR_ARG;
    do {
        const seg_t *sg = &b->segs[s];
        const placed_t *p = &b->tiles[sg->tile];
        uint16_t cities = variant(b, p->type, p->rot)->def.seg_cities[sg->local];
        for (int l = 0; l < CC_MAX_SEGS; l++) {
            if (!(cities & (1u << l))) continue;
            int cr = find_const(b, sg->tile * CC_MAX_SEGS + l);
            int before = n;
            for (int i = 0; i < n; i++)
                if (out[i] == cr) { before = -1; break; }
            if (before < 0) continue;
            if (n >= cap) return CC_ERR_FULL;
            out[n++] = cr;
        }
        s = sg->next;
    } while (s != r);
    return n;
}

int cc_free_segments(const cc_board *b, int idx, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || idx < 0 || idx >= b->ntiles) return CC_ERR_ARG;
    int n = 0;
    for (int l = 0; l < CC_MAX_SEGS; l++) {
        int s = idx * CC_MAX_SEGS + l;
        if (b->segs[s].tile < 0) continue;
        if (b->segs[find_const(b, s)].nfig) continue;
        if (n >= cap) return CC_ERR_FULL;
        out[n++] = l;
    }
    return n;
}

int cc_occupied_features(const cc_board *b, int32_t *out, int cap) {
    if (!b || !out || cap < 0) return CC_ERR_ARG;
    int n = 0;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        if (b->figs[f].seg < 0) continue;
        int r = find_const(b, b->figs[f].seg), seen = 0;
        for (int i = 0; i < n && !seen; i++) seen = out[i] == r;
        if (seen) continue;
        if (n >= cap) return CC_ERR_FULL;
        int i = n++;
        for (; i > 0 && out[i - 1] > r; i--) out[i] = out[i - 1]; /* keep ascending */
        out[i] = r;
    }
    return n;
}

/* Add (sign +1) or take away (-1) a figure's share of its feature's aggregates. */
static void tally(cc_board *b, const figure_t *f, int sign) {
    seg_t *r = &b->segs[find(b, f->seg)];
    r->count[f->player] = (uint8_t)(r->count[f->player] + sign * f->scores);
    r->strength[f->player] = (uint8_t)(r->strength[f->player] + sign * f->strength);
    r->nfig = (int16_t)(r->nfig + sign);
}

int cc_figure_add(cc_board *b, int player, int kind, int strength, int scores, int seg) {
    if (!b || player < 0 || player >= CC_MAX_PLAYERS || kind < 0 || kind > 127 || strength < 0
        || strength > 9 || (scores != 0 && scores != 1) || !seg_valid(b, seg))
        return CC_ERR_ARG;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        if (b->figs[f].seg >= 0) continue;
        const seg_t *r = &b->segs[find(b, seg)];
        if (r->count[player] >= 250 || r->strength[player] + strength > 250) return CC_ERR_FULL;
        b->figs[f] = (figure_t){(int8_t)player, (int8_t)kind, (int8_t)strength, (int8_t)scores, seg};
        tally(b, &b->figs[f], +1);
        return f;
    }
    return CC_ERR_FULL;
}

int cc_figure_set(cc_board *b, int fig, int strength, int scores) {
    if (!b || fig < 0 || fig >= CC_MAX_FIGURES || b->figs[fig].seg < 0 || strength < 0
        || strength > 9 || (scores != 0 && scores != 1))
        return CC_ERR_ARG;
    tally(b, &b->figs[fig], -1);
    b->figs[fig].strength = (int8_t)strength;
    b->figs[fig].scores = (int8_t)scores;
    tally(b, &b->figs[fig], +1);
    return CC_OK;
}

int cc_figure_remove(cc_board *b, int fig) {
    if (!b || fig < 0 || fig >= CC_MAX_FIGURES || b->figs[fig].seg < 0) return CC_ERR_ARG;
    tally(b, &b->figs[fig], -1);
    b->figs[fig].seg = -1;
    return CC_OK;
}

int cc_figure_info(const cc_board *b, int fig, int32_t *out) {
    if (!b || !out || fig < 0 || fig >= CC_MAX_FIGURES) return CC_ERR_ARG;
    const figure_t *f = &b->figs[fig];
    out[0] = f->player;
    out[1] = f->kind;
    out[2] = f->strength;
    out[3] = f->seg;
    out[4] = f->scores;
    return CC_OK;
}

int cc_figures(const cc_board *b, int32_t *out, int cap) {
    if (!b || !out || cap < 0) return CC_ERR_ARG;
    int n = 0;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        const figure_t *g = &b->figs[f];
        if (g->seg < 0) continue;
        if (n + 6 > cap) return CC_ERR_FULL;
        out[n++] = f;
        out[n++] = g->player;
        out[n++] = g->kind;
        out[n++] = g->strength;
        out[n++] = g->seg;
        out[n++] = g->scores;
    }
    return n / 6;
}

int cc_feature_figures(const cc_board *b, int seg, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || !seg_valid(b, seg)) return CC_ERR_ARG;
    int r = find_const(b, seg), n = 0;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        if (b->figs[f].seg < 0 || find_const(b, b->figs[f].seg) != r) continue;
        if (n >= cap) return CC_ERR_FULL;
        out[n++] = f;
    }
    return n;
}

/* ---------------------------------------------------------------- turn options */

/* What placing one tile would do, worked out without changing the board: the new
 * tile's segments grouped into the features they would form, with each feature's
 * aggregates after the placement. */
typedef struct {
    int ngroups;
    int8_t group_of[CC_MAX_SEGS];
    int8_t kind[CC_MAX_SEGS];
    int8_t nroots[CC_MAX_SEGS];
    int32_t roots[CC_MAX_SEGS][8];      /* existing features joined (roots) */
    int16_t open[CC_MAX_SEGS], coats[CC_MAX_SEGS], nfig[CC_MAX_SEGS];
    uint8_t count[CC_MAX_SEGS][CC_MAX_PLAYERS], strength[CC_MAX_SEGS][CC_MAX_PLAYERS];
    int8_t complete[CC_MAX_SEGS];
} trial_t;

static int root_in(const int32_t *list, int n, int32_t r) {
    for (int i = 0; i < n; i++)
        if (list[i] == r) return 1;
    return 0;
}

static int lfind(int8_t *p, int s) {
    while (p[s] != s) s = p[s];
    return s;
}

static void analyze(const cc_board *b, const variant_t *v, int x, int y, trial_t *t) {
    int nseg = v->def.nseg;
    int32_t segroots[CC_MAX_SEGS][8];
    int nsr[CC_MAX_SEGS] = {0}, matched[CC_MAX_SEGS] = {0};
    for (int e = 0; e < 4; e++) {
        int n = b->grid[cell(b, x + DX[e], y + DY[e])];
        if (n < 0) continue;
        const placed_t *p = &b->tiles[n];
        const variant_t *w = variant(b, p->type, p->rot);
        int mine = v->edge_seg[e], theirs = w->edge_seg[(e + 2) % 4];
        if (mine >= 0 && theirs >= 0 && v->def.edges[e] == w->def.edges[(e + 2) % 4]) {
            int32_t r = find_const(b, n * CC_MAX_SEGS + theirs);
            if (!root_in(segroots[mine], nsr[mine], r)) segroots[mine][nsr[mine]++] = r;
            matched[mine] += 2;
        } else if (mine >= 0) {
            matched[mine] += 1;  /* a town hall closes this edge */
        }
        for (int h = 2 * e; h < 2 * e + 2; h++) {
            int fm = v->half_seg[h], ft = w->half_seg[HALF_PARTNER[h]];
            if (fm < 0 || ft < 0) continue;
            int32_t r = find_const(b, n * CC_MAX_SEGS + ft);
            if (!root_in(segroots[fm], nsr[fm], r)) segroots[fm][nsr[fm]++] = r;
        }
    }
    /* segments of the new tile that reach the same existing feature become one */
    int8_t par[CC_MAX_SEGS];
    for (int s = 0; s < nseg; s++) par[s] = (int8_t)s;
    for (int s = 0; s < nseg; s++)
        for (int u = s + 1; u < nseg; u++) {
            if (v->def.seg_kind[s] != v->def.seg_kind[u]) continue;
            for (int i = 0; i < nsr[s]; i++)
                if (root_in(segroots[u], nsr[u], segroots[s][i])) {
                    par[lfind(par, u)] = (int8_t)lfind(par, s);
                    break;
                }
        }
    memset(t, 0, sizeof *t);
    int8_t gid[CC_MAX_SEGS];
    memset(gid, -1, sizeof gid);
    for (int s = 0; s < nseg; s++) {
        int rep = lfind(par, s);
        if (gid[rep] < 0) {
            gid[rep] = (int8_t)t->ngroups++;
            t->kind[gid[rep]] = v->def.seg_kind[s];
        }
        int g = gid[rep];
        t->group_of[s] = (int8_t)g;
        t->coats[g] = (int16_t)(t->coats[g] + v->def.seg_coats[s]);
        if (v->def.seg_kind[s] == CC_CITY || v->def.seg_kind[s] == CC_ROAD)
            t->open[g] = (int16_t)(t->open[g] + __builtin_popcount(v->def.seg_mask[s]) - matched[s]);
        for (int i = 0; i < nsr[s]; i++) {
            int32_t r = segroots[s][i];
            if (root_in(t->roots[g], t->nroots[g], r)) continue;
            const seg_t *rs = &b->segs[r];
            t->roots[g][t->nroots[g]++] = r;
            t->open[g] = (int16_t)(t->open[g] + rs->open);
            t->coats[g] = (int16_t)(t->coats[g] + rs->coats);
            t->nfig[g] = (int16_t)(t->nfig[g] + rs->nfig);
            for (int q = 0; q < CC_MAX_PLAYERS; q++) {
                t->count[g][q] = (uint8_t)(t->count[g][q] + rs->count[q]);
                t->strength[g][q] = (uint8_t)(t->strength[g][q] + rs->strength[q]);
            }
        }
    }
    for (int g = 0; g < t->ngroups; g++) {
        if (t->kind[g] == CC_CITY || t->kind[g] == CC_ROAD) t->complete[g] = t->open[g] == 0;
        if (t->kind[g] == CC_MONASTERY) t->complete[g] = cc_neighbours8(b, x, y) == 8;
    }
}

/* R-BASE-7: is q among the greatest strengths of those present? */
static int holds_majority(const uint8_t *count, const uint8_t *strength, int np, int q) {
    if (!count[q]) return 0;
    for (int o = 0; o < np; o++)
        if (count[o] && strength[o] > strength[q]) return 0;
    return 1;
}

typedef struct {
    const cc_board *b;
    const cc_greedy_params *p;
    int32_t *stamp;
    int32_t stampv;
} evalctx_t;

/* Distinct tiles of the feature formed by the new tile and `roots`. */
static int group_tiles(evalctx_t *c, const int32_t *roots, int n) {
    int tiles = 1;
    c->stampv++;
    for (int i = 0; i < n; i++) {
        int s = roots[i];
        do {
            int tile = c->b->segs[s].tile;
            if (c->stamp[tile] != c->stampv) { c->stamp[tile] = c->stampv; tiles++; }
            s = c->b->segs[s].next;
        } while (s != roots[i]);
    }
    return tiles;
}

/* Completed cities bordering a field: the field's existing roots plus the new tile's
 * field segments of group g; cities the new tile joins count once, as after placement. */
static int field_completed_cities(evalctx_t *c, const trial_t *t, const variant_t *v, int g,
                                  const int32_t *roots, int nroots) {
    const cc_board *b = c->b;
    int32_t ids[64];
    int nids = 0, done = 0;
    for (int i = 0; i <= nroots; i++) {
        int s = i < nroots ? roots[i] : -1;
        if (s < 0) { /* the new tile's own field segments of this group */
            if (!t || g < 0) break;
            for (int l = 0; l < v->def.nseg; l++) {
                if (t->group_of[l] != g || v->def.seg_kind[l] != CC_FIELD) continue;
                for (int ci = 0; ci < CC_MAX_SEGS; ci++) {
                    if (!(v->def.seg_cities[l] & (1u << ci))) continue;
                    int32_t id = -1 - t->group_of[ci];
                    if (root_in(ids, nids, id) || nids >= 64) continue;
                    ids[nids++] = id;
                    done += t->complete[t->group_of[ci]];
                }
            }
            break;
        }
        int start = s;
        do {
            const seg_t *sg = &b->segs[s];
            const placed_t *pl = &b->tiles[sg->tile];
            uint16_t cities = variant(b, pl->type, pl->rot)->def.seg_cities[sg->local];
            for (int ci = 0; ci < CC_MAX_SEGS; ci++) {
                if (!(cities & (1u << ci))) continue;
                int32_t cr = find_const(b, sg->tile * CC_MAX_SEGS + ci), id = cr;
                int complete = b->segs[cr].open == 0;
                if (t)
                    for (int h = 0; h < t->ngroups; h++)
                        if (t->kind[h] == CC_CITY && root_in(t->roots[h], t->nroots[h], cr)) {
                            id = -1 - h;
                            complete = t->complete[h];
                        }
                if (root_in(ids, nids, id) || nids >= 64) continue;
                ids[nids++] = id;
                done += complete;
            }
            s = sg->next;
        } while (s != start);
    }
    return done;
}

/* Value of a feature for player q: points now if complete, else the weighted
 * final-scoring value; 0 unless q holds the majority. */
static double feature_value(const cc_greedy_params *p, int kind, int tiles, int coats, int complete,
                            int completed_cities) {
    if (kind == CC_FIELD) return p->open_weight[CC_FIELD] * 3.0 * completed_cities;
    /* monastery: tiles = monastery_tiles(), 9 when complete without town halls */
    if (complete) return kind == CC_CITY ? 2.0 * (tiles + coats) : tiles;
    double final = kind == CC_CITY ? tiles + coats : tiles;
    return p->open_weight[kind] * final;
}

/* Value of an existing feature to whoever holds its majority. */
static double root_value(evalctx_t *c, int32_t r) {
    const seg_t *s = &c->b->segs[r];
    int tiles = s->ntiles, cities = 0;
    if (s->kind == CC_MONASTERY) {
        const placed_t *pl = &c->b->tiles[s->tile];
        tiles = monastery_tiles(c->b, pl->x, pl->y);
    }
    if (s->kind == CC_FIELD) cities = field_completed_cities(c, NULL, NULL, -1, &r, 1);
    return feature_value(c->p, s->kind, tiles, s->coats, s->open == 0 && s->kind != CC_FIELD, cities);
}

enum { MAX_RULES = 8 };

/* Whether `rule` lets a figure go on group g of a trial. */
static int rule_fits(const cc_figure_rule *rule, const trial_t *t, int g) {
    return (rule->segment_kinds & (1 << t->kind[g])) && !(rule->needs_free && t->nfig[g]);
}

/* Gains of every player from group g: `without` any new figure, and `with[r]` when the
 * deciding player adds the figure of rules[r] there (for the rules that fit). */
static void group_gains(evalctx_t *c, const trial_t *t, const variant_t *v, int x, int y, int g,
                        const cc_figure_rule *rules, int nrules, double *without,
                        double (*with)[CC_MAX_PLAYERS]) {
    const cc_greedy_params *p = c->p;
    int np = p->nplayers, me = p->player, any = 0, fits = 0;
    for (int q = 0; q < np; q++) {
        without[q] = 0.0;
        any |= t->count[g][q] != 0;
    }
    for (int r = 0; r < nrules; r++) {
        for (int q = 0; q < np; q++) with[r][q] = 0.0;
        fits |= rule_fits(&rules[r], t, g);
    }
    if (!any && !fits) return;
    double before[CC_MAX_PLAYERS] = {0};
    for (int i = 0; i < t->nroots[g]; i++) {
        const seg_t *rs = &c->b->segs[t->roots[g][i]];
        if (!rs->nfig) continue;
        double value = root_value(c, t->roots[g][i]);
        for (int q = 0; q < np; q++)
            if (holds_majority(rs->count, rs->strength, np, q)) before[q] += value;
    }
    int tiles = 0, cities = 0;
    if (t->kind[g] == CC_MONASTERY) tiles = monastery_tiles(c->b, x, y);
    else if (t->kind[g] == CC_FIELD) cities = field_completed_cities(c, t, v, g, t->roots[g], t->nroots[g]);
    else tiles = group_tiles(c, t->roots[g], t->nroots[g]);
    double after = feature_value(p, t->kind[g], tiles, t->coats[g], t->complete[g], cities);
    for (int q = 0; q < np; q++)
        without[q] = (holds_majority(t->count[g], t->strength[g], np, q) ? after : 0.0) - before[q];
    for (int r = 0; r < nrules; r++) {
        if (!rule_fits(&rules[r], t, g)) continue;
        uint8_t count[CC_MAX_PLAYERS], strength[CC_MAX_PLAYERS];
        memcpy(count, t->count[g], sizeof count);
        memcpy(strength, t->strength[g], sizeof strength);
        count[me] = (uint8_t)(count[me] + rules[r].scores);
        strength[me] = (uint8_t)(strength[me] + rules[r].strength);
        for (int q = 0; q < np; q++)
            with[r][q] = (holds_majority(count, strength, np, q) ? after : 0.0) - before[q];
    }
}

static double combine(const cc_greedy_params *p, const double *gain, int supply_change) {
    double opp = 0.0;
    for (int q = 0; q < p->nplayers; q++)
        if (q != p->player) opp += gain[q];
    if (p->nplayers > 1) opp /= p->nplayers - 1;
    return gain[p->player] - p->opponent_weight * opp + p->follower_value * supply_change;
}

int cc_turn_options(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                    const cc_greedy_params *params, int32_t *rows, double *values, int cap) {
    if (!b || !rows || cap < 0 || type < 0 || type >= b->ts->n || nrules < 0 || nrules > MAX_RULES
        || (nrules && !rules))
        return CC_ERR_ARG;
    if (params && (!values || params->nplayers < 1 || params->nplayers > CC_MAX_PLAYERS
                   || params->player < 0 || params->player >= params->nplayers))
        return CC_ERR_ARG;
    int nplace = cc_legal_placements(b, type, rows, cap);
    if (nplace <= 0) return nplace;
    int32_t *place = malloc((size_t)nplace * 3 * sizeof *place);
    int32_t *stamp = params ? calloc((size_t)b->ntiles + 1, sizeof *stamp) : NULL;
    if (!place || (params && !stamp)) { free(place); free(stamp); return CC_ERR_NOMEM; }
    memcpy(place, rows, (size_t)nplace * 3 * sizeof *place);
    evalctx_t ctx = {b, params, stamp, 0};
    int n = 0, rc = 0;
    for (int i = 0; i < nplace && rc == 0; i++) {
        int x = place[3 * i], y = place[3 * i + 1], r = place[3 * i + 2];
        const variant_t *v = variant(b, type, r);
        trial_t t;
        analyze(b, v, x, y, &t);
        double gain[CC_MAX_PLAYERS] = {0}, base = 0.0;
        double without[CC_MAX_SEGS][CC_MAX_PLAYERS], with[CC_MAX_SEGS][MAX_RULES][CC_MAX_PLAYERS];
        int returned = 0;
        if (params) {
            int me = params->player;
            for (int g = 0; g < t.ngroups; g++) {
                group_gains(&ctx, &t, v, x, y, g, rules, nrules, without[g], with[g]);
                for (int q = 0; q < params->nplayers; q++) gain[q] += without[g][q];
                if (t.complete[g] && t.kind[g] != CC_FIELD)
                    for (int k = 0; k < t.nroots[g]; k++) returned += b->segs[t.roots[g][k]].count[me];
            }
            /* monasteries around gain a neighbour, and may complete */
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int ti = (dx || dy) ? b->grid[cell(b, x + dx, y + dy)] : -1;
                    if (ti < 0) continue;
                    const placed_t *pl = &b->tiles[ti];
                    int mon = variant(b, pl->type, pl->rot)->monastery;
                    if (mon < 0) continue;
                    const seg_t *ms = &b->segs[find_const(b, ti * CC_MAX_SEGS + mon)];
                    if (!ms->nfig) continue;
                    int around = cc_neighbours8(b, pl->x, pl->y);
                    int worth = monastery_tiles(b, pl->x, pl->y), after_worth = worth + !v->def.no_value;
                    for (int q = 0; q < params->nplayers; q++) {
                        if (!holds_majority(ms->count, ms->strength, params->nplayers, q)) continue;
                        double before = params->open_weight[CC_MONASTERY] * worth;
                        double after = around + 1 == 8 ? (double)after_worth
                                                       : params->open_weight[CC_MONASTERY] * after_worth;
                        gain[q] += after - before;
                    }
                    if (around + 1 == 8) returned += ms->count[me];
                }
            base = combine(params, gain, returned);
        }
        if (n + 5 > cap) { rc = CC_ERR_FULL; break; }
        int32_t *row = &rows[n];
        row[0] = x; row[1] = y; row[2] = r; row[3] = -1; row[4] = -1;
        if (params) values[n / 5] = base;
        n += 5;
        for (int s = 0; s < v->def.nseg && rc == 0; s++) {
          int g = t.group_of[s];
          for (int k = 0; k < nrules; k++) {
            if (!rule_fits(&rules[k], &t, g)) continue;
            if (n + 5 > cap) { rc = CC_ERR_FULL; break; }
            row = &rows[n];
            row[0] = x; row[1] = y; row[2] = r; row[3] = rules[k].kind; row[4] = s;
            if (params) {
                double with_fig[CC_MAX_PLAYERS];
                for (int q = 0; q < params->nplayers; q++)
                    with_fig[q] = gain[q] - without[g][q] + with[g][k][q];
                /* the follower leaves supply, unless its feature scores at once */
                int back = t.complete[g] && t.kind[g] != CC_FIELD;
                values[n / 5] = combine(params, with_fig, returned - 1 + back);
            }
            n += 5;
          }
        }
    }
    free(place);
    free(stamp);
    return rc ? rc : n / 5;
}

/* ---------------------------------------------------------------- the fast path */

/* SplitMix64, identical to sim/rng.py Stream. */
static uint64_t splitmix_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int splitmix_below(uint64_t *state, int n) {
    return (int)(((unsigned __int128)splitmix_next(state) * (unsigned)n) >> 64);
}

enum { SRC_ROAD = 0, SRC_CITY = 1, SRC_MONASTERY = 2, SRC_FIELD = 3 };

/* Score one feature (R-BASE-6/7/8) for the fast path; during play return its figures. */
static int fast_score(cc_board *b, int root, int final, int nplayers, int32_t *points,
                      int *supply) {
    int32_t info[8];
    int rc = cc_feature_info(b, root, info);
    if (rc < 0) return rc;
    int kind = info[1], tiles = info[2], coats = info[4], value, src;
    if (kind == CC_ROAD) { value = tiles; src = SRC_ROAD; }
    else if (kind == CC_CITY) { value = final ? tiles + coats : 2 * (tiles + coats); src = SRC_CITY; }
    else if (kind == CC_MONASTERY) { value = tiles; src = SRC_MONASTERY; } /* 9 if complete */
    else {
        int32_t cities[64];
        int n = cc_field_cities(b, root, cities, 64);
        if (n < 0) return n;
        value = 0;
        for (int i = 0; i < n; i++) value += 3 * (b->segs[cities[i]].open == 0);
        src = SRC_FIELD;
    }
    const seg_t *r = &b->segs[root];
    for (int q = 0; q < nplayers; q++)
        if (holds_majority(r->count, r->strength, nplayers, q)) points[q * 4 + src] += value;
    if (!final)
        for (int f = 0; f < CC_MAX_FIGURES; f++) {
            if (b->figs[f].seg < 0 || find_const(b, b->figs[f].seg) != root) continue;
            supply[b->figs[f].player]++;
            cc_figure_remove(b, f);
        }
    return 0;
}

int cc_play_base(const cc_tileset *ts, const int32_t *stack, int nstack, int start_type,
                 int nplayers, int followers, const int32_t *policy,
                 const cc_greedy_params *params, uint64_t *seat_state,
                 int32_t *points_out, int32_t *moves_out, int moves_cap) {
    if (!ts || !stack || nstack < 0 || start_type < 0 || start_type >= ts->n || nplayers < 2
        || nplayers > CC_MAX_PLAYERS || followers < 0 || !policy || !params || !seat_state
        || !points_out || !moves_out || moves_cap < 0)
        return CC_ERR_ARG;
    for (int i = 0; i < nstack; i++)
        if (stack[i] < 0 || stack[i] >= ts->n) return CC_ERR_ARG;
    for (int q = 0; q < nplayers; q++)
        if (policy[q] < 0 || policy[q] > 2) return CC_ERR_ARG;
    cc_board *b = cc_board_new(ts, nstack + 1);
    int cap = 5 * 4 * 13 * (2 * (nstack + 1) + 4);
    int32_t *rows = malloc((size_t)cap * sizeof *rows);
    double *values = malloc((size_t)(cap / 5) * sizeof *values);
    int32_t *done = malloc((size_t)(CC_MAX_SEGS + 4 + 9) * sizeof *done);
    int rc = 0, turns = 0, seat = nplayers - 1;
    int supply[CC_MAX_PLAYERS];
    if (!b || !rows || !values || !done) { rc = CC_ERR_NOMEM; goto out; }
    memset(points_out, 0, (size_t)nplayers * 4 * sizeof *points_out);
    for (int q = 0; q < nplayers; q++) supply[q] = followers;
    rc = cc_place(b, start_type, 0, 0, 0, done, CC_MAX_SEGS + 4 + 9);
    if (rc < 0) goto out;
    seat = 0;
    for (int i = 0; i < nstack; i++) {
        int t = stack[i];
        cc_greedy_params p;
        const cc_greedy_params *pp = NULL;
        if (policy[seat] == 2) {
            /* as strategies/greedy.py: the follower weight shrinks with the tiles left */
            int left = nstack - i - 1, in_play = left + b->ntiles;
            p = params[seat];
            p.player = seat;
            p.nplayers = nplayers;
            p.follower_value = params[seat].follower_value * left / in_play;
            pp = &p;
        }
        static const cc_figure_rule follower = {0, 0xF, 1, 1, 1}; /* R-BASE-4 */
        int n = cc_turn_options(b, t, &follower, supply[seat] > 0, pp, rows, values, cap);
        if (n < 0) { rc = n; goto out; }
        if (n == 0) continue;  /* R-BASE-3: fits nowhere, discarded; same seat draws again */
        int pick = 0;
        if (policy[seat] == 0) {
            for (int k = 0; k < n && rows[5 * k] == rows[0] && rows[5 * k + 1] == rows[1]
                            && rows[5 * k + 2] == rows[2]; k++)
                if (rows[5 * k + 3] >= 0) { pick = k; break; }
        } else if (policy[seat] == 1) {
            pick = splitmix_below(&seat_state[seat], n);
        } else {
            for (int k = 1; k < n; k++)
                if (values[k] > values[pick]) pick = k;
        }
        const int32_t *row = &rows[5 * pick];
        if (turns >= moves_cap / 5) { rc = CC_ERR_FULL; goto out; }
        memcpy(&moves_out[5 * turns], row, 5 * sizeof *row);
        turns++;
        int nd = cc_place(b, t, row[0], row[1], row[2], done, CC_MAX_SEGS + 4 + 9);
        if (nd < 0) { rc = nd; goto out; }
        if (row[3] >= 0) {
            int f = cc_figure_add(b, seat, row[3], 1, 1, (b->ntiles - 1) * CC_MAX_SEGS + row[4]);
            if (f < 0) { rc = f; goto out; }
            supply[seat]--;
        }
        for (int k = 0; k < nd && rc == 0; k++) rc = fast_score(b, done[k], 0, nplayers, points_out, supply);
        if (rc < 0) goto out;
        seat = (seat + 1) % nplayers;
    }
    /* R-BASE-8: final scoring, features in ascending root order as in sim/game.py */
    int32_t occ[CC_MAX_FIGURES];
    int nocc = cc_occupied_features(b, occ, CC_MAX_FIGURES);
    if (nocc < 0) { rc = nocc; goto out; }
    for (int k = 0; k < nocc && rc == 0; k++) rc = fast_score(b, occ[k], 1, nplayers, points_out, supply);
    if (rc == 0) rc = turns;
out:
    cc_board_free(b);
    free(rows);
    free(values);
    free(done);
    return rc;
}

int cc_turn_best(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                 const cc_greedy_params *params, int32_t *rows, double *values, int cap,
                 int32_t *best) {
    if (!params || !best) return CC_ERR_ARG;
    int n = cc_turn_options(b, type, rules, nrules, params, rows, values, cap);
    if (n <= 0) return n;
    int pick = 0;
    for (int k = 1; k < n; k++)
        if (values[k] > values[pick]) pick = k;
    memcpy(best, &rows[5 * pick], 5 * sizeof *best);
    return n;
}

int cc_option_legal(const cc_board *b, int type, int x, int y, int rot, int kind, int seg,
                    const cc_figure_rule *rules, int nrules) {
    if (!b || type < 0 || type >= b->ts->n || rot < 0 || rot > 3 || nrules < 0
        || nrules > MAX_RULES || (nrules && !rules))
        return CC_ERR_ARG;
    const variant_t *v = variant(b, type, rot);
    if (!v->def.distinct) return 0;
    int m = cc_misfit(b, type, x, y, rot);
    if (m < 0) return m == CC_ERR_RANGE ? 0 : m;
    if (m != 0) return 0;
    if (kind == -1 && seg == -1) return 1;
    if (seg < 0 || seg >= v->def.nseg) return 0;
    trial_t t;
    analyze(b, v, x, y, &t);
    for (int k = 0; k < nrules; k++)
        if (rules[k].kind == kind && rule_fits(&rules[k], &t, t.group_of[seg])) return 1;
    return 0;
}

int cc_feature_segments(const cc_board *b, int seg, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || !seg_valid(b, seg)) return CC_ERR_ARG;
    int r = find_const(b, seg), s = r, n = 0;
    do {
        if (n >= cap) return CC_ERR_FULL;
        int i = n++;
        for (; i > 0 && out[i - 1] > s; i--) out[i] = out[i - 1];  /* keep ascending */
        out[i] = s;
        s = b->segs[s].next;
    } while (s != r);
    return n;
}
