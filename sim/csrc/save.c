/* carcsim C core: a game's state as bytes and back (pickling, issue 13 item 3).
 * The layout is this build's own: a header naming the format and the struct sizes,
 * the game struct, its arrays, then the board's. Loading refuses a damaged or foreign
 * blob rather than read out of bounds, overflow or walk forever, and checks:
 * - every count and index in range, and the blob's length exactly what they give;
 * - the board's union-find (no cycle, parents of the segment's kind), its features'
 *   circular lists and their aggregates (segments, tiles, open edges, coats, figures,
 *   presence), its cells, each side's need and the frontier, and its figures;
 * - the game's agenda steps (each the base game's or one of a unit in play) and the
 *   pending decision (none, the place decision or one of a unit in play) with its fields
 *   (a drawn tile with rows, and those rows exactly the placements play computes for it,
 *   R-BASE-3/4); no error state; a game over has no decision;
 * - the config and every seat's policies as cc_game_new checks them;
 * - scores and points within 0..MAX_POINTS, the turn within the board's tiles,
 *   decisions taken within MAX_DECISIONS;
 * - each expansion's own state, steps and decisions, by its unit's check_state (The
 *   Messages: its deck with the tile in hand a permutation of the 8, the edition, a
 *   message in hand with choices, figure spaces within 0..MAX_POINTS; the Courier: on
 *   the grid, its figures placed or moved this turn each once; the River: its open end
 *   on the grid; Messengers & Mayors: each decision's rows with its own kind's codes
 *   only, a town hall's cells on the grid, a favour's target on the board, the
 *   scoring due).
 * It does NOT check that neighbouring tiles' edges match or that the tiles are
 * connected: such a blob loads and plays on from that board. Other plain values
 * (supplies, statistics, seat streams) are taken as they are. */
#include "game.h"

enum { SAVE_MAGIC = 0x31474343, SAVE_VERSION = 3 };  /* "CCG1"; 3: the abbot's figure hint */
enum { MAX_POINTS = SAVE_MAX_POINTS };
enum { MAX_DECISIONS = 100000000 };  /* decisions taken: a few per tile in a real game */

typedef struct {
    uint8_t *out;
    int64_t cap, n;
} writer_t;

static void put(writer_t *w, const void *p, int64_t len) {
    if (len > 0 && w->out && w->n + len <= w->cap) memcpy(w->out + w->n, p, (size_t)len);
    w->n += len;
}

typedef struct {
    const uint8_t *data;
    int64_t size, at;
} reader_t;

/* Copy len bytes into dst; 0 on overrun. */
static int take(reader_t *r, void *dst, int64_t len) {
    if (len < 0 || r->at + len > r->size) return 0;
    if (len) memcpy(dst, r->data + r->at, (size_t)len);
    r->at += len;
    return 1;
}

/* Copy len bytes into a fresh allocation of len + spare bytes; NULL and *ok 0 on
 * overrun. spare: the slack cc_game_new allocates, which cc_game_clone copies. */
static void *take_new(reader_t *r, int64_t len, int64_t spare, int *ok) {
    void *p = malloc(len + spare > 0 ? (size_t)(len + spare) : 1);
    if (!p || !take(r, p, len)) { free(p); *ok = 0; return NULL; }
    return p;
}

static int64_t cells_of(const cc_board *b) { return (int64_t)b->dim * b->dim; }

int64_t cc_game_save(const cc_game *g, uint8_t *out, int64_t cap) {
    if (!g || cap < 0 || (cap && !out)) return CC_ERR_ARG;
    const cc_board *b = g->board;
    writer_t w = {out, cap, 0};
    int32_t head[4] = {SAVE_MAGIC, SAVE_VERSION, (int32_t)sizeof *g, (int32_t)sizeof *b};
    put(&w, head, sizeof head);
    put(&w, g, sizeof *g);
    put(&w, g->tile_flags, g->ntypes);
    put(&w, g->stack, (int64_t)g->nstack * sizeof *g->stack);
    put(&w, g->rows, (int64_t)g->nrows * 5 * sizeof *g->rows);
    put(&w, g->events, (int64_t)g->nevents * CC_EVENT_INTS * sizeof *g->events);
    put(&w, g->history, (int64_t)g->nhistory * CC_HISTORY_INTS * sizeof *g->history);
    put(&w, b, sizeof *b);
    put(&w, b->grid, cells_of(b) * sizeof *b->grid);
    put(&w, b->need, cells_of(b) * sizeof *b->need);
    put(&w, b->in_front, cells_of(b) * sizeof *b->in_front);
    put(&w, b->front, (int64_t)b->nfront * sizeof *b->front);
    put(&w, b->tiles, (int64_t)b->ntiles * sizeof *b->tiles);
    put(&w, b->segs, (int64_t)b->ntiles * CC_MAX_SEGS * sizeof *b->segs);
    if (out && w.n > cap) return CC_ERR_FULL;
    return w.n;
}

static int in(int64_t v, int64_t lo, int64_t hi) { return in_range(v, lo, hi); }

/* The tiles' cells, what every cell's sides must show and the frontier, exactly as
 * placing the tiles one by one leaves them (cc_place): a later placement trusts each
 * (a frontier cell missing from `front` would make frontier_remove move a negative
 * length; a tile on the outermost ring, neighbours outside the grid). */
static int cells_sane(const cc_board *b, const cc_tileset *ts) {
    int64_t cells = cells_of(b), filled = 0, nfront = 0;
    const int dim = b->dim;
    for (int i = 0; i < b->ntiles; i++) {
        const placed_t *p = &b->tiles[i];
        int gx = p->x + b->origin, gy = p->y + b->origin;
        if (!in(p->type, 0, ts->n) || !in(p->rot, 0, 4) || !in(gx, 1, dim - 1) || !in(gy, 1, dim - 1)
            || b->grid[cell(b, p->x, p->y)] != i)
            return 0;
    }
    for (int64_t c = 0; c < cells; c++) {
        if (!in(b->grid[c], -1, b->ntiles)) return 0;
        filled += b->grid[c] >= 0;
    }
    if (filled != b->ntiles) return 0;  /* so cells and tiles match one to one */
    for (int64_t c = 0; c < cells; c++) {
        int gx = (int)(c % dim), gy = (int)(c / dim), near = 0, need = 0;
        for (int e = 0; e < 4; e++) {
            int nx = gx + DX[e], ny = gy + DY[e];
            if (!in(nx, 0, dim) || !in(ny, 0, dim) || b->grid[ny * dim + nx] < 0) continue;
            const placed_t *p = &b->tiles[b->grid[ny * dim + nx]];
            near = 1;
            need += (variant(b, p->type, p->rot)->def.edges[(e + 2) % 4] + 1) * NEED_PLACE[e];
        }
        int front = near && b->grid[c] < 0;
        if (b->need[c] != need || b->in_front[c] != front) return 0;
        nfront += front;
    }
    if (nfront != b->nfront) return 0;
    for (int i = 0; i < b->nfront; i++)  /* ascending, each a frontier cell: all of them */
        if (!in(b->front[i], 0, cells) || !b->in_front[b->front[i]] || (i && b->front[i] <= b->front[i - 1]))
            return 0;
    return 1;
}

/* What a segment slot's feature adds up to, worked out afresh (segs_sane). */
typedef struct {
    int32_t root, walk, into, ntiles, open, coats, nfig;  /* into: next links to it */
    int32_t count[CC_MAX_PLAYERS], strength[CC_MAX_PLAYERS];
} tally_t;

/* The root of s by the parent links, recorded in t; -1 on a cycle. Linear over all
 * segments: a walk stops at the first segment whose root is known. */
static int root_of(const cc_board *b, tally_t *t, int s) {
    int r = s;
    while (t[r].root < 0 && b->segs[r].parent != r) {
        if (t[r].walk == s + 1) return -1;  /* back on this walk's own path */
        t[r].walk = s + 1;
        r = b->segs[r].parent;
    }
    r = t[r].root >= 0 ? t[r].root : r;
    for (int q = s; t[q].root < 0; q = b->segs[q].parent) t[q].root = r;
    return r;
}

/* The union-find forest and the features' circular lists, as unions leave them (board.c
 * unite): a slot is used exactly where its tile has that segment; an unused slot stands
 * alone; a used one's parents lead without a cycle to a root of its kind; `next` runs
 * once round exactly the segments of each feature; every root's aggregates are its
 * members' and its figures'. A find on a cycle, or a walk along a list that never
 * comes back to its root (shared_tiles, the relinking in unite), would never return. */
static int segs_sane(const cc_board *b) {
    int nsegs = b->ntiles * CC_MAX_SEGS, ok = 1, used = 0, listed = 0;
    tally_t *t = calloc((size_t)nsegs, sizeof *t);
    if (!t) return 0;
    for (int s = 0; s < nsegs && ok; s++) {
        const seg_t *g = &b->segs[s];
        const placed_t *p = &b->tiles[s / CC_MAX_SEGS];
        const variant_t *v = variant(b, p->type, p->rot);
        int l = s % CC_MAX_SEGS;
        t[s].root = -1;
        if (l >= v->def.nseg) {
            ok = g->tile == -1 && g->parent == s && g->next == s;
            continue;
        }
        used++;
        ok = g->tile == s / CC_MAX_SEGS && g->local == l && g->kind == v->def.seg_kind[l]
             && in(g->parent, 0, nsegs) && in(g->next, 0, nsegs);
    }
    for (int s = 0; s < nsegs && ok; s++) {  /* both links stay among used segments of the kind */
        const seg_t *g = &b->segs[s];
        if (g->tile < 0) continue;
        ok = b->segs[g->parent].kind == g->kind && b->segs[g->parent].tile >= 0
             && b->segs[g->next].tile >= 0 && t[g->next].into++ == 0;  /* next: one to one */
    }
    for (int s = 0; s < nsegs && ok; s++) {
        if (b->segs[s].tile < 0) continue;
        int r = root_of(b, t, s);
        if (r < 0) { ok = 0; break; }
        const seg_t *g = &b->segs[s];
        const placed_t *p = &b->tiles[g->tile];
        const variant_t *v = variant(b, p->type, p->rot);
        int first = 1, base = s - g->local;
        for (int l = 0; l < g->local; l++)  /* R-BASE-6: each tile once per feature */
            if (t[base + l].root == r) first = 0;
        t[r].ntiles += first;
        t[r].coats += v->def.seg_coats[g->local];
    }
    for (int i = 0; i < b->ntiles && ok; i++) {  /* an edge is open while no tile faces it */
        const placed_t *p = &b->tiles[i];
        const variant_t *v = variant(b, p->type, p->rot);
        for (int e = 0; e < 4; e++)
            if (v->edge_seg[e] >= 0 && b->grid[cell(b, p->x + DX[e], p->y + DY[e])] < 0)
                t[t[i * CC_MAX_SEGS + v->edge_seg[e]].root].open++;
    }
    for (int f = 0; f < CC_MAX_FIGURES && ok; f++) {
        const figure_t *fg = &b->figs[f];
        if (fg->seg < 0) continue;
        tally_t *r = &t[t[fg->seg].root];
        r->nfig++;
        r->count[fg->player] += fg->scores;
        r->strength[fg->player] += fg->strength;
    }
    for (int r = 0; r < nsegs && ok; r++) {
        const seg_t *g = &b->segs[r];
        if (g->tile < 0 || g->parent != r) continue;
        int n = 0, s = r;
        do {  /* next is one to one, so this comes back to r */
            if (t[s].root != r) ok = 0;
            n++;
            s = b->segs[s].next;
        } while (s != r);
        listed += n;
        ok = ok && g->nsegs == n && g->ntiles == t[r].ntiles && g->coats == t[r].coats
             && g->open == t[r].open && g->nfig == t[r].nfig;
        for (int q = 0; q < CC_MAX_PLAYERS && ok; q++)
            ok = g->count[q] == t[r].count[q] && g->strength[q] == t[r].strength[q];
    }
    free(t);
    return ok && listed == used;  /* every used segment on its root's list */
}

/* Every index the board holds points inside it, and its structure is one that play
 * builds (cells_sane, segs_sane). */
static int board_sane(const cc_board *b, const cc_tileset *ts) {
    int64_t nsegs = (int64_t)b->ntiles * CC_MAX_SEGS;
    if (!cells_sane(b, ts)) return 0;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {  /* before segs_sane tallies them */
        const figure_t *fg = &b->figs[f];
        if (!in(fg->seg, -1, nsegs)) return 0;
        if (fg->seg < 0) continue;  /* a free slot */
        if (b->segs[fg->seg].tile < 0 || !in(fg->player, 0, CC_MAX_PLAYERS)
            || !in(fg->kind, CC_FIG_FOLLOWER, NFIGURE_KINDS) || !game_figure_rule(fg->kind)
            || !in(fg->strength, 0, 10)
            || !in(fg->scores, 0, 2))
            return 0;
    }
    return segs_sane(b);
}

/* The game's counts (its arrays are not read yet). */
static int game_sane(const cc_game *g, const cc_tileset *ts) {
    const cc_game_config *c = &g->cfg;
    if (!in(g->nplayers, 2, CC_MAX_PLAYERS + 1) || c->nplayers != g->nplayers || g->ntypes != ts->n
        || !in(g->nstack, 0, 3001) || !in(g->top, 0, g->nstack + 1) || !in(g->nagenda, 0, AGENDA_CAP + 1)
        || !in(g->seat, 0, g->nplayers) || !game_decision_known(g, g->dec_kind)
        || !in(g->dec_seat, 0, g->nplayers) || !in(g->nrows, 0, (int64_t)INT32_MAX / 5)
        || !in(g->nevents, 0, INT32_MAX / CC_EVENT_INTS) || !in(g->nhistory, 0, INT32_MAX / CC_HISTORY_INTS)
        || !in(g->drawn_type, -1, ts->n)
        || g->error != 0  /* a game that hit an error can go no further: no save of it loads */
        || !in(g->over, 0, 2) || (g->over && g->dec_kind != CC_DEC_NONE)  /* over: no decision */
        || !in(g->extra_turn, 0, 2))
        return 0;
    return 1;  /* the expansions' state: their check_state, with the rest (state_sane) */
}

/* What the game's steps, decisions and expansions index, against its board. */
static int state_sane(const cc_game *g) {
    const cc_board *b = g->board;
    for (int f = 0; f < CC_MAX_FIGURES; f++)
        if (b->figs[f].seg >= 0 && !in(b->figs[f].player, 0, g->nplayers)) return 0;
    /* the config and every seat's policies as cc_game_new checks them (the stack too) */
    if (game_check_config(g->ts, &g->cfg, g->stack, g->nstack, g->tile_flags, g->ntypes, g->seats) < 0)
        return 0;
    /* the pending decision's own fields: what its choices and apply index */
    if (g->dec_kind == CC_DEC_PLACE && (g->drawn_type < 0 || g->nrows < 1)) return 0;
    for (int i = 0; i < g->nrows && g->dec_kind == CC_DEC_PLACE; i++) {
        const int32_t *r = &g->rows[5 * i];
        if (!in(r[2], 0, 4) || !in(r[3], -1, NFIGURE_KINDS) || !in(r[4], ACTION_CODE_MIN, CC_MAX_SEGS))
            return 0;
    }
    for (int i = 0; i < g->nagenda; i++) {
        const step_t *s = &g->agenda[i];
        if (!game_step_known(g, s->kind)) return 0;  /* the base game's, or a unit's in play */
        if (s->kind == STEP_SCORE && !seg_valid(b, s->a)) return 0;
        if (s->kind == STEP_AWARD && (!in(s->a, 0, g->nplayers) || !in(s->c, 0, CC_NSOURCES))) return 0;
    }
    /* each expansion's own state and the steps and decisions it owns */
    for (int k = 0; k < game_nregistry; k++)
        if (game_registry[k]->check_state && !game_registry[k]->check_state(g)) return 0;
    /* points are added without overflow checks (game_add_points); a real game's stay far below */
    for (int s = 0; s < g->nplayers; s++) {
        if (!in(g->scores[s], 0, MAX_POINTS + 1)) return 0;
        for (int q = 0; q < CC_NSOURCES; q++)
            if (!in(g->points[s][q], 0, MAX_POINTS + 1)) return 0;
    }
    /* turn and decisions are counted up (turn++, ndecisions++): a turn per tile drawn
     * from the stack or town hall placed and one for final scoring, max_tiles at most */
    if (!in(g->turn, 0, b->max_tiles + 1) || !in(g->ndecisions, 0, MAX_DECISIONS + 1)) return 0;
    return 1;
}

/* A pending place decision's rows are derived state: the legal placements of the drawn
 * tile with their figure options (R-BASE-3/4), as play computes them. A save's rows
 * must be exactly those, or a damaged row would be offered and then refused by apply
 * (or answered by a policy that cannot). Recomputes them over the loaded board (the
 * greedy values with them) and compares; 1 when they agree. */
static int place_rows_as_played(cc_game *g) {
    if (g->dec_kind != CC_DEC_PLACE)
        return 1;
    int before = g->nrows;
    size_t size = (size_t)before * 5 * sizeof *g->rows;
    int32_t *saved = malloc(size ? size : 1);
    if (!saved)
        return 0;
    memcpy(saved, g->rows, size);
    int n = game_place_rows(g, g->drawn_type);
    int same = n == before && n > 0 && memcmp(saved, g->rows, size) == 0;
    free(saved);
    return same;
}

int cc_game_load(const cc_tileset *ts, const uint8_t *data, int64_t size, cc_game **out) {
    if (!ts || !data || size < 0 || !out) return CC_ERR_ARG;
    *out = NULL;
    reader_t r = {data, size, 0};
    int32_t head[4];
    if (!take(&r, head, sizeof head) || head[0] != SAVE_MAGIC || head[1] != SAVE_VERSION
        || head[2] != (int32_t)sizeof(cc_game) || head[3] != (int32_t)sizeof(cc_board))
        return CC_ERR_ARG;
    cc_game *g = calloc(1, sizeof *g);
    cc_board *b = calloc(1, sizeof *b);
    if (!g || !b) { free(g); free(b); return CC_ERR_NOMEM; }
    int ok = take(&r, g, sizeof *g);
    /* nothing the blob says about pointers is kept */
    g->ts = ts;
    g->board = NULL;
    g->tile_flags = NULL; g->stack = NULL; g->rows = NULL; g->values = NULL;
    g->events = NULL; g->history = NULL;
    /* the units in play from the config's bits (read only here), never the blob's pointers */
    if (ok) game_bind_units(g);
    ok = ok && game_sane(g, ts);
    if (ok) {
        g->tile_flags = take_new(&r, g->ntypes, 1, &ok);
        if (ok) g->stack = take_new(&r, (int64_t)g->nstack * sizeof *g->stack, sizeof *g->stack, &ok);
        g->rows_cap = g->nrows * 5 > 5 * 1024 ? g->nrows * 5 : 5 * 1024;
        if (ok && (g->rows = malloc((size_t)g->rows_cap * sizeof *g->rows)) == NULL) ok = 0;
        if (ok) ok = take(&r, g->rows, (int64_t)g->nrows * 5 * sizeof *g->rows);
        if (ok && (g->values = calloc((size_t)g->rows_cap / 5 + 1, sizeof *g->values)) == NULL) ok = 0;
        g->events_cap = g->nevents * CC_EVENT_INTS;
        g->history_cap = g->nhistory * CC_HISTORY_INTS;
        if (ok && g->nevents) g->events = take_new(&r, (int64_t)g->events_cap * sizeof *g->events, 0, &ok);
        if (ok && g->nhistory) g->history = take_new(&r, (int64_t)g->history_cap * sizeof *g->history, 0, &ok);
        if (!g->events) g->events_cap = 0;
        if (!g->history) g->history_cap = 0;
    }
    ok = ok && take(&r, b, sizeof *b);
    if (ok) {
        b->ts = ts;
        b->grid = NULL; b->need = NULL; b->in_front = NULL; b->front = NULL; b->front_cells = NULL;
        b->front_slot = NULL; b->free_slots = NULL; b->tiles = NULL;
        b->segs = NULL;
        b->fields = NULL;
        ok = b->max_tiles == game_max_tiles(&g->cfg, g->nstack) && b->dim == 2 * b->max_tiles + 3
             && b->origin == b->max_tiles + 1 && in(b->ntiles, 1, b->max_tiles + 1)
             && b->farm_points == g->cfg.farm_points
             && in(b->nfront, 0, 4 * (int64_t)b->max_tiles + 5);
    }
    if (ok) {
        int64_t cells = cells_of(b);
        b->grid = take_new(&r, cells * sizeof *b->grid, 0, &ok);
        if (ok) b->need = take_new(&r, cells * sizeof *b->need, 0, &ok);
        if (ok) b->in_front = take_new(&r, cells * sizeof *b->in_front, 0, &ok);
        if (ok && (b->front = malloc((4 * (size_t)b->max_tiles + 4) * sizeof *b->front)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->front, (int64_t)b->nfront * sizeof *b->front);
        size_t nslots = 4 * (size_t)b->max_tiles + 4;
        if (ok && ((b->front_cells = malloc(nslots * sizeof *b->front_cells)) == NULL
                   || (b->front_slot = malloc(nslots * sizeof *b->front_slot)) == NULL
                   || (b->free_slots = malloc(nslots * sizeof *b->free_slots)) == NULL))
            ok = 0;
        if (ok && (b->tiles = calloc((size_t)b->max_tiles, sizeof *b->tiles)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->tiles, (int64_t)b->ntiles * sizeof *b->tiles);
        if (ok && (b->segs = calloc((size_t)b->max_tiles * CC_MAX_SEGS, sizeof *b->segs)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->segs, (int64_t)b->ntiles * CC_MAX_SEGS * sizeof *b->segs);
        ok = ok && r.at == r.size && board_sane(b, ts);
        ok = ok && board_new_fields(b) == CC_OK;
        if (ok) board_flatten(b);  /* every parent a root, as play keeps them (find_const) */
        if (ok) board_front_cells(b);  /* derived from the grid, never taken from the blob */
    }
    if (ok) {  /* derived from the figures (as play keeps it), never taken from the blob */
        b->nfig_slots = 0;
        for (int f = 0; f < CC_MAX_FIGURES; f++)
            if (b->figs[f].seg >= 0) b->nfig_slots = f + 1;
    }
    g->board = b;
    ok = ok && state_sane(g) && place_rows_as_played(g);
    if (!ok) {
        cc_game_free(g);
        return CC_ERR_ARG;
    }
    *out = g;
    return CC_OK;
}

int cc_game_get_config(const cc_game *g, cc_game_config *out) {
    if (!g || !out)
        return CC_ERR_ARG;
    *out = g->cfg;
    return CC_OK;
}
