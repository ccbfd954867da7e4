/* carcsim C core: the board, placement, union-find features and figures. */
#include "internal.h"

/* ---------------------------------------------------------------- boards */

int board_new_fields(cc_board *b) {
    size_t slots = (size_t)b->max_tiles * CC_MAX_SEGS;
    field_lists_t *f = malloc(sizeof *f);
    if (!f) return CC_ERR_NOMEM;
    f->n = 0;
    f->cap = 2 * (int32_t)slots;  /* a few cities per field: about a game's listings */
    f->list = malloc(slots * sizeof *f->list);
    f->pool = malloc((size_t)f->cap * sizeof *f->pool);
    b->fields = f;
    if (!f->list || !f->pool) return CC_ERR_NOMEM;  /* cc_board_free frees what is there */
    for (int s = 0; s < b->ntiles * CC_MAX_SEGS; s++) f->list[s].nsegs = 0;
    return CC_OK;
}

cc_board *cc_board_new(const cc_tileset *ts, int max_tiles) {
    if (!ts || max_tiles <= 0 || max_tiles > 4000) return NULL;
    cc_board *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->ts = ts;
    b->max_tiles = max_tiles;
    b->farm_points = 3;  /* R-BASE-8; a game sets its config's (cc_game_new) */
    /* tiles are connected, so none lies further than max_tiles from the start;
     * one more ring keeps every frontier cell inside the grid */
    b->origin = max_tiles + 1;
    b->dim = 2 * max_tiles + 3;
    size_t cells = (size_t)b->dim * b->dim;
    b->grid = malloc(cells * sizeof *b->grid);
    b->need = calloc(cells, sizeof *b->need);  /* 0: no neighbour on any side */
    b->in_front = calloc(cells, sizeof *b->in_front);
    /* each tile adds at most 4 frontier cells */
    b->front = malloc((4 * (size_t)max_tiles + 4) * sizeof *b->front);
    b->front_cells = malloc((4 * (size_t)max_tiles + 4) * sizeof *b->front_cells);
    b->front_slot = malloc((4 * (size_t)max_tiles + 4) * sizeof *b->front_slot);
    b->free_slots = malloc((4 * (size_t)max_tiles + 4) * sizeof *b->free_slots);
    b->tiles = calloc((size_t)max_tiles, sizeof *b->tiles);
    /* a tile's 12 segment slots are written when it is placed (cc_place), and no slot
     * of an unplaced tile is read (seg_valid), so they need no zeroing */
    b->segs = malloc((size_t)max_tiles * CC_MAX_SEGS * sizeof *b->segs);
    if (!b->grid || !b->need || !b->in_front || !b->front || !b->front_cells || !b->front_slot
        || !b->free_slots || !b->tiles || !b->segs
        || board_new_fields(b) < 0) {
        cc_board_free(b);
        return NULL;
    }
    memset(b->grid, -1, cells * sizeof *b->grid);
    for (int i = 0; i < CC_MAX_FIGURES; i++) b->figs[i].seg = -1;
    return b;
}

void cc_board_free(cc_board *b) {
    if (!b) return;
    free(b->grid);
    free(b->need);
    free(b->in_front);
    free(b->front);
    free(b->front_cells);
    free(b->front_slot);
    free(b->free_slots);
    free(b->tiles);
    free(b->segs);
    if (b->fields) {
        free(b->fields->list);
        free(b->fields->pool);
        free(b->fields);
    }
    free(b);
}

cc_board *cc_board_clone(const cc_board *b) {
    if (!b) return NULL;
    cc_board *c = cc_board_new(b->ts, b->max_tiles);
    if (!c) return NULL;
    size_t cells = (size_t)b->dim * b->dim;
    memcpy(c->grid, b->grid, cells * sizeof *b->grid);
    memcpy(c->need, b->need, cells * sizeof *b->need);
    memcpy(c->in_front, b->in_front, cells * sizeof *b->in_front);
    memcpy(c->front, b->front, (size_t)b->nfront * sizeof *b->front);
    memcpy(c->front_cells, b->front_cells, (size_t)b->nslots * sizeof *b->front_cells);
    memcpy(c->front_slot, b->front_slot, (size_t)b->nfront * sizeof *b->front_slot);
    memcpy(c->free_slots, b->free_slots, (size_t)b->nfree * sizeof *b->free_slots);
    c->nslots = b->nslots;
    c->nfree = b->nfree;
    memcpy(c->tiles, b->tiles, (size_t)b->ntiles * sizeof *b->tiles);
    memcpy(c->segs, b->segs, (size_t)b->ntiles * CC_MAX_SEGS * sizeof *b->segs);
    memcpy(c->figs, b->figs, sizeof b->figs);
    memcpy(c->fields->list, b->fields->list, (size_t)b->ntiles * CC_MAX_SEGS * sizeof *b->fields->list);
    memcpy(c->fields->pool, b->fields->pool, (size_t)b->fields->n * sizeof *b->fields->pool);
    c->fields->n = b->fields->n;
    c->ntiles = b->ntiles;
    c->nfront = b->nfront;
    c->farm_points = b->farm_points;
    c->nfig_slots = b->nfig_slots;
    return c;
}

void board_reset(cc_board *b) {
    /* a tile's cell and its 4 sides are the only cells play writes (cc_place: the
     * cell, its sides' needs; the frontier: empty cells beside a tile) */
    for (int i = 0; i < b->ntiles; i++) {
        const placed_t *p = &b->tiles[i];
        for (int e = -1; e < 4; e++) {
            int c = e < 0 ? cell(b, p->x, p->y) : cell(b, p->x + DX[e], p->y + DY[e]);
            b->grid[c] = -1;
            b->need[c] = 0;
            b->in_front[c] = 0;
        }
    }
    b->ntiles = b->nfront = b->nfig_slots = b->nslots = b->nfree = 0;
    b->fields->n = 0;  /* (a slot's list is cleared when its tile is placed) */
    for (int i = 0; i < CC_MAX_FIGURES; i++) b->figs[i] = (figure_t){0, 0, 0, 0, -1};
}

int cc_board_ntiles(const cc_board *b) { return b ? b->ntiles : CC_ERR_ARG; }
int cc_board_max_tiles(const cc_board *b) { return b ? b->max_tiles : CC_ERR_ARG; }

void board_flatten(cc_board *b) {
    /* a loaded state's paths may be longer than play makes them: each is walked to its
     * root (board_sane found no cycle) and every segment on it pointed there, so a path
     * is walked once however the blob chained it */
    for (int s = 0; s < b->ntiles * CC_MAX_SEGS; s++) {
        if (b->segs[s].tile < 0) continue;
        int r = s;
        while (b->segs[r].parent != r) r = b->segs[r].parent;
        for (int q = s; b->segs[q].parent != r;) {
            int next = b->segs[q].parent;
            b->segs[q].parent = r;
            q = next;
        }
    }
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
        const placed_t *p = &b->tiles[sg->tile];
        int base = sg->tile * CC_MAX_SEGS, first = 1, hit = 0;
        /* the tile's other segments of this kind */
        unsigned others = variant(b, p->type, p->rot)->of_kind[sg->kind] & ~(1u << sg->local);
        for (; others; others &= others - 1) {
            int l = __builtin_ctz(others);
            int r = find_const(b, base + l);
            if (r == ra && l < sg->local) first = 0;
            if (r == rb) hit = 1;
        }
        if (first && hit) shared++;
        s = b->segs[s].next;
    } while (s != ra);
    return shared;
}

static int unite(cc_board *b, int a, int c) {
    int ra = find_const(b, a), rb = find_const(b, c);
    if (ra == rb) return ra;
    if (b->segs[ra].nsegs > b->segs[rb].nsegs) { int t = ra; ra = rb; rb = t; }
    seg_t *A = &b->segs[ra], *B = &b->segs[rb];
    int shared = shared_tiles(b, ra, rb);
    B->ntiles = (int16_t)(A->ntiles + B->ntiles - shared);
    B->open = (int16_t)(A->open + B->open);
    B->coats = A->coats + B->coats;
    B->nsegs = A->nsegs + B->nsegs;
    B->nfig = (int16_t)(A->nfig + B->nfig);
    for (int p = 0; p < CC_MAX_PLAYERS; p++) {
        B->count[p] = (uint16_t)(B->count[p] + A->count[p]);
        B->strength[p] = (uint16_t)(B->strength[p] + A->strength[p]);
    }
    /* every segment of the smaller feature points at the root at once, so a find is
     * one step (the root, and so every feature's name, is what union by size gives) */
    int s = ra;
    do {
        b->segs[s].parent = rb;
        s = b->segs[s].next;
    } while (s != ra);
    int32_t t = A->next; /* splice the two circular lists */
    A->next = B->next;
    B->next = t;
    return rb;
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

int cc_legal_placements(const cc_board *b, int type, int32_t *out, int cap) {
    if (!b || !out || cap < 0 || type < 0 || type >= b->ts->n) return CC_ERR_ARG;
    front_iter_t it;
    front_begin(b, type, &it);
    int x, y, n = 0;
    unsigned fits;
    while (front_next(&it, &x, &y, &fits))
        for (; fits; fits &= fits - 1) {
            if (n + 3 > cap) return CC_ERR_FULL;
            out[n++] = x;
            out[n++] = y;
            out[n++] = __builtin_ctz(fits);
        }
    return n / 3;
}

/* Where cell c is or would go in the sorted frontier. Cells are row-major with y
 * growing with the row, so the index order is by y, then x. */
static int frontier_slot(const cc_board *b, int c) {
    /* halving a range that holds the answer, by a select rather than a branch (which
     * half is as good as random, so a branch is mispredicted every other step) */
    const int32_t *p = b->front;
    int len = b->nfront;
    while (len > 1) {
        int half = len / 2;
        p = p[half] < c ? p + half : p;
        len -= half;
    }
    return (int)(p - b->front) + (len == 1 && p[0] < c);
}

/* front_cell_t: side e of a frontier cell shows placed tile t. */
static void front_cell_side(const cc_board *b, front_cell_t *f, int e, int t) {
    const placed_t *p = &b->tiles[t];
    const variant_t *w = variant(b, p->type, p->rot);
    int theirs = w->edge_seg[(e + 2) % 4];
    f->sides |= (uint8_t)(1u << e);
    f->their_edge[e] = (int8_t)w->def.edges[(e + 2) % 4];
    f->theirs[e] = (int8_t)theirs;
    f->tile[e] = (int16_t)t;
    for (int h = 2 * e; h < 2 * e + 2; h++) {
        int ft = w->half_seg[HALF_PARTNER[h]];
        if (ft < 0) continue;
        f->halves |= (uint8_t)(1u << h);
        f->ft[h] = (int8_t)ft;
    }
}

void board_front_cells(cc_board *b) {
    b->nslots = b->nfront;
    b->nfree = 0;
    for (int i = 0; i < b->nfront; i++) {
        front_cell_t *f = &b->front_cells[i];
        b->front_slot[i] = (int16_t)i;
        memset(f, 0, sizeof *f);
        /* a frontier cell may lie on the grid's outermost ring (no tile goes there): its
         * neighbours by coordinates, -1 off the grid */
        int c = b->front[i], x = c % b->dim - b->origin, y = c / b->dim - b->origin;
        for (int e = 0; e < 4; e++) {
            int nc = cell(b, x + DX[e], y + DY[e]), t = nc < 0 ? -1 : b->grid[nc];
            if (t >= 0) front_cell_side(b, f, e, t);
        }
    }
}

/* Empty cell c in the frontier (if not already): what its neighbours show it, which
 * for a cell new to the frontier is nothing yet (cc_place adds its sides). */
static front_cell_t *frontier_add(cc_board *b, int c) {
    int i = frontier_slot(b, c);
    if (b->in_front[c]) return &b->front_cells[b->front_slot[i]];
    int slot = b->nfree ? b->free_slots[--b->nfree] : b->nslots++;
    memmove(&b->front[i + 1], &b->front[i], (size_t)(b->nfront - i) * sizeof *b->front);
    memmove(&b->front_slot[i + 1], &b->front_slot[i], (size_t)(b->nfront - i) * sizeof *b->front_slot);
    b->front[i] = c;
    b->front_slot[i] = (int16_t)slot;
    memset(&b->front_cells[slot], 0, sizeof b->front_cells[slot]);
    b->nfront++;
    b->in_front[c] = 1;
    return &b->front_cells[slot];
}

static void frontier_remove(cc_board *b, int c) {
    if (!b->in_front[c]) return;
    int i = frontier_slot(b, c);
    memmove(&b->front[i], &b->front[i + 1], (size_t)(b->nfront - i - 1) * sizeof *b->front);
    b->free_slots[b->nfree++] = b->front_slot[i];
    memmove(&b->front_slot[i], &b->front_slot[i + 1], (size_t)(b->nfront - i - 1) * sizeof *b->front_slot);
    b->nfront--;
    b->in_front[c] = 0;
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

/* R-MM-10: the tiles a centre feature (monastery, garden) at (x, y) is worth, its own
 * and every neighbour but town halls. The one place that knows that tile count. */
int monastery_tiles(const cc_board *b, int x, int y) {
    /* (x, y) is a placed tile's cell or a frontier cell: its 8 around are in the grid */
    int n = 1, c = cell_in(b, x, y), d = b->dim;
    const int off[8] = {-d - 1, -d, -d + 1, -1, 1, d - 1, d, d + 1};
    for (int k = 0; k < 8; k++) {
        int t = b->grid[c + off[k]];
        if (t < 0) continue;
        const placed_t *p = &b->tiles[t];
        n += !variant(b, p->type, p->rot)->def.no_value;
    }
    return n;
}

int cc_place(cc_board *b, int type, int x, int y, int rot, int32_t *completed, int cap) {
    if (!completed || cap < 0) return CC_ERR_ARG;
    if (cap < CC_MAX_COMPLETED) return CC_ERR_FULL;  /* checked before anything changes */
    int m = cc_misfit(b, type, x, y, rot);
    if (m < 0) return m;
    if (m == 6) return CC_ERR_OCCUPIED;
    if (m != 0) return CC_ERR_NOFIT;
    const variant_t *v = variant(b, type, rot);
    int idx = b->ntiles++, c = cell(b, x, y), base = idx * CC_MAX_SEGS;
    b->tiles[idx] = (placed_t){(int16_t)type, (int16_t)rot, (int16_t)x, (int16_t)y};
    b->grid[c] = (int16_t)idx;
    for (int e = 0; e < 4; e++)  /* the neighbours' sides facing this tile must match it */
        b->need[cell(b, x + DX[e], y + DY[e])] += (uint16_t)((v->def.edges[e] + 1) * NEED_PLACE[(e + 2) % 4]);
    for (int l = 0; l < CC_MAX_SEGS; l++) {
        seg_t *s = &b->segs[base + l];
        b->fields->list[base + l].nsegs = 0;
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
            s->open = v->nedges[l];
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
            if (mine >= 0) b->segs[find_const(b, base + mine)].open -= 1;
            if (theirs >= 0) b->segs[find_const(b, nbase + theirs)].open -= 1;
        }
        for (int h = 2 * e; h < 2 * e + 2; h++) {
            int fm = v->half_seg[h], ft = w->half_seg[HALF_PARTNER[h]];
            if (fm >= 0 && ft >= 0) unite(b, base + fm, nbase + ft);
        }
    }
    frontier_remove(b, c);
    /* the empty cells beside the new tile, new to the frontier or not, see it on their
     * side facing it */
    for (int e = 0; e < 4; e++) {
        int nc = cell(b, x + DX[e], y + DY[e]);
        if (b->grid[nc] < 0) front_cell_side(b, frontier_add(b, nc), (e + 2) % 4, idx);
    }

    int n = 0;
    int32_t found[CC_MAX_COMPLETED];
    for (int l = 0; l < v->def.nseg; l++) {
        int k = v->def.seg_kind[l];
        if (k != CC_CITY && k != CC_ROAD) continue;
        int r = find_const(b, base + l);
        if (b->segs[r].open == 0) n = add_unique(found, n, r);
    }
    /* R-MM-10/13: a town hall joins nothing but closes what it touches */
    for (int i = 0; i < nclosed; i++) {
        int r = find_const(b, closed[i]);
        if (b->segs[r].open == 0) n = add_unique(found, n, r);
    }
    /* R-BASE-5: a monastery (R-ABB-2: a garden) is complete when its tile and all 8
     * around hold tiles */
    const int d = b->dim, off[9] = {-d - 1, -d, -d + 1, -1, 0, 1, d - 1, d, d + 1};  /* by y, then x */
    for (int k = 0; k < 9; k++) {
        /* an empty cell reads tile 0's centre and is then ruled out with it: one
         * branch, on a centre feature (rare), not one on whether the cell is empty */
        int t = b->grid[c + off[k]], ti = t < 0 ? 0 : t;
        const placed_t *p = &b->tiles[ti];
        int mon = variant(b, p->type, p->rot)->centre;
        if ((t >= 0) & (mon >= 0) && around_count(b, c + off[k]) == 8)
            n = add_unique(found, n, find_const(b, t * CC_MAX_SEGS + mon));
    }
    memcpy(completed, found, (size_t)n * sizeof *found);
    return n;
}

int cc_tile_info(const cc_board *b, int idx, int32_t *out, int cap) {
    if (!b || !out || idx < 0 || idx >= b->ntiles) return CC_ERR_ARG;
    if (cap < 4) return CC_ERR_FULL;
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

int cc_feature_info(const cc_board *b, int seg, int32_t *out, int cap) {
    if (!b || !out || !seg_valid(b, seg)) return CC_ERR_ARG;
    if (cap < 8) return CC_ERR_FULL;
    int r = find_const(b, seg);
    const seg_t *s = &b->segs[r];
    out[0] = r;
    out[1] = s->kind;
    out[2] = s->ntiles;
    out[3] = s->open;
    out[4] = s->coats;
    out[6] = s->nsegs;
    out[7] = s->nfig;
    if (is_centre(s->kind)) {
        const placed_t *p = &b->tiles[s->tile];
        out[2] = monastery_tiles(b, p->x, p->y);
        out[3] = 8 - cc_neighbours8(b, p->x, p->y);
    }
    out[5] = s->kind != CC_FIELD && out[3] == 0;
    return CC_OK;
}

int cc_feature_strength(const cc_board *b, int seg, int32_t *out, int cap) {
    if (!b || !out || !seg_valid(b, seg)) return CC_ERR_ARG;
    if (cap < 2 * CC_MAX_PLAYERS) return CC_ERR_FULL;
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
    for (int f = 0; f < b->nfig_slots; f++) {
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
    seg_t *r = &b->segs[find_const(b, f->seg)];
    r->count[f->player] = (uint16_t)(r->count[f->player] + sign * f->scores);
    r->strength[f->player] = (uint16_t)(r->strength[f->player] + sign * f->strength);
    r->nfig = (int16_t)(r->nfig + sign);
}

int cc_figure_add(cc_board *b, int player, int kind, int strength, int scores, int seg) {
    if (!b || player < 0 || player >= CC_MAX_PLAYERS || kind < 0 || kind > 127 || strength < 0
        || strength > 9 || (scores != 0 && scores != 1) || !seg_valid(b, seg))
        return CC_ERR_ARG;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        if (b->figs[f].seg >= 0) continue;
        b->figs[f] = (figure_t){(int8_t)player, (int8_t)kind, (int8_t)strength, (int8_t)scores, seg};
        if (f >= b->nfig_slots) b->nfig_slots = f + 1;
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
    while (b->nfig_slots > 0 && b->figs[b->nfig_slots - 1].seg < 0) b->nfig_slots--;
    return CC_OK;
}

int cc_figure_info(const cc_board *b, int fig, int32_t *out, int cap) {
    if (!b || !out || fig < 0 || fig >= CC_MAX_FIGURES) return CC_ERR_ARG;
    if (cap < 5) return CC_ERR_FULL;
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
    for (int f = 0; f < b->nfig_slots; f++) {
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
    for (int f = 0; f < b->nfig_slots; f++) {
        if (b->figs[f].seg < 0 || find_const(b, b->figs[f].seg) != r) continue;
        if (n >= cap) return CC_ERR_FULL;
        out[n++] = f;
    }
    return n;
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

/* ---------------------------------------------------------------- feature values */

int feature_points(int kind, int tiles, int coats, int completed_cities, int final, int farm_points) {
    switch (kind) {
    case CC_ROAD: return tiles;  /* R-BASE-6/8: 1 per tile, each tile once */
    case CC_CITY: return final ? tiles + coats : 2 * (tiles + coats);
    case CC_MONASTERY: case CC_GARDEN:  /* its tile and the tiles around, town halls not
                                           (R-MM-10, R-ABB-4) */
        return tiles;
    default: return farm_points * completed_cities;  /* a field (R-BASE-8: 3 by default) */
    }
}

int feature_value(const cc_board *b, int seg, int final) {
    if (!b || !seg_valid(b, seg)) return CC_ERR_ARG;
    const seg_t *s = &b->segs[find_const(b, seg)];
    int tiles = s->ntiles, cities = 0;
    if (is_centre(s->kind)) {  /* 9 when completed without a town hall (R-MM-10) */
        const placed_t *p = &b->tiles[s->tile];
        tiles = monastery_tiles(b, p->x, p->y);
    } else if (s->kind == CC_FIELD) {
        int32_t ids[4 * 64];
        int n = cc_field_cities(b, seg, ids, (int)(sizeof ids / sizeof *ids));
        if (n < 0) return n;
        for (int i = 0; i < n; i++) cities += b->segs[ids[i]].open == 0;
    }
    return feature_points(s->kind, tiles, s->coats, cities, final, b->farm_points);
}

int cc_feature_value(const cc_board *b, int seg, int final) {
    return feature_value(b, seg, final != 0);  /* it checks b and seg */
}

int cc_majority(const int32_t *count, const int32_t *strength, int np) {
    if (!count || !strength || np < 1 || np > CC_MAX_PLAYERS) return CC_ERR_ARG;
    uint16_t c[CC_MAX_PLAYERS], s[CC_MAX_PLAYERS];
    for (int q = 0; q < np; q++) {
        if (count[q] < 0 || count[q] > UINT16_MAX || strength[q] < 0 || strength[q] > UINT16_MAX)
            return CC_ERR_ARG;
        c[q] = (uint16_t)count[q];
        s[q] = (uint16_t)strength[q];
    }
    int holders = 0;
    for (int q = 0; q < np; q++)
        if (holds_majority(c, s, np, q)) holders |= 1 << q;
    return holders;
}
