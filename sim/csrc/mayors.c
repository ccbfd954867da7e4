/* carcsim C core: Messengers & Mayors (RULES.md 3; sim/expansions/mayors.py states the same rules).
 *
 * R-MM-1/3/4  A mayor goes on a city segment, occupied or not; strength 0, it scores
 *          (and shares) only when nobody present has more; home after its city scores.
 * R-MM-2   Knight's favour: a placement surrounding a mayor's tile lets its owner
 *          replace one opponent's standard follower in that city with one of theirs
 *          (one in supply); the mayor then goes home either way.
 * R-MM-5/6 The messenger meeple goes on a free road (strength 1). After its road is
 *          scored its owner returns it or lets it ride on from an end of that road: to
 *          an incomplete road ending at the same junction of the same tile, or into the
 *          incomplete city the road ends in, on any tile of it. Clockwise from the
 *          active seat, once every feature of the scoring phase is scored.
 * R-MM-7/8/9 A scarecrow goes on a field segment, occupied or not. Surrounded, its owner
 *          puts a follower there as a farmer (if one is in supply) and takes the
 *          scarecrow back, lays it down (a farmer of strength 1 for good), or takes it
 *          back. Standing, it never scores nor holds a majority.
 * R-MM-10  Instead of drawing, a town hall next to any tile, fitting every neighbour;
 *          never while the river flows (R-RIV-2); no figure on it.
 * R-MM-11  Crisis meeting: the mayors on the four tiles next to it go home unused.
 * R-MM-12  With the stack empty, a seat still holding its town hall must place it;
 *          the others pass; the game ends when every town hall is placed.
 * R-MM-13  What a town hall completes scores in that turn's phase 3.
 * RULES.md 6: favours and scarecrow activations come in step 1, right after the tile;
 * a placement with activations has its figure asked afterwards ("figure").
 */
#include "game.h"

typedef struct {
    int32_t supply[4];     /* by figure kind (CC_FIG_*; the follower's is cc_game.supply) */
    int32_t town_hall;     /* still in hand */
    int32_t placed[4], favours, scarecrows[3], rides, ride_points, town_hall_turn;
} mm_player_t;

enum { MM_SC_FARMER, MM_SC_LIE, MM_SC_RETURN };  /* scarecrow statistics, in order */

typedef struct {
    mm_player_t players[CC_MAX_PLAYERS];
    uint8_t rider[CC_MAX_FIGURES];     /* 1: a messenger that has ridden (ride points) */
    /* messengers whose road was scored this scoring phase (R-MM-6): one each at most */
    int32_t ndue, due_seat[CC_MAX_PLAYERS], due_fig[CC_MAX_PLAYERS], due_road[CC_MAX_PLAYERS];
    int32_t pending_fig;   /* the mayor, scarecrow or messenger of a waiting decision */
    int32_t extra_tile;    /* the town hall decision stands for a classic extra tile */
} mm_state_t;

extern const expansion_t mayors_expansion;

/* Messengers & Mayors' state, in the game's state area (game_state) */
static mm_state_t *state(cc_game *g) { return game_state(g, &mayors_expansion); }
static const mm_state_t *cstate(const cc_game *g) { return game_state_const(g, &mayors_expansion); }

/* its step kinds (local: game_step_kind), in the order a turn's steps run */
enum { MM_STEP_ACTIVATE, MM_STEP_PLACE_FIGURE, MM_STEP_FIGURE_OPTIONS, MM_STEP_RIDES, MM_STEP_RIDE,
       MM_NSTEPS };

static int push(cc_game *g, int local, int a, int b) {
    return game_push_step(g, &mayors_expansion, local, a, b, 0);
}

/* How a figure of each kind may be placed (sim/expansions/mayors.py RULES); the follower's is
 * game.c's. */
static const cc_figure_rule RULES[4] = {
    {CC_FIG_FOLLOWER, 0, 0, 0, 0},
    {CC_FIG_MAYOR, 1 << CC_CITY, 0, 0, 1},      /* R-MM-1, R-MM-3 */
    {CC_FIG_MESSENGER, 1 << CC_ROAD, 1, 1, 1},  /* R-MM-5 */
    {CC_FIG_SCARECROW, 1 << CC_FIELD, 0, 0, 0}, /* R-MM-7, R-MM-9 */
};

static const cc_figure_rule *mayors_rule(int kind) {
    return kind >= CC_FIG_MAYOR && kind <= CC_FIG_SCARECROW ? &RULES[kind] : NULL;
}

static void tile_xy(const cc_board *b, int seg, int *x, int *y) {
    const placed_t *p = &b->tiles[seg / CC_MAX_SEGS];
    *x = p->x;
    *y = p->y;
}

/* How many of the 4 orthogonal neighbours of (x, y) hold tiles. */
static int sides(const cc_board *b, int x, int y) {
    int n = 0;
    for (int e = 0; e < 4; e++) {
        int c = cell(b, x + DX[e], y + DY[e]);
        n += c >= 0 && b->grid[c] >= 0;
    }
    return n;
}

/* R-RIV-2: no town hall while another unit's tiles alone may go down (the river) */
static int river_flowing(const cc_game *g) { return game_placement_restricted(g); }

/* A mayor, or a scarecrow still standing: what a surrounding placement activates. */
static int activates(const figure_t *f) {
    return f->seg >= 0 && (f->kind == CC_FIG_MAYOR || (f->kind == CC_FIG_SCARECROW && !f->scores));
}

int cc_activating_cells(const cc_board *b, int32_t *xy, int cap) {
    if (!b || cap < 0 || (cap && !xy)) return CC_ERR_ARG;
    int n = 0;
    for (int f = 0; f < b->nfig_slots; f++) {
        if (!activates(&b->figs[f])) continue;
        int tx, ty;
        tile_xy(b, b->figs[f].seg, &tx, &ty);
        if (sides(b, tx, ty) != 3) continue;
        for (int e = 0; e < 4; e++) {
            int c = cell(b, tx + DX[e], ty + DY[e]);
            if (c < 0 || b->grid[c] >= 0) continue;
            if (n + 2 > cap) return CC_ERR_FULL;
            xy[n++] = tx + DX[e];
            xy[n++] = ty + DY[e];
        }
    }
    return n / 2;
}

/* RULES.md 6: a placement surrounding a mayor's or a standing scarecrow's tile has its
 * figure asked after the activations */
static int mayors_deferred_cells(const cc_game *g, int32_t *xy, int cap) {
    return cc_activating_cells(g->board, xy, cap);
}

static int mayors_in_supply(const cc_game *g, int seat, int kind) {
    return cstate(g)->players[seat].supply[kind];
}

static void mayors_supply_change(cc_game *g, int seat, int kind, int delta, int placed) {
    mm_player_t *p = &state(g)->players[seat];
    p->supply[kind] += delta;
    if (placed) p->placed[kind] -= delta;  /* the statistics' placed figures */
}

static int mayors_complement(const cc_game *g, int kind) { (void)g, (void)kind; return 1; }

static int mayors_check_config(const cc_tileset *ts, const cc_game_config *c) {
    return c->town_hall_type < 0 || c->town_hall_type >= ts->n
           || (c->town_halls_at_end != 0 && c->town_halls_at_end != 1) ? CC_ERR_ARG : 0;
}

/* greedy's road_figure (place [0], figure [1]): 0 its own choice, else 1 + the kind it
 * puts on a road where a follower and the messenger may both go (R-MM-5) */
static int mayors_check_seat(const cc_seat_policy *p) {
    for (int i = 0; i < 2; i++)
        if (p->road_figure[i] != 0 && p->road_figure[i] != 1 + CC_FIG_FOLLOWER
            && p->road_figure[i] != 1 + CC_FIG_MESSENGER)
            return CC_ERR_ARG;
    return 0;
}

static int mayors_extra_tiles(const cc_game_config *c) { return c->nplayers; }  /* town halls */

static int mayors_places_instead(const cc_game *g, int seat) { return cstate(g)->players[seat].town_hall; }

static void mayors_start(cc_game *g) {
    mm_state_t *m = state(g);
    memset(m, 0, sizeof *m);
    for (int s = 0; s < CC_MAX_PLAYERS; s++) {
        for (int k = CC_FIG_MAYOR; k <= CC_FIG_SCARECROW; k++) m->players[s].supply[k] = 1;
        m->players[s].town_hall = 1;
    }
    m->pending_fig = -1;
}

static void mayors_figure_removed(cc_game *g, int fig) { state(g)->rider[fig] = 0; }

/* ---------------------------------------------------------------- choices */

static int set_row(cc_game *g, int i, int code, int a, int b) {
    if (5 * (int64_t)(i + 1) > g->rows_cap) {
        int rc = game_grow_rows(g, 5 * (int64_t)(i + 1));
        if (rc < 0) return rc;
    }
    int32_t *r = &g->rows[5 * i];
    r[0] = code;
    r[1] = a;
    r[2] = b;
    r[3] = r[4] = 0;
    return 0;
}

static int decide(cc_game *g, int kind, int seat, int n) {
    g->nrows = n;
    g->dec_kind = kind;
    g->dec_seat = seat;
    return 1;
}

/* The town hall decision of the active seat: `first` (CC_MM_DRAW, CC_MM_END or -1)
 * then every cell next to a placed tile (R-MM-10: it fits everywhere), by y, x. */
static int town_hall_decision(cc_game *g, int first) {
    const cc_board *b = g->board;
    int n = first >= 0, pol = g->seats[g->seat].town_hall;
    if (first >= 0 && (pol == CC_POL_FIRST || pol == CC_POL_GREEDY)) {
        /* this seat's own policy answers in C and takes row 0 whatever rows follow
         * (policy_mayors: draw while there is a tile), so the cells are not listed: a
         * seat holding its town hall (R-MM-10) is asked every turn, over the whole
         * frontier */
        int rc = set_row(g, 0, first, 0, 0);
        return rc < 0 ? rc : decide(g, CC_DEC_TOWN_HALL, g->seat, 1);
    }
    /* a row per legal placement, as cc_legal_placements lists them, read off the
     * frontier (at most 4 rotations of each of its cells) */
    int rc = game_grow_rows(g, 5 * (4 * (int64_t)b->nfront + 1));
    if (rc < 0) return rc;
    if (first >= 0) set_row(g, 0, first, 0, 0);
    front_iter_t it;
    front_begin(b, g->cfg.town_hall_type, &it);
    int x, y;
    unsigned fits;
    while (front_next(&it, &x, &y, &fits))
        for (; fits; fits &= fits - 1) set_row(g, n++, CC_MM_CELL, x, y);
    return decide(g, CC_DEC_TOWN_HALL, g->seat, n);
}

/* At a turn's start (or for a classic message-4 extra tile) the active seat may place
 * its town hall instead of drawing (R-MM-10, never while the river flows, R-RIV-2);
 * an extra tile with nothing left to draw can only be the town hall. */
static int mayors_begin_draw(cc_game *g, int extra_tile) {
    int left = game_tiles_left(g);
    mm_state_t *m = state(g);
    if (!m->players[g->seat].town_hall || river_flowing(g) || !(left || extra_tile)) return 0;
    m->extra_tile = extra_tile;
    return town_hall_decision(g, left ? CC_MM_DRAW : -1);
}

/* R-MM-12: the next seat from the active one still holding its town hall must place
 * it; with town_halls_at_end 0 (scripted games) it may also end the game there. */
static int mayors_no_tile(cc_game *g) {
    if (river_flowing(g)) return 0;
    mm_state_t *m = state(g);
    for (int k = 0; k < g->nplayers; k++) {
        int seat = (g->seat + k) % g->nplayers;
        if (!m->players[seat].town_hall) continue;
        g->seat = seat;
        m->extra_tile = 0;
        return town_hall_decision(g, g->cfg.town_halls_at_end ? -1 : CC_MM_END);
    }
    return 0;
}

/* ---------------------------------------------------------------- activations */

/* Figures a placement at (x, y) surrounded, in the order they act: clockwise from the
 * active seat, each seat's mayor before its scarecrow (R-MM-2, R-MM-8). */
static int activations(const cc_game *g, int x, int y, int32_t *out) {
    const cc_board *b = g->board;
    int32_t key[CC_MAX_FIGURES];
    int n = 0;
    for (int f = 0; f < b->nfig_slots; f++) {  /* by id: equal keys stay in id order */
        const figure_t *fg = &b->figs[f];
        if (!activates(fg)) continue;
        int tx, ty;
        tile_xy(b, fg->seg, &tx, &ty);
        if (abs(tx - x) + abs(ty - y) != 1 || sides(b, tx, ty) != 4) continue;
        int32_t k = ((fg->player - g->seat + g->nplayers) % g->nplayers) * 4 + fg->kind;
        int j = n++;
        for (; j > 0 && key[j - 1] > k; j--) {  /* insertion: clockwise seat, then kind */
            key[j] = key[j - 1];
            out[j] = out[j - 1];
        }
        key[j] = k;
        out[j] = f;
    }
    return n;
}

/* The rest of a turn after a placement at (x, y): step 1 activations, step 2 the
 * figure (chosen with the tile, or asked after the activations), step 3 scoring and
 * rides. figure < -1: a town hall (no figure at all). */
static int turn_steps(cc_game *g, int x, int y, const int32_t *done, int nd, int figure, int local) {
    int32_t acts[CC_MAX_FIGURES];
    int na = activations(g, x, y, acts);
    int rc = game_push(g, STEP_END_ROUND, ROUND_TURN, 0, 0);
    if (rc == 0) rc = push(g, MM_STEP_RIDES, 0, 0);
    for (int i = nd - 1; i >= 0 && rc == 0; i--) rc = game_push(g, STEP_SCORE, done[i], 0, 0);
    if (rc == 0 && figure >= -1)
        rc = na ? push(g, MM_STEP_FIGURE_OPTIONS, 0, 0) : push(g, MM_STEP_PLACE_FIGURE, figure, local);
    for (int i = na - 1; i >= 0 && rc == 0; i--) rc = push(g, MM_STEP_ACTIVATE, acts[i], 0);
    return rc;
}

static int mayors_after_tile(cc_game *g, int x, int y, const int32_t *done, int nd, int figure, int local) {
    int rc = turn_steps(g, x, y, done, nd, figure, local);
    return rc < 0 ? rc : 1;
}

/* Step 2: the chosen figure onto the tile just placed; a mayor or scarecrow on an
 * already surrounded tile activates at once (R-MM-2, R-MM-8). */
static int step_place_figure(cc_game *g, int figure, int local) {
    if (figure < 0 || local < 0) return game_place_figure(g, g->seat, figure, local);  /* none, an action */
    int f = game_place_figure(g, g->seat, figure, local);
    if (f < 0) return f;
    const placed_t *p = &g->board->tiles[g->placed_index];
    if ((figure == CC_FIG_MAYOR || figure == CC_FIG_SCARECROW) && sides(g->board, p->x, p->y) == 4)
        return push(g, MM_STEP_ACTIVATE, f, 0);
    return 0;
}

/* Step 2 after activations: (-1, -1) for none, then per local segment one row per
 * figure rule the seat may use there: a follower or messenger only on a feature
 * holding no figure (R-BASE-4, R-MM-5), a mayor or scarecrow on any city or field;
 * then the step-2 actions (kind, code) the seat may take (R-ABB-5). */
static int step_figure_options(cc_game *g) {
    const cc_board *b = g->board;
    const placed_t *p = &b->tiles[g->placed_index];
    const variant_t *v = variant(b, p->type, p->rot);
    cc_figure_rule rules[NFIGURE_KINDS];
    int nr = game_figure_rules(g, g->seat, rules), n = 0, rc = set_row(g, n++, -1, -1, 0);
    for (int local = 0; local < v->def.nseg && rc == 0; local++) {
        int seg = g->placed_index * CC_MAX_SEGS + local;
        int free = b->segs[find_const(b, seg)].nfig == 0;
        for (int r = 0; r < nr && rc == 0; r++)
            if ((rules[r].segment_kinds >> v->def.seg_kind[local] & 1) && (free || !rules[r].needs_free))
                rc = set_row(g, n++, rules[r].kind, local, 0);
    }
    int32_t acts[2 * ACTIONS_CAP];
    int na = rc < 0 ? 0 : game_actions(g, g->seat, acts, ACTIONS_CAP);
    if (na < 0) return na;
    for (int a = 0; a < na && rc == 0; a++) rc = set_row(g, n++, acts[2 * a], acts[2 * a + 1], 0);
    if (rc < 0) return rc;
    if (n > 1) decide(g, CC_DEC_FIGURE, g->seat, n);
    return 0;
}

static int step_activate(cc_game *g, int fig) {
    const cc_board *b = g->board;
    const figure_t *f = &b->figs[fig];
    if (f->seg < 0 || (f->kind != CC_FIG_MAYOR && f->kind != CC_FIG_SCARECROW)) return 0;  /* gone home */
    int owner = f->player, n = 0, rc = 0;
    state(g)->pending_fig = fig;
    if (f->kind == CC_FIG_MAYOR) {
        int32_t figs[CC_MAX_FIGURES];
        int nf = cc_feature_figures(b, f->seg, figs, CC_MAX_FIGURES);
        if (nf < 0) return nf;
        rc = set_row(g, n++, CC_MM_NONE, 0, 0);
        for (int i = 0; i < nf && rc == 0; i++) {
            const figure_t *t = &b->figs[figs[i]];
            if (t->kind == CC_FIG_FOLLOWER && t->player != owner) rc = set_row(g, n++, CC_MM_TARGET, figs[i], 0);
        }
        if (rc < 0) return rc;
        if (g->supply[owner] > 0 && n > 1) return decide(g, CC_DEC_FAVOUR, owner, n);
        rc = game_return_figure(g, fig);  /* R-MM-2: home, the favour unused */
        int32_t v[2] = {0, -1};
        game_emit(g, CC_EV_FAVOUR, g->turn, owner, 2, v);
        return rc;
    }
    if (g->supply[owner] > 0) rc = set_row(g, n++, CC_MM_FARMER, 0, 0);
    if (rc == 0) rc = set_row(g, n++, CC_MM_LIE, 0, 0);
    if (rc == 0) rc = set_row(g, n++, CC_MM_RETURN, 0, 0);
    return rc < 0 ? rc : decide(g, CC_DEC_SCARECROW, owner, n);
}

static int apply_favour(cc_game *g, const int32_t *row) {
    int mayor = state(g)->pending_fig, owner = g->board->figs[mayor].player, seg = -1, rc = 0;
    if (row[0] == CC_MM_TARGET) {
        seg = g->board->figs[row[1]].seg;
        rc = game_return_figure(g, row[1]);
        /* the owner's follower in its place; game_put_figure lists it for the Courier
         * whoever's turn it is (R-COU-4), so it is not listed again here */
        int f = rc < 0 ? rc : game_put_figure(g, owner, CC_FIG_FOLLOWER, seg);
        if (f < 0) return f;
        state(g)->players[owner].favours++;
    }
    rc = game_return_figure(g, mayor);  /* R-MM-2: home either way */
    int32_t v[2] = {seg >= 0, seg};
    game_emit(g, CC_EV_FAVOUR, g->turn, owner, 2, v);
    return rc;
}

static int apply_scarecrow(cc_game *g, const int32_t *row) {
    int fig = state(g)->pending_fig, rc = 0;
    const figure_t f = g->board->figs[fig];
    int choice = row[0] - CC_MM_FARMER;  /* MM_SC_FARMER, MM_SC_LIE, MM_SC_RETURN */
    /* the statistics are indexed by it: a row of another code (a damaged load; save.c
     * refuses it too) must not count outside them */
    if (choice < MM_SC_FARMER || choice > MM_SC_RETURN) return CC_ERR_ARG;
    state(g)->players[f.player].scarecrows[choice]++;
    if (choice == MM_SC_LIE) {
        rc = cc_figure_set(g->board, fig, 1, 1);  /* a farmer of strength 1 for good */
    } else {
        rc = game_return_figure(g, fig);
        if (rc == 0 && choice == MM_SC_FARMER) rc = game_put_figure(g, f.player, CC_FIG_FOLLOWER, f.seg);
    }
    if (rc < 0) return rc;
    int32_t v[2] = {choice, f.seg};
    game_emit(g, CC_EV_SCARECROW, g->turn, f.player, 2, v);
    return 0;
}

/* ---------------------------------------------------------------- rides */

static int mayors_keeps(cc_game *g, int fig, int root, int kind) {
    const figure_t *f = &g->board->figs[fig];
    if (f->kind != CC_FIG_MESSENGER || kind != CC_ROAD) return 0;
    mm_state_t *m = state(g);
    if (m->ndue >= CC_MAX_PLAYERS) return CC_ERR_FULL;
    m->due_seat[m->ndue] = f->player;
    m->due_fig[m->ndue] = fig;
    m->due_road[m->ndue++] = root;
    return 1;  /* R-MM-6: it stays to ride on */
}

static void mayors_scored(cc_game *g, int root, int winners, int value) {
    const cc_board *b = g->board;
    mm_state_t *m = state(g);
    for (int f = 0; f < b->nfig_slots; f++)  /* ride points: what ridden messengers win */
        if (m->rider[f] && b->figs[f].seg >= 0 && find_const(b, b->figs[f].seg) == root
            && (winners >> b->figs[f].player & 1))
            m->players[b->figs[f].player].ride_points += value;
}

/* R-MM-6: once every feature is scored, the messengers whose roads were scored ride,
 * clockwise from the active seat. */
static int step_rides(cc_game *g) {
    mm_state_t *m = state(g);
    int order[CC_MAX_PLAYERS], n = 0, rc = 0;
    for (int k = 0; k < g->nplayers; k++)
        for (int i = 0; i < m->ndue; i++)
            if (m->due_seat[i] == (g->seat + k) % g->nplayers) order[n++] = i;
    for (int j = n - 1; j >= 0 && rc == 0; j--)
        rc = push(g, MM_STEP_RIDE, m->due_fig[order[j]], m->due_road[order[j]]);
    m->ndue = 0;
    return rc;
}

static int add_root(int32_t *roots, int n, int r) {
    for (int i = 0; i < n; i++)
        if (roots[i] == r) return n;
    roots[n] = r;
    return n + 1;
}

/* The segments a messenger may ride to from the ends of the scored road: every segment
 * of an incomplete road ending at the same junction (village, monastery) of the same
 * tile, or of the incomplete city the road enters by a gate; ascending, written to
 * out[0], out[stride], ... (cap of them at most; out NULL with cap 0 counts them).
 * Returns how many, or CC_ERR_FULL. */
static int ride_targets(const cc_board *b, int road, int32_t *out, int stride, int cap) {
    int32_t roots[4 * CC_MAX_SEGS * 2];
    int nroots = 0;
    int start = find_const(b, road), s = start;
    do {
        const placed_t *p = &b->tiles[s / CC_MAX_SEGS];
        const variant_t *v = variant(b, p->type, p->rot);
        int local = s % CC_MAX_SEGS, end = v->road_end[local], base = s - local;
        if (end == CC_END_VILLAGE || end == CC_END_MONASTERY) {
            for (int o = 0; o < v->def.nseg; o++)
                if (o != local && v->def.seg_kind[o] == CC_ROAD && v->road_end[o] == end
                    && nroots < (int)(sizeof roots / sizeof *roots))
                    nroots = add_root(roots, nroots, find_const(b, base + o));
        } else if (end >= CC_END_GATE && nroots < (int)(sizeof roots / sizeof *roots)) {
            nroots = add_root(roots, nroots, find_const(b, base + end - CC_END_GATE));
        }
        s = b->segs[s].next;
    } while (s != start);
    int n = 0;
    for (int i = 0; i < nroots; i++) {
        const seg_t *r = &b->segs[roots[i]];
        if (r->open == 0) continue;  /* complete: no ride there */
        int t = roots[i];
        do {
            if (out) {
                if (n >= cap) return CC_ERR_FULL;
                out[(size_t)n * stride] = t;
            }
            n++;
            t = b->segs[t].next;
        } while (t != roots[i]);
    }
    for (int i = 1; out && i < n; i++) {  /* insertion sort of the targets by segment */
        int32_t seg = out[(size_t)i * stride];
        int j = i;
        for (; j > 0 && out[(size_t)(j - 1) * stride] > seg; j--) out[(size_t)j * stride] = out[(size_t)(j - 1) * stride];
        out[(size_t)j * stride] = seg;
    }
    return n;
}

int cc_ride_targets(const cc_board *b, int road, int32_t *out, int cap) {
    if (!b || cap < 0 || (cap && !out) || !seg_valid(b, road)) return CC_ERR_ARG;
    if (b->segs[road].kind != CC_ROAD) return CC_ERR_ARG;
    return ride_targets(b, road, cap ? out : NULL, 1, cap);
}

static int step_ride(cc_game *g, int fig, int road) {
    const cc_board *b = g->board;
    const figure_t *f = &b->figs[fig];
    if (f->seg < 0) return 0;
    int n = ride_targets(b, road, NULL, 5, 0), rc = 0;
    for (int i = n; i >= 0 && rc == 0; i--)  /* the last row first: one growth at most */
        rc = set_row(g, i, i ? CC_MM_TARGET : CC_MM_RETURN, 0, 0);
    if (rc == 0 && n > 0) rc = ride_targets(b, road, &g->rows[5 + 1], 5, n);
    if (rc < 0) return rc;
    state(g)->pending_fig = fig;
    return decide(g, CC_DEC_RIDE, f->player, n + 1);
}

static int apply_ride(cc_game *g, const int32_t *row) {
    int fig = state(g)->pending_fig, owner = g->board->figs[fig].player;
    if (row[0] == CC_MM_RETURN) {
        int rc = game_return_figure(g, fig);
        int32_t v[2] = {0, -1};
        game_emit(g, CC_EV_RIDE, g->turn, owner, 2, v);
        return rc;
    }
    int seg = row[1];
    int rc = cc_figure_remove(g->board, fig);
    if (rc < 0) return rc;
    game_figure_removed(g, fig);  /* it moves on: counted again below, as moved now */
    const cc_figure_rule *r = &RULES[CC_FIG_MESSENGER];
    int f = cc_figure_add(g->board, owner, CC_FIG_MESSENGER, r->strength, r->scores, seg);
    if (f < 0) return f;
    mm_state_t *m = state(g);
    m->rider[f] = 1;
    m->players[owner].rides++;
    game_figure_moved(g, f, seg);
    int32_t v[2] = {1, seg};
    game_emit(g, CC_EV_RIDE, g->turn, owner, 2, v);
    return 0;
}

/* ---------------------------------------------------------------- town hall */

static int apply_town_hall(cc_game *g, const int32_t *row) {
    if (row[0] == CC_MM_END) return game_final_scoring(g);
    mm_state_t *m = state(g);
    int extra = m->extra_tile;
    m->extra_tile = 0;
    if (row[0] == CC_MM_DRAW) {
        /* nothing placeable left: at a turn's start R-MM-12 follows at once, or the
         * end; inside a turn (a classic extra tile) the turn simply goes on */
        int rc = game_draw_for_turn(g);
        if (rc < 0) return rc;
        return rc == 0 && !extra ? game_end_or_force(g) : 0;
    }
    int x = row[1], y = row[2];
    int32_t done[CC_MAX_COMPLETED];
    int nd = cc_place(g->board, g->cfg.town_hall_type, x, y, 0, done, CC_MAX_COMPLETED);
    if (nd < 0) return nd;
    mm_player_t *me = &m->players[g->seat];
    g->turn++;
    g->placed_index = g->board->ntiles - 1;
    me->town_hall = 0;
    me->town_hall_turn = g->turn;
    int32_t v[2] = {x, y};
    game_emit(g, CC_EV_TOWNHALL, g->turn, g->seat, 2, v);
    const cc_board *b = g->board;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {  /* R-MM-11: the crisis meeting */
        const figure_t *fg = &b->figs[f];
        if (fg->seg < 0 || fg->kind != CC_FIG_MAYOR) continue;
        int tx, ty, seat = fg->player;
        tile_xy(b, fg->seg, &tx, &ty);
        if (abs(tx - x) + abs(ty - y) != 1) continue;
        int rc = game_return_figure(g, f);
        if (rc < 0) return rc;
        int32_t w[2] = {tx, ty};
        game_emit(g, CC_EV_CRISIS, g->turn, seat, 2, w);
    }
    return turn_steps(g, x, y, done, nd, -2, -1);  /* R-MM-13: scored in phase 3 */
}

/* ---------------------------------------------------------------- hooks */

static int mayors_step(cc_game *g, int local, const step_t *s) {
    int rc;
    switch (local) {
    case MM_STEP_ACTIVATE: rc = step_activate(g, s->a); break;
    case MM_STEP_PLACE_FIGURE: rc = step_place_figure(g, s->a, s->b); break;
    case MM_STEP_FIGURE_OPTIONS: rc = step_figure_options(g); break;
    case MM_STEP_RIDES: rc = step_rides(g); break;
    case MM_STEP_RIDE: rc = step_ride(g, s->a, s->b); break;
    default: return 0;
    }
    return rc < 0 ? rc : 1;
}

/* Messengers & Mayors decisions: rows of 5 in g->rows ({code, a, b, 0, 0}; the
 * figure decision {kind, local, 0, 0, 0}), the first 3 ints recorded. */
static int mm_nchoices(const cc_game *g) { return g->nrows; }

static void mm_record(const cc_game *g, int idx, int32_t *v) { memcpy(v, &g->rows[5 * idx], 3 * sizeof *v); }

static int mm_describe(const cc_game *g, int32_t *head, int32_t *choices, int cap) {
    int n = g->nrows;
    if (5 * (int64_t)n > cap) return CC_ERR_FULL;
    head[2] = g->dec_kind == CC_DEC_TOWN_HALL ? g->cfg.town_hall_type
            : g->dec_kind == CC_DEC_FIGURE ? g->board->tiles[g->placed_index].type : -1;
    memcpy(choices, g->rows, (size_t)n * 5 * sizeof *choices);
    return n;
}

static int mm_apply(cc_game *g, int kind, int idx) {
    int32_t r[5];
    memcpy(r, &g->rows[5 * idx], sizeof r);  /* the rows buffer is rewritten by the next decision */
    int rc;
    switch (kind) {
    case CC_DEC_TOWN_HALL: rc = apply_town_hall(g, r); break;
    case CC_DEC_FAVOUR: rc = apply_favour(g, r); break;
    case CC_DEC_SCARECROW: rc = apply_scarecrow(g, r); break;
    case CC_DEC_RIDE: rc = apply_ride(g, r); break;
    case CC_DEC_FIGURE: rc = step_place_figure(g, r[0], r[1]); break;
    default: return CC_ERR_ARG;
    }
    state(g)->pending_fig = -1;
    return rc < 0 ? rc : 0;
}

/* ---------------------------------------------------------------- built-in policies
 * (strategies/greedy.py documents greedy's; first and random as for every decision) */

/* greedy's road_figure (1 + a figure kind, 0 none): the follower or messenger meeple
 * of row `idx` swapped for the other one on a road wherever both are allowed; the
 * figure kind is at column `at` of the rows, its local segment at `at` + 1. */
static int road_figure(const cc_game *g, int want, const variant_t *v, int idx, int at) {
    const int32_t *r = &g->rows[5 * idx];
    int kind = r[at], local = r[at + 1];
    if (!want || (kind != CC_FIG_FOLLOWER && kind != CC_FIG_MESSENGER) || kind == want - 1
        || local < 0 || v->def.seg_kind[local] != CC_ROAD)
        return idx;
    for (int k = 0; k < g->nrows; k++) {
        const int32_t *o = &g->rows[5 * k];
        int same = 1;
        for (int c = 0; c < 5 && same; c++) same = c == at ? o[c] == want - 1 : o[c] == r[c];
        if (same) return k;
    }
    return idx;
}

/* greedy's place decision: road_figure[0]'s swap of its chosen row (R-MM-5) */
static int mayors_greedy_place(const cc_game *g, const cc_seat_policy *p, int best) {
    const variant_t *v = variant(g->board, g->drawn_type, g->rows[5 * best + 2]);
    return road_figure(g, p->road_figure[0], v, best, 3);
}

/* greedy's figure after activations (strategies/greedy.py): per option my gain
 * minus `opponent` x the others' mean gain, for its one feature: the weighted final
 * value if it stays open, its points if it is complete now; minus the follower's cost
 * (follower x tiles left / tiles in play) unless it scores now. Ties: the first. */
static int greedy_figure(const cc_game *g, const cc_seat_policy *p) {
    const cc_board *b = g->board;
    int n = g->nplayers, me = g->dec_seat, left = game_tiles_left(g), best = 0;
    double cost = p->figure_follower * left / (left + b->ntiles), best_value = 0.0;
    const placed_t *t = &b->tiles[g->placed_index];
    for (int k = 1; k < g->nrows; k++) {
        if (g->rows[5 * k + 1] < 0) {  /* an action (R-ABB-5), valued by its owner */
            cc_greedy_params gp = {me, n, {0}, p->figure_opponent, cost};
            memcpy(gp.open_weight, p->figure_weight, sizeof gp.open_weight);
            int32_t row[5] = {t->x, t->y, t->rot, g->rows[5 * k], g->rows[5 * k + 1]};
            double value = game_action_value(g, &gp, row, 0);
            if (value > best_value) {
                best = k;
                best_value = value;
            }
            continue;
        }
        int kind = g->rows[5 * k], seg = g->placed_index * CC_MAX_SEGS + g->rows[5 * k + 1];
        const seg_t *r = &b->segs[find_const(b, seg)];
        int32_t f[8];
        int rc = cc_feature_info(b, seg, f, 8);
        if (rc < 0) return rc;
        int now = f[5] && r->kind != CC_FIELD;  /* complete: it scores this turn */
        double worth = feature_value(b, seg, !now);
        if (!now) worth *= p->figure_weight[r->kind == CC_GARDEN ? CC_MONASTERY : r->kind];
        uint16_t count[CC_MAX_PLAYERS], strength[CC_MAX_PLAYERS];
        memcpy(count, r->count, sizeof count);
        memcpy(strength, r->strength, sizeof strength);
        int before[CC_MAX_PLAYERS];
        for (int q = 0; q < n; q++) before[q] = holds_majority(count, strength, n, q);
        const cc_figure_rule *rule = kind == CC_FIG_FOLLOWER ? NULL : game_figure_rule(kind);
        count[me] = (uint16_t)(count[me] + (rule ? rule->scores : 1));
        strength[me] = (uint16_t)(strength[me] + (rule ? rule->strength : 1));
        double gain[CC_MAX_PLAYERS] = {0}, sum = 0.0;
        for (int q = 0; q < n; q++) {
            gain[q] = worth * (holds_majority(count, strength, n, q) - before[q]);
            sum += gain[q];
        }
        double others = sum - gain[me];
        double value = gain[me] - p->figure_opponent * others / (n - 1 > 1 ? n - 1 : 1) - cost * !now;
        if (value > best_value) {
            best = k;
            best_value = value;
        }
    }
    return road_figure(g, p->road_figure[1], variant(b, t->type, t->rot), best, 0);
}

/* greedy's ride: the target feature worth most in final scoring, the first of equals;
 * home when there is none. */
static int greedy_ride(const cc_game *g) {
    int best = 0, top = 0;
    for (int k = 1; k < g->nrows; k++) {
        int v = feature_value(g->board, g->rows[5 * k + 1], 1);
        if (v < 0) return v;
        if (best == 0 || v > top) { best = k; top = v; }
    }
    return best;
}

static int policy_mayors(cc_game *g) {
    const cc_seat_policy *p = &g->seats[g->dec_seat];
    int kind = g->dec_kind;
    int pol = kind == CC_DEC_FIGURE ? p->figure : kind == CC_DEC_TOWN_HALL ? p->town_hall
            : kind == CC_DEC_FAVOUR ? p->favour : kind == CC_DEC_SCARECROW ? p->scarecrow : p->ride;
    if (g->nrows <= 0) return CC_ERR_ARG;
    if (pol == CC_POL_RANDOM) return splitmix_below(&g->rng[g->dec_seat], g->nrows);
    if (pol == CC_POL_FIRST) return kind == CC_DEC_FIGURE && g->nrows > 1;  /* a figure, not none */
    switch (kind) {
    case CC_DEC_FIGURE: return greedy_figure(g, p);
    case CC_DEC_FAVOUR: return g->nrows > 1;  /* the first opponent's follower */
    case CC_DEC_RIDE: return greedy_ride(g);
    /* town hall: draw while there is a tile (row 0), else the first cell (R-MM-12);
     * scarecrow: a farmer if a follower is in supply (row 0), else lie down (row 0) */
    default: return 0;
    }
}

/* The CC_MM_* codes a decision's rows may hold, as bits: what this file builds for
 * each kind. apply_scarecrow counts its choice by code (scarecrows[code -
 * CC_MM_FARMER]) and apply_town_hall takes any other code for a cell, so a code of
 * another kind would index outside or play a move never offered. */
static int mm_codes(int kind) {
    switch (kind) {
    case CC_DEC_TOWN_HALL: return 1 << CC_MM_CELL | 1 << CC_MM_DRAW | 1 << CC_MM_END;
    case CC_DEC_FAVOUR: return 1 << CC_MM_NONE | 1 << CC_MM_TARGET;
    case CC_DEC_SCARECROW: return 1 << CC_MM_FARMER | 1 << CC_MM_LIE | 1 << CC_MM_RETURN;
    case CC_DEC_RIDE: return 1 << CC_MM_RETURN | 1 << CC_MM_TARGET;
    default: return 0;
    }
}

/* A loaded game's Messengers & Mayors state (save.c): its decisions' rows, the figure a
 * favour, scarecrow or ride names, the tile a figure step names, the scoring due and
 * its agenda steps, within what this file indexes. */
static int mayors_check_state(const cc_game *g) {
    const cc_board *b = g->board;
    const mm_state_t *m = cstate(g);
    int kind = g->dec_kind;
    if (!in_range(m->ndue, 0, CC_MAX_PLAYERS + 1) || !in_range(m->pending_fig, -1, CC_MAX_FIGURES)) return 0;
    for (int i = 0; i < g->nrows; i++) {
        const int32_t *r = &g->rows[5 * i];
        if (kind == CC_DEC_FIGURE
            && (!in_range(r[0], -1, NFIGURE_KINDS) || !in_range(r[1], ACTION_CODE_MIN, CC_MAX_SEGS)))
            return 0;
        if (mm_codes(kind)
            && (!in_range(r[0], CC_MM_CELL, CC_MM_RETURN + 1) || !(mm_codes(kind) >> r[0] & 1)
                || (r[0] == CC_MM_CELL && !(on_grid(b, r[1]) && on_grid(b, r[2])))
                || (r[0] == CC_MM_TARGET
                    && !(kind == CC_DEC_RIDE ? seg_valid(b, r[1])
                         : in_range(r[1], 0, CC_MAX_FIGURES) && b->figs[r[1]].seg >= 0))))
            return 0;
    }
    if ((kind == CC_DEC_FAVOUR || kind == CC_DEC_SCARECROW || kind == CC_DEC_RIDE)
        && !(m->pending_fig >= 0 && b->figs[m->pending_fig].seg >= 0))
        return 0;  /* a favour, scarecrow or ride names its figure, on the board */
    int on_tile = kind == CC_DEC_FIGURE;  /* what names the tile just placed */
    for (int i = 0; i < g->nagenda; i++) {
        const step_t *s = &g->agenda[i];
        int local = game_step_local(&mayors_expansion, s->kind);  /* -1: not its own */
        on_tile |= local == MM_STEP_PLACE_FIGURE || local == MM_STEP_FIGURE_OPTIONS;
        if ((local == MM_STEP_ACTIVATE || local == MM_STEP_RIDE) && !in_range(s->a, 0, CC_MAX_FIGURES)) return 0;
        if (local == MM_STEP_RIDE && !seg_valid(b, s->b)) return 0;
        if (local == MM_STEP_PLACE_FIGURE
            && (!in_range(s->a, -1, NFIGURE_KINDS) || !in_range(s->b, ACTION_CODE_MIN, CC_MAX_SEGS)))
            return 0;
    }
    if (on_tile && !in_range(g->placed_index, 0, b->ntiles)) return 0;
    for (int i = 0; i < m->ndue; i++)
        if (!in_range(m->due_seat[i], 0, g->nplayers) || !in_range(m->due_fig[i], 0, CC_MAX_FIGURES)
            || !seg_valid(b, m->due_road[i]))
            return 0;
    return 1;
}

/* every M&M decision takes first, random or greedy (policy_mayors) */
#define MM_DECISION(k, field) \
    {k, #field, mm_nchoices, mm_record, mm_describe, mm_apply, offsetof(cc_seat_policy, field), \
     game_basic_policy, policy_mayors}
static const decision_t DECISIONS[] = {
    MM_DECISION(CC_DEC_TOWN_HALL, town_hall), MM_DECISION(CC_DEC_FAVOUR, favour),
    MM_DECISION(CC_DEC_SCARECROW, scarecrow), MM_DECISION(CC_DEC_RIDE, ride),
    MM_DECISION(CC_DEC_FIGURE, figure)};
static const named_t EVENTS[] = {{CC_EV_TOWNHALL, "townhall"}, {CC_EV_CRISIS, "crisis"},
                                 {CC_EV_FAVOUR, "favour"}, {CC_EV_SCARECROW, "scarecrow"},
                                 {CC_EV_RIDE, "ride"}};
static const named_t FIGURES[] = {{CC_FIG_MAYOR, "mayor"}, {CC_FIG_MESSENGER, "messenger"},
                                  {CC_FIG_SCARECROW, "scarecrow"}};

/* per seat: placed mayors, messengers, scarecrows, favours, scarecrows made farmer,
 * laid, returned, rides, ride points, town hall turn (sim/expansions/mayors.py
 * MAYORS_COLUMNS); in supply mayor, messenger, scarecrow; the town hall in hand */
static const field_t RESULT[] = {{"mayors", 10}, {"mm_supply", 3}, {"town_hall", 1}};

static void mayors_result(const cc_game *g, int seat, int32_t *o) {
    const mm_player_t *p = &cstate(g)->players[seat];
    int32_t v[14] = {p->placed[1], p->placed[2], p->placed[3], p->favours, p->scarecrows[0],
                     p->scarecrows[1], p->scarecrows[2], p->rides, p->ride_points,
                     p->town_hall_turn, p->supply[1], p->supply[2], p->supply[3], p->town_hall};
    memcpy(o, v, sizeof v);
}

const expansion_t mayors_expansion = {
    .name = "mayors", .bit = CC_X_MAYORS, .start = mayors_start,
    .nsteps = MM_NSTEPS, .step = mayors_step,
    .decisions = DECISIONS, .ndecisions = sizeof DECISIONS / sizeof *DECISIONS,
    .begin_draw = mayors_begin_draw, .no_tile = mayors_no_tile,
    .after_tile = mayors_after_tile, .figure_removed = mayors_figure_removed,
    .figure_rule = mayors_rule, .in_supply = mayors_in_supply, .supply_change = mayors_supply_change,
    .complement = mayors_complement,
    .deferred_cells = mayors_deferred_cells, .scored = mayors_scored, .keeps = mayors_keeps,
    .result_fields = RESULT, .nresult_fields = sizeof RESULT / sizeof *RESULT, .result = mayors_result,
    .check_config = mayors_check_config, .check_seat = mayors_check_seat,
    .extra_tiles = mayors_extra_tiles,
    .places_instead = mayors_places_instead, .check_state = mayors_check_state,
    .greedy_place = mayors_greedy_place,
    .events = EVENTS, .nevents = sizeof EVENTS / sizeof *EVENTS,
    .figures = FIGURES, .nfigures = sizeof FIGURES / sizeof *FIGURES,
    .state_size = sizeof(mm_state_t),
};
