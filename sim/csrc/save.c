/* carcsim C core: a game's state as bytes and back (pickling, issue 13 item 3).
 * The layout is this build's own: a header naming the format and the struct sizes,
 * the game struct, its arrays, then the board's. Loading checks every count and
 * index before it trusts them, so a damaged or foreign blob is refused rather than
 * read out of bounds; plain values (scores, aggregates) are taken as they are. */
#include "game.h"

enum { SAVE_MAGIC = 0x31474343, SAVE_VERSION = 1 };  /* "CCG1" */

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

/* Copy len bytes into a fresh allocation (or into dst if given); NULL/0 on overrun. */
static int take(reader_t *r, void *dst, int64_t len) {
    if (len < 0 || r->at + len > r->size) return 0;
    if (len) memcpy(dst, r->data + r->at, (size_t)len);
    r->at += len;
    return 1;
}

static void *take_new(reader_t *r, int64_t len, int *ok) {
    void *p = malloc(len > 0 ? (size_t)len : 1);
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

static int in(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v < hi; }

/* Every index the board holds points inside it. */
static int board_sane(const cc_board *b, const cc_tileset *ts) {
    int64_t cells = cells_of(b), nsegs = (int64_t)b->ntiles * CC_MAX_SEGS;
    for (int64_t c = 0; c < cells; c++)
        if (!in(b->grid[c], -1, b->ntiles) || b->need[c] >= NEED_CODES || b->in_front[c] > 1) return 0;
    for (int i = 0; i < b->nfront; i++)
        if (!in(b->front[i], 0, cells) || (i && b->front[i] <= b->front[i - 1])) return 0;
    for (int i = 0; i < b->ntiles; i++) {
        const placed_t *p = &b->tiles[i];
        int c = cell(b, p->x, p->y);
        if (!in(p->type, 0, ts->n) || !in(p->rot, 0, 4) || c < 0 || b->grid[c] != i) return 0;
    }
    for (int64_t s = 0; s < nsegs; s++) {
        const seg_t *g = &b->segs[s];
        if (!in(g->parent, 0, nsegs) || !in(g->next, 0, nsegs) || !in(g->tile, -1, b->ntiles)
            || !in(g->kind, CC_CITY, CC_MONASTERY + 1) || !in(g->local, 0, CC_MAX_SEGS))
            return 0;
    }
    for (int64_t s = 0; s < nsegs; s++) {  /* parents lead to a root within nsegs steps */
        int64_t r = s, steps = 0;
        while (b->segs[r].parent != r && steps++ < nsegs) r = b->segs[r].parent;
        if (steps > nsegs) return 0;
    }
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        const figure_t *fg = &b->figs[f];
        if (!in(fg->seg, -1, nsegs) || !in(fg->player, 0, CC_MAX_PLAYERS)) return 0;
        if (fg->seg >= 0 && b->segs[fg->seg].tile < 0) return 0;
    }
    return 1;
}

/* The game's counts (its arrays are not read yet). */
static int game_sane(const cc_game *g, const cc_tileset *ts) {
    const cc_game_config *c = &g->cfg;
    if (!in(g->nplayers, 2, CC_MAX_PLAYERS + 1) || c->nplayers != g->nplayers || g->ntypes != ts->n
        || !in(g->nstack, 0, 3001) || !in(g->top, 0, g->nstack + 1) || !in(g->nagenda, 0, AGENDA_CAP + 1)
        || !in(g->seat, 0, g->nplayers) || !in(g->dec_kind, CC_DEC_NONE, CC_DEC_FIGURE + 1)
        || !in(g->dec_seat, 0, g->nplayers) || !in(g->nrows, 0, (int64_t)INT32_MAX / 5)
        || !in(g->nevents, 0, INT32_MAX / CC_EVENT_INTS) || !in(g->nhistory, 0, INT32_MAX / CC_HISTORY_INTS)
        || !in(g->drawn_type, -1, ts->n) || !in(g->msg.nchoices, 0, MSG_CHOICES_CAP + 1)
        || !in(g->msg.in_hand, -1, CC_NMSG) || !in(g->msg.deck_head, 0, CC_NMSG)
        || !in(g->msg.deck_n, 0, CC_NMSG + 1) || !in(g->msg.pending_seat, 0, g->nplayers)
        || !in(g->courier.nmoved, 0, MOVED_CAP + 1) || !in(g->river.edge, 0, 4)
        || !in(g->mm.ndue, 0, CC_MAX_PLAYERS + 1) || !in(g->mm.pending_fig, -1, CC_MAX_FIGURES)
        || ((c->expansions & CC_X_MAYORS) && !in(c->town_hall_type, 0, ts->n)))
        return 0;
    for (int i = 0; i < CC_NMSG; i++)
        if (!in(g->msg.deck[i], 0, CC_NMSG)) return 0;
    for (int i = 0; i < g->msg.nchoices; i++)
        if (!in(g->msg.choices[CC_MSG_CHOICE_INTS * i], CC_MSG_TWO, CC_NMSG)) return 0;
    return 1;
}

/* What the game's steps, decisions and expansions index, against its board. */
static int state_sane(const cc_game *g) {
    int64_t nsegs = (int64_t)g->board->ntiles * CC_MAX_SEGS;
    for (int i = 0; i < g->nstack; i++)
        if (!in(g->stack[i], 0, g->ts->n)) return 0;
    for (int i = 0; i < g->nrows; i++) {
        const int32_t *r = &g->rows[5 * i];
        if (g->dec_kind == CC_DEC_PLACE && (!in(r[2], 0, 4) || !in(r[3], -1, 4) || !in(r[4], -1, CC_MAX_SEGS)))
            return 0;
        if (g->dec_kind == CC_DEC_FIGURE && (!in(r[0], -1, 4) || !in(r[1], -1, CC_MAX_SEGS))) return 0;
        if (g->dec_kind > CC_DEC_MESSAGES && g->dec_kind != CC_DEC_FIGURE
            && (!in(r[0], CC_MM_CELL, CC_MM_RETURN + 1)
                || (r[0] == CC_MM_TARGET && !in(r[1], 0, g->dec_kind == CC_DEC_RIDE ? nsegs : CC_MAX_FIGURES))))
            return 0;
    }
    if (g->dec_kind > CC_DEC_MESSAGES && g->dec_kind != CC_DEC_TOWN_HALL && g->dec_kind != CC_DEC_FIGURE
        && !in(g->mm.pending_fig, 0, CC_MAX_FIGURES))
        return 0;  /* a favour, scarecrow or ride names its figure */
    if (g->dec_kind == CC_DEC_FIGURE && !in(g->placed_index, 0, g->board->ntiles)) return 0;
    for (int i = 0; i < g->mm.ndue; i++)
        if (!in(g->mm.due_seat[i], 0, g->nplayers) || !in(g->mm.due_fig[i], 0, CC_MAX_FIGURES)
            || !in(g->mm.due_road[i], 0, nsegs))
            return 0;
    for (int i = 0; i < g->nagenda; i++) {
        const step_t *s = &g->agenda[i];
        if (!in(s->kind, STEP_SCORE, STEP_LAST)) return 0;
        if (s->kind == STEP_SCORE && !in(s->a, 0, nsegs)) return 0;
        if ((s->kind == STEP_ACTIVATE || s->kind == STEP_RIDE) && !in(s->a, 0, CC_MAX_FIGURES)) return 0;
        if (s->kind == STEP_RIDE && !in(s->b, 0, nsegs)) return 0;
        if (s->kind == STEP_PLACE_FIGURE && (!in(s->a, -1, 4) || !in(s->b, -1, CC_MAX_SEGS))) return 0;
        if (s->kind == STEP_AWARD && (!in(s->a, 0, g->nplayers) || !in(s->c, 0, CC_NSOURCES))) return 0;
    }
    if (!in(g->msg.pending_source, 0, CC_NSOURCES)) return 0;
    for (int s = 0; s < CC_MAX_PLAYERS; s++)
        if (!in(g->msg.players[s].turn_figure, -1, 2)) return 0;
    for (int i = 0; i < g->msg.nchoices; i++) {
        const int32_t *c = &g->msg.choices[CC_MSG_CHOICE_INTS * i];
        if (c[0] == CC_MSG_SCORE && !in(c[1], 0, CC_MAX_FIGURES)) return 0;
    }
    for (int i = 0; i < g->courier.nmoved; i++)
        if (!in(g->courier.moved_fig[i], 0, CC_MAX_FIGURES) || !in(g->courier.moved_seg[i], 0, nsegs))
            return 0;
    return 1;
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
    ok = ok && game_sane(g, ts);
    if (ok) {
        g->tile_flags = take_new(&r, g->ntypes, &ok);
        if (ok) g->stack = take_new(&r, (int64_t)g->nstack * sizeof *g->stack, &ok);
        g->rows_cap = g->nrows * 5 > 5 * 1024 ? g->nrows * 5 : 5 * 1024;
        if (ok && (g->rows = malloc((size_t)g->rows_cap * sizeof *g->rows)) == NULL) ok = 0;
        if (ok) ok = take(&r, g->rows, (int64_t)g->nrows * 5 * sizeof *g->rows);
        if (ok && (g->values = calloc((size_t)g->rows_cap / 5 + 1, sizeof *g->values)) == NULL) ok = 0;
        g->events_cap = g->nevents * CC_EVENT_INTS;
        g->history_cap = g->nhistory * CC_HISTORY_INTS;
        if (ok && g->nevents) g->events = take_new(&r, (int64_t)g->events_cap * sizeof *g->events, &ok);
        if (ok && g->nhistory) g->history = take_new(&r, (int64_t)g->history_cap * sizeof *g->history, &ok);
        if (!g->events) g->events_cap = 0;
        if (!g->history) g->history_cap = 0;
    }
    ok = ok && take(&r, b, sizeof *b);
    if (ok) {
        b->ts = ts;
        b->grid = NULL; b->need = NULL; b->in_front = NULL; b->front = NULL; b->tiles = NULL;
        b->segs = NULL;
        ok = b->max_tiles == game_max_tiles(&g->cfg, g->nstack) && b->dim == 2 * b->max_tiles + 3
             && b->origin == b->max_tiles + 1 && in(b->ntiles, 1, b->max_tiles + 1)
             && in(b->nfront, 0, 4 * (int64_t)b->max_tiles + 5);
    }
    if (ok) {
        int64_t cells = cells_of(b);
        b->grid = take_new(&r, cells * sizeof *b->grid, &ok);
        if (ok) b->need = take_new(&r, cells * sizeof *b->need, &ok);
        if (ok) b->in_front = take_new(&r, cells * sizeof *b->in_front, &ok);
        if (ok && (b->front = malloc((4 * (size_t)b->max_tiles + 4) * sizeof *b->front)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->front, (int64_t)b->nfront * sizeof *b->front);
        if (ok && (b->tiles = calloc((size_t)b->max_tiles, sizeof *b->tiles)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->tiles, (int64_t)b->ntiles * sizeof *b->tiles);
        if (ok && (b->segs = calloc((size_t)b->max_tiles * CC_MAX_SEGS, sizeof *b->segs)) == NULL) ok = 0;
        if (ok) ok = take(&r, b->segs, (int64_t)b->ntiles * CC_MAX_SEGS * sizeof *b->segs);
        ok = ok && r.at == r.size && board_sane(b, ts);
    }
    g->board = b;
    ok = ok && state_sane(g);
    if (!ok) {
        cc_game_free(g);
        return CC_ERR_ARG;
    }
    *out = g;
    return CC_OK;
}
