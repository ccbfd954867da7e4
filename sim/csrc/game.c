/* carcsim C core: the game state machine. The turn of sim/engine/game.py, step for step:
 * draw (R-BASE-3), place with a figure (R-BASE-4), score what the placement completed
 * (R-BASE-6/7) as one round of scoring, final scoring (R-BASE-8). The expansions add
 * their hooks through the registry (registry.c; game.h describes the hook table and
 * its order) and this file names none of them; the contract is in core.h. */
#include "game.h"

/* Every expansion the C game knows, in the order their hooks run (registry.c). */
#define REGISTRY game_registry
#define NREGISTRY game_nregistry

static const cc_figure_rule FOLLOWER_RULE = {0, 0xF, 1, 1, 1};  /* R-BASE-4: any free feature */

/* The expansion that adds figure kind `kind`, NULL for the follower or an unknown kind. */
static const expansion_t *kind_owner(int kind) {
    for (int k = 0; k < NREGISTRY; k++)
        if (REGISTRY[k]->figure_rule && REGISTRY[k]->figure_rule(kind)) return REGISTRY[k];
    return NULL;
}

const cc_figure_rule *game_figure_rule(int kind) {
    if (kind == CC_FIG_FOLLOWER) return &FOLLOWER_RULE;
    const expansion_t *x = kind_owner(kind);
    return x ? x->figure_rule(kind) : NULL;
}

/* The owner in play of a kind other than the follower's, NULL if none. */
static const expansion_t *owner_in_play(const cc_game *g, int kind) {
    const expansion_t *x = kind == CC_FIG_FOLLOWER ? NULL : kind_owner(kind);
    return x && game_has(g, x->bit) ? x : NULL;
}

int game_in_supply(const cc_game *g, int seat, int kind) {
    if (kind == CC_FIG_FOLLOWER) return g->supply[seat];
    const expansion_t *x = owner_in_play(g, kind);
    return x ? x->in_supply(g, seat, kind) : CC_ERR_ARG;
}

int game_complement(const cc_game *g, int kind) {
    if (kind == CC_FIG_FOLLOWER) return g->cfg.followers;
    const expansion_t *x = owner_in_play(g, kind);
    return x ? x->complement(g, kind) : CC_ERR_ARG;
}

void game_set_supply(cc_game *g, int seat, int kind, int n) {
    const expansion_t *x = owner_in_play(g, kind);
    if (kind == CC_FIG_FOLLOWER) g->supply[seat] = n;
    else if (x) x->supply_change(g, seat, kind, n - x->in_supply(g, seat, kind), 0);
}

/* The figures seat may place now (R-BASE-4: a follower from supply; the kinds the
 * expansions in play add, R-MM-1/5/7), by kind code: the order of the place
 * decision's rows. out has room for NFIGURE_KINDS. */
int game_figure_rules(const cc_game *g, int seat, cc_figure_rule *out) {
    int n = 0;
    if (g->supply[seat] > 0) out[n++] = FOLLOWER_RULE;
    /* the units in play add theirs, in registry order: their kind codes ascend with it
     * (tests/test_hooks.py), so the rows stay in kind order */
    for (int k = 0; k < g->nunits; k++) {
        const expansion_t *x = g->units[k];
        for (int i = 0; i < x->nfigures; i++) {
            int kind = x->figures[i].code;
            if (x->figure_rule && x->figure_rule(kind) && x->in_supply(g, seat, kind) > 0)
                out[n++] = *x->figure_rule(kind);
        }
    }
    return n;
}

/* ---------------------------------------------------------------- buffers */

/* Grow *buf (cap elements of elem bytes) to hold need elements; doubles. */
static int grow(void **buf, int32_t *cap, int64_t need, size_t elem) {
    if (need <= *cap) return 0;
    int64_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    if (nc > INT32_MAX / 16) return CC_ERR_FULL;
    void *p = realloc(*buf, (size_t)nc * elem);
    if (!p) return CC_ERR_NOMEM;
    *buf = p;
    *cap = (int32_t)nc;
    return 0;
}

int game_grow_rows(cc_game *g, int64_t need) {
    int32_t cap = g->rows_cap;
    int rc = grow((void **)&g->rows, &cap, need, sizeof *g->rows);
    if (rc < 0) return rc;
    double *v = realloc(g->values, (size_t)(cap / 5 + 1) * sizeof *v);
    if (!v) return CC_ERR_NOMEM;
    g->values = v;
    g->rows_cap = cap;
    return 0;
}

/* Event layouts, v0.. after {kind, turn, seat}:
 *   START        type, x, y, rotation          DRAW, DISCARD   type
 *   PLACE        type, x, y, rotation          FIGURE          figure kind, segment
 *   SCORE        feature kind, root segment, tiles, coats, complete, final, points,
 *                winners (bit per seat)
 *   POINTS       points, source, total
 *   MOVE         figure, points, source, before, after, dark, other dark
 *   MESSAGE_DRAW action, number
 *   MESSAGE      action, number, resolved by the action, points, target kind (0 none,
 *                1 feature segment, 2 figure's segment), target segment, extra
 *   COURIER      segment, x, y, points, came from the board, from x, from y
 *   FINAL, END   nothing (END: the scores are the result's) */
void game_emit(cc_game *g, int kind, int turn, int seat, int n, const int32_t *v) {
    if (!(g->cfg.record & CC_RECORD_EVENTS) || g->error) return;
    int rc = grow((void **)&g->events, &g->events_cap, (int64_t)(g->nevents + 1) * CC_EVENT_INTS,
                  sizeof *g->events);
    if (rc < 0) { g->error = rc; return; }
    int32_t *e = &g->events[(size_t)g->nevents++ * CC_EVENT_INTS];
    e[0] = kind;
    e[1] = turn;
    e[2] = seat;
    for (int i = 0; i < CC_EVENT_INTS - 3; i++) e[3 + i] = i < n ? v[i] : 0;
}

static int record_choice(cc_game *g, int kind, int n, const int32_t *v) {
    if (!(g->cfg.record & CC_RECORD_HISTORY)) return 0;
    int rc = grow((void **)&g->history, &g->history_cap,
                  (int64_t)(g->nhistory + 1) * CC_HISTORY_INTS, sizeof *g->history);
    if (rc < 0) return rc;
    int32_t *h = &g->history[(size_t)g->nhistory++ * CC_HISTORY_INTS];
    h[0] = kind;
    for (int i = 1; i < CC_HISTORY_INTS; i++) h[i] = i - 1 < n ? v[i - 1] : -1;
    return 0;
}

int game_push(cc_game *g, int kind, int a, int b, int c) {
    if (g->nagenda >= AGENDA_CAP) return CC_ERR_FULL;
    g->agenda[g->nagenda++] = (step_t){kind, a, b, c};
    return 0;
}

/* The unit owning agenda step kind `kind` (a unit's: kind >= STEP_UNITS) and the kind's
 * local number there (game.h: the units' kinds follow each other in registry order);
 * NULL if none owns it. */
static const expansion_t *step_owner(int kind, int *local) {
    int base = STEP_UNITS;
    for (int k = 0; k < NREGISTRY && kind >= base; k++) {
        if (kind < base + REGISTRY[k]->nsteps) {
            *local = kind - base;
            return REGISTRY[k];
        }
        base += REGISTRY[k]->nsteps;
    }
    return NULL;
}

int game_step_kind(const expansion_t *x, int local) {
    int base = STEP_UNITS;
    for (int k = 0; k < NREGISTRY && REGISTRY[k] != x; k++) base += REGISTRY[k]->nsteps;
    return base + local;
}

int game_step_local(const expansion_t *x, int kind) {
    int local;
    return step_owner(kind, &local) == x ? local : -1;
}

int game_push_step(cc_game *g, const expansion_t *x, int local, int a, int b, int c) {
    return game_push(g, game_step_kind(x, local), a, b, c);
}

int game_step_known(const cc_game *g, int kind) {
    int local;
    const expansion_t *x = kind >= STEP_UNITS ? step_owner(kind, &local) : NULL;
    return (kind >= 0 && kind < STEP_UNITS) || (x && game_has(g, x->bit));
}

int game_tiles_left(const cc_game *g) { return g->nstack - g->top; }

/* ---------------------------------------------------------------- the turn */

cc_greedy_params *game_greedy_params(const cc_game *g, int seat, const cc_seat_policy *sp,
                                     cc_greedy_params *p) {
    /* strategies/greedy.py: the follower weight shrinks with the tiles left */
    int left = game_tiles_left(g), in_play = left + g->board->ntiles;
    p->player = seat;
    p->nplayers = g->nplayers;
    memcpy(p->open_weight, sp->open_weight, sizeof p->open_weight);
    p->opponent_weight = sp->opponent;
    p->follower_value = sp->follower * left / in_play;
    return p;
}

int game_actions(const cc_game *g, int seat, int32_t *out, int cap) {
    int n = 0;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->actions) {
            int c = g->units[k]->actions(g, seat, out + 2 * n, cap - n);
            if (c < 0) return c;
            n += c;
        }
    return n;
}

/* greedy's values of action (kind, code) beside n placements (action_values). */
static void action_values(const cc_game *g, const cc_greedy_params *p, int kind, int code,
                          const int32_t *cells, int n, double *out) {
    const expansion_t *x = owner_in_play(g, kind);
    if (x && x->action_values) x->action_values(g, p, kind, code, cells, n, out);
    else for (int i = 0; i < n; i++) out[i] = 0.0;
}

double game_action_value(const cc_game *g, const cc_greedy_params *p, const int32_t *row, int pending) {
    const variant_t *v = pending ? variant(g->board, g->drawn_type, row[2]) : NULL;
    int32_t cell[3] = {row[0], row[1], v ? v->def.no_value : 0};
    double value;
    action_values(g, p, row[3], row[4], v ? cell : NULL, 1, &value);
    return value;
}

int game_counts_as_follower(const cc_game *g, int kind, int feature_kind) {
    if (kind == CC_FIG_FOLLOWER) return 1;
    const expansion_t *x = owner_in_play(g, kind);
    return x && x->counts_as_follower ? x->counts_as_follower(kind, feature_kind) : 0;
}

enum { RUNS_CAP = 32 };  /* placement cells valued in one action_values call (more are valued in parts) */

/* Runs of action rows (add_actions) whose values are still to be added: run k's cell
 * {x, y, no_value} and its first row; its rows end where run k + 1's begin. */
typedef struct {
    int n;
    int32_t cell[3 * RUNS_CAP];
    int first[RUNS_CAP];
} runs_t;

/* Each action valued over the runs' cells and added to their rows (rows first .. end of
 * the last run), a placement's na rows in action order; the list emptied. */
static void flush_runs(cc_game *g, const cc_greedy_params *pp, const int32_t *acts, int na, runs_t *runs,
                       int end) {
    double worth[ACTIONS_CAP][RUNS_CAP];
    for (int a = 0; a < na; a++) action_values(g, pp, acts[2 * a], acts[2 * a + 1], runs->cell, runs->n, worth[a]);
    for (int k = 0; k < runs->n; k++) {
        int stop = k + 1 < runs->n ? runs->first[k + 1] : end;
        for (int j = runs->first[k]; j < stop; j += na)
            for (int a = 0; a < na; a++) g->values[j + a] += worth[a][k];
    }
    runs->n = 0;
}

/* The step-2 actions of the active seat (R-ABB-5) after the place rows: for each
 * placement whose figure is chosen with the tile (not on a deferred cell), in
 * placement order, one row (x, y, rotation, kind, code) per action, valued beside its
 * no-figure row when pp. Returns the row count. */
static int add_actions(cc_game *g, const cc_greedy_params *pp, const int32_t *cells, int ncells) {
    int32_t acts[2 * ACTIONS_CAP];
    int na = game_actions(g, g->seat, acts, ACTIONS_CAP), n = g->nrows;
    if (na <= 0) return na < 0 ? na : n;
    int64_t need = 5 * ((int64_t)n + (int64_t)n * na);
    if (need > g->rows_cap) {
        int rc = game_grow_rows(g, need);
        if (rc < 0) return rc;
    }
    /* An action's value is a function of the tile's cell and whether the tile counts
     * (action_values' cells), the same for every rotation of one cell, and a cell's
     * rotations are next to each other in the rows: a run of them is one cell to value.
     * The action rows are written with their placement's value; when a run begins with
     * RUNS_CAP listed, and at the end, each action is valued over the listed cells at
     * once and its value added to the rows of each run (flush_runs). */
    runs_t runs = {.n = 0};
    int total = n;
    for (int i = 0; i < n; i++) {
        const int32_t *r = &g->rows[5 * i];
        if (r[3] >= 0) continue;  /* a placement's first row is its no-figure row */
        int deferred = 0;
        for (int c = 0; c < ncells && !deferred; c++)
            deferred = r[0] == cells[2 * c] && r[1] == cells[2 * c + 1];
        if (deferred) continue;
        if (pp) {
            int32_t no_value = variant(g->board, g->drawn_type, r[2])->def.no_value;
            const int32_t *last = runs.cell + 3 * (runs.n ? runs.n - 1 : 0);
            if (runs.n == 0 || r[0] != last[0] || r[1] != last[1] || no_value != last[2]) {
                if (runs.n == RUNS_CAP) flush_runs(g, pp, acts, na, &runs, total);
                int32_t *c = &runs.cell[3 * runs.n];
                c[0] = r[0]; c[1] = r[1]; c[2] = no_value;
                runs.first[runs.n++] = total;
            }
        }
        for (int a = 0; a < na; a++) {
            int32_t *o = &g->rows[5 * total];
            o[0] = r[0]; o[1] = r[1]; o[2] = r[2]; o[3] = acts[2 * a]; o[4] = acts[2 * a + 1];
            if (pp) g->values[total] = g->values[i];
            total++;
        }
    }
    if (pp && runs.n) flush_runs(g, pp, acts, na, &runs, total);  /* none: every placement deferred */
    g->nrows = total;
    return total;
}

/* The place decision's rows for tile type t and the active seat (sim/engine/game.py
 * _options); greedy values too when a built-in greedy seat will choose. Returns the
 * number of rows (0: the tile fits nowhere). */
static int options(cc_game *g, int t) {
    int seat = g->seat;
    cc_figure_rule rules[NFIGURE_KINDS];
    int nrules = game_figure_rules(g, seat, rules);
    cc_greedy_params p, *pp = NULL;
    if (g->seats[seat].place == CC_POL_GREEDY) pp = game_greedy_params(g, seat, &g->seats[seat], &p);
    int n;
    for (;;) {
        n = cc_turn_options(g->board, t, rules, nrules, pp, g->rows, g->values, g->rows_cap);
        if (n != CC_ERR_FULL) break;
        int rc = game_grow_rows(g, (int64_t)g->rows_cap * 2);
        if (rc < 0) return rc;
    }
    if (n <= 0) return n;
    /* RULES.md 6: where a placement has step-1 activations its figure comes after them */
    int32_t cells[DEFERRED_CAP];
    int ncells = 0;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->deferred_cells) {
            int c = g->units[k]->deferred_cells(g, cells + 2 * ncells, DEFERRED_CAP - 2 * ncells);
            if (c < 0) return c;
            ncells += c;
        }
    /* placements an expansion forbids (R-RIV-2) leave the choices: asked of the units
     * with a say about this tile type (asked of its first placement, rows[0..2]) */
    const expansion_t *judges[sizeof g->units / sizeof *g->units];
    int njudges = 0;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->allows && g->units[k]->allows(g, t, g->rows[0], g->rows[1], g->rows[2]) >= 0)
            judges[njudges++] = g->units[k];
    if (ncells == 0 && njudges == 0) {  /* nothing may forbid a row: most turns */
        g->nrows = n;
        return add_actions(g, pp, NULL, 0);
    }
    int kept = 0, allowed = 1, figures = 1;
    for (int i = 0; i < n; i++) {
        const int32_t *r = &g->rows[5 * i];
        if (r[3] < 0) {  /* a placement's first row (its no-figure row): asked once for all its rows */
            allowed = 1;
            for (int k = 0; k < njudges && allowed; k++) allowed = judges[k]->allows(g, t, r[0], r[1], r[2]) != 0;
            figures = 1;  /* its figure rows, unless its figure comes after activations */
            for (int c = 0; c < ncells && figures; c++)
                figures = r[0] != cells[2 * c] || r[1] != cells[2 * c + 1];
        }
        if (!allowed || (r[3] >= 0 && !figures)) continue;
        if (kept != i) {  /* rows move down: kept < i, no overlap */
            int32_t *to = &g->rows[5 * kept];
            for (int j = 0; j < 5; j++) to[j] = r[j];
            if (pp) g->values[kept] = g->values[i];
        }
        kept++;
    }
    g->nrows = kept;
    return add_actions(g, pp, cells, ncells);
}

int game_place_rows(cc_game *g, int t) {
    return options(g, t);
}

int game_draw_for_turn(cc_game *g) {
    while (g->top < g->nstack) {
        int t = g->stack[g->top++];
        int n = options(g, t);
        if (n < 0) return n;
        int32_t v[1] = {t};
        if (n > 0) {
            g->turn++;
            g->drawn_type = t;
            game_emit(g, CC_EV_DRAW, g->turn, g->seat, 1, v);
            g->dec_kind = CC_DEC_PLACE;
            g->dec_seat = g->seat;
            return 1;
        }
        /* R-BASE-3: a tile that fits nowhere leaves the game; draw again */
        game_emit(g, CC_EV_DISCARD, g->turn + 1, g->seat, 1, v);
    }
    return 0;
}

void game_add_points(cc_game *g, int seat, int points, int source) {
    g->scores[seat] += points;
    g->points[seat][source] += points;
    int32_t v[3] = {points, source, g->scores[seat]};
    game_emit(g, CC_EV_POINTS, g->turn, seat, 3, v);
}

void game_figure_removed(cc_game *g, int fig) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->figure_removed) g->units[k]->figure_removed(g, fig);
}

void game_figure_moved(cc_game *g, int fig, int seg) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->figure_placed)
            g->units[k]->figure_placed(g, fig, seg);
}

/* A figure off the board, back to its owner's supply. */
int game_return_figure(cc_game *g, int fig) {
    int32_t info[5];
    int rc = cc_figure_info(g->board, fig, info, 5);
    if (rc < 0) return rc;
    const expansion_t *owner = info[1] == CC_FIG_FOLLOWER ? NULL : kind_owner(info[1]);
    if (info[1] != CC_FIG_FOLLOWER && !owner) return CC_ERR_ARG;
    rc = cc_figure_remove(g->board, fig);
    if (rc < 0) return rc;
    game_figure_removed(g, fig);  /* R-COU-4: its id may be reused by a later figure */
    if (owner) owner->supply_change(g, info[0], info[1], +1, 0);
    else g->supply[info[0]]++;
    return 0;
}

/* Majority (R-BASE-7) of a feature's root as a bit per seat, and the score event. */
static int score_feature(cc_game *g, int root, int final, int *kind, int *value) {
    int32_t info[8];
    int rc = cc_feature_info(g->board, root, info, 8);
    if (rc < 0) return rc;
    int v = feature_value(g->board, root, final);
    if (v < 0) return v;
    const seg_t *r = &g->board->segs[info[0]];
    int winners = 0;
    for (int q = 0; q < g->nplayers; q++)
        if (holds_majority(r->count, r->strength, g->nplayers, q)) winners |= 1 << q;
    for (int k = 0; k < g->nunits; k++)  /* before its figures leave (ride points) */
        if (g->units[k]->scored) g->units[k]->scored(g, info[0], winners, v);
    int32_t ev[8] = {info[1], root, info[2], info[4], info[5], final, v, winners};
    game_emit(g, CC_EV_SCORE, g->turn, -1, 8, ev);
    *kind = info[1];
    *value = v;
    return winners;
}

/* One completed feature: the majority takes its value; its figures go back. */
static int step_score(cc_game *g, int root) {
    int kind, value;
    int winners = score_feature(g, root, 0, &kind, &value);
    if (winners < 0) return winners;
    int32_t figs[CC_MAX_FIGURES];
    int n = cc_feature_figures(g->board, root, figs, CC_MAX_FIGURES);
    if (n < 0) return n;
    for (int i = 0; i < n; i++) {
        int rc = 0;  /* the first expansion (registry order) keeping it takes it over */
        for (int k = 0; k < g->nunits && rc == 0; k++)
            if (g->units[k]->keeps) rc = g->units[k]->keeps(g, figs[i], root, kind);
        if (rc == 0) rc = game_return_figure(g, figs[i]);
        if (rc < 0) return rc;
    }
    for (int q = g->nplayers - 1; q >= 0; q--)  /* pushed last first: seats in order */
        if (winners & (1 << q)) {
            int rc = game_push(g, STEP_AWARD, q, value, source_of_kind(kind));
            if (rc < 0) return rc;
        }
    return 0;
}

static int step_award(cc_game *g, int seat, int points, int source) {
    if (points == 0) return 0;  /* R-BASE-10: a figure moves only by more than 0 points */
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->award) {
            int rc = g->units[k]->award(g, seat, points, source);
            if (rc != 0) return rc < 0 ? rc : 0;
        }
    game_add_points(g, seat, points, source);
    return 0;
}

static int run_step(cc_game *g, const step_t *s) {
    switch (s->kind) {
    case STEP_SCORE: return step_score(g, s->a);
    case STEP_AWARD: return step_award(g, s->a, s->b, s->c);
    case STEP_END_ROUND:
        for (int k = 0; k < g->nunits; k++)
            if (g->units[k]->end_round) {
                int rc = g->units[k]->end_round(g, s->a);
                if (rc < 0) return rc;
            }
        return 0;
    default: {  /* a step an expansion declares as its own */
        int local;
        const expansion_t *x = step_owner(s->kind, &local);
        if (!x) return CC_ERR_ARG;  /* a step nobody owns */
        if (!game_has(g, x->bit)) return CC_ERR_ARG;  /* a damaged agenda */
        int rc = x->step(g, local, s);
        return rc < 0 ? rc : 0;
    }
    }
}

/* R-BASE-8: every feature still holding figures scores its final value. */
int game_final_scoring(cc_game *g) {
    g->turn++;
    g->over = 1;
    game_emit(g, CC_EV_FINAL, g->turn, -1, 0, NULL);
    int32_t occ[CC_MAX_FIGURES];
    int n = cc_occupied_features(g->board, occ, CC_MAX_FIGURES);
    if (n < 0) return n;
    for (int i = 0; i < n; i++) {
        int kind, value;
        int winners = score_feature(g, occ[i], 1, &kind, &value);
        if (winners < 0) return winners;
        for (int q = 0; q < g->nplayers; q++)
            if ((winners & (1 << q)) && value) game_add_points(g, q, value, source_of_kind(kind));
    }
    g->dec_kind = CC_DEC_NONE;
    game_emit(g, CC_EV_END, g->turn, -1, 0, NULL);
    return 0;
}

static int next_turn(cc_game *g) {
    if (g->extra_turn) g->extra_turn = 0;  /* c3.1 message 4: the same seat again */
    else g->seat = (g->seat + 1) % g->nplayers;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->next_turn) g->units[k]->next_turn(g);
    int rc = game_begin_draw(g, 0);
    if (rc < 0) return rc;
    return rc ? 0 : game_end_or_force(g);
}

int game_begin_draw(cc_game *g, int extra_tile) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->begin_draw) {
            int rc = g->units[k]->begin_draw(g, extra_tile);
            if (rc != 0) return rc;
        }
    return game_draw_for_turn(g);
}

int game_end_or_force(cc_game *g) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->no_tile) {
            int rc = g->units[k]->no_tile(g);
            if (rc != 0) return rc < 0 ? rc : 0;
        }
    return game_final_scoring(g);
}

int game_place_figure(cc_game *g, int seat, int kind, int local) {
    if (kind < 0) return 0;
    if (local >= 0) return game_put_figure(g, seat, kind, g->placed_index * CC_MAX_SEGS + local);
    const expansion_t *x = owner_in_play(g, kind);  /* an action (R-ABB-5) */
    return x && x->act ? x->act(g, seat, kind, local) : CC_ERR_ARG;
}

int game_put_figure(cc_game *g, int seat, int kind, int seg) {
    const cc_figure_rule *r = game_figure_rule(kind);
    if (!r || seat < 0 || seat >= g->nplayers) return CC_ERR_ARG;
    const expansion_t *owner = kind == CC_FIG_FOLLOWER ? NULL : kind_owner(kind);
    if (owner && !game_has(g, owner->bit)) return CC_ERR_ARG;  /* not in play: none in supply */
    if ((owner ? owner->in_supply(g, seat, kind) : g->supply[seat]) <= 0) return CC_ERR_ARG;
    int f = cc_figure_add(g->board, seat, kind, r->strength, r->scores, seg);
    if (f < 0) return f;
    if (owner) owner->supply_change(g, seat, kind, -1, 1);  /* counted as placed */
    else g->supply[seat]--;
    int32_t v[2] = {kind, seg};
    game_emit(g, CC_EV_FIGURE, g->turn, seat, 2, v);
    /* R-COU-4: placed this turn, whoever's it is (a favour's follower, R-MM-2, may be
     * another seat's); listed here once, so callers do not list it again */
    game_figure_moved(g, f, seg);
    return f;
}

static int apply_place(cc_game *g, const int32_t *row) {
    int x = row[0], y = row[1], rot = row[2], figure = row[3], local = row[4];
    int32_t done[CC_MAX_COMPLETED];
    int nd = cc_place(g->board, g->drawn_type, x, y, rot, done, CC_MAX_COMPLETED);
    if (nd < 0) return nd;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->placed)
            g->units[k]->placed(g, g->drawn_type, x, y, rot);
    g->placed_index = g->board->ntiles - 1;
    int32_t v[4] = {g->drawn_type, x, y, rot};
    game_emit(g, CC_EV_PLACE, g->turn, g->seat, 4, v);
    for (int k = 0; k < g->nunits; k++)  /* M&M: activations before the figure */
        if (g->units[k]->after_tile) {
            int rc = g->units[k]->after_tile(g, x, y, done, nd, figure, local);
            if (rc != 0) return rc < 0 ? rc : 0;
        }
    /* R-BASE-6: what this placement completed scores now, as one round of scoring,
     * after step 2 (an action's steps, pushed by it next, run first) */
    int rc = game_push(g, STEP_END_ROUND, ROUND_TURN, 0, 0);
    for (int i = nd - 1; i >= 0 && rc == 0; i--) rc = game_push(g, STEP_SCORE, done[i], 0, 0);
    if (rc == 0) rc = game_place_figure(g, g->seat, figure, local);
    return rc < 0 ? rc : 0;
}

/* The expansion decision kind `kind` (its owner in play), NULL for the place decision,
 * none, or a kind no expansion in play adds. */
static const decision_t *decision_of(const cc_game *g, int kind) {
    for (int k = 0; k < NREGISTRY; k++)
        for (int i = 0; i < REGISTRY[k]->ndecisions; i++)
            if (REGISTRY[k]->decisions[i].kind == kind)
                return game_has(g, REGISTRY[k]->bit) ? &REGISTRY[k]->decisions[i] : NULL;
    return NULL;
}

int game_nchoices(const cc_game *g) {
    if (g->dec_kind == CC_DEC_PLACE) return g->nrows;
    const decision_t *d = decision_of(g, g->dec_kind);
    return d ? d->nchoices(g) : 0;
}

/* Take choice idx (already checked) of the current decision. */
static int apply_choice(cc_game *g, int idx) {
    int kind = g->dec_kind, rc;
    g->ndecisions++;
    if (kind == CC_DEC_PLACE) {
        int32_t row[5];
        memcpy(row, &g->rows[5 * idx], sizeof row);
        rc = record_choice(g, kind, 5, row);
        if (rc < 0) return rc;
        g->dec_kind = CC_DEC_NONE;
        return apply_place(g, row);
    }
    const decision_t *d = decision_of(g, kind);
    if (!d) return CC_ERR_ARG;
    int32_t v[3] = {idx, -1, -1};
    d->record(g, idx, v);
    rc = record_choice(g, kind, 3, v);
    if (rc < 0) return rc;
    g->dec_kind = CC_DEC_NONE;
    return d->apply(g, kind, idx);
}

static int fail(cc_game *g, int rc) {
    if (!g->error) g->error = rc;  /* the game cannot go on: every later call says so */
    return rc;
}

/* Run the agenda until a decision is needed or the game is over (sim/engine/game.py _run). */
static int run(cc_game *g) {
    while (g->dec_kind == CC_DEC_NONE && !g->over) {
        int rc;
        if (g->nagenda) {
            step_t s = g->agenda[--g->nagenda];
            rc = run_step(g, &s);
        } else {
            rc = next_turn(g);
        }
        if (rc < 0) return fail(g, rc);
        if (g->error) return g->error;
    }
    return 0;
}

const decision_t *game_decision(const cc_game *g) { return decision_of(g, g->dec_kind); }

int game_decision_known(const cc_game *g, int kind) {
    return kind == CC_DEC_NONE || kind == CC_DEC_PLACE || decision_of(g, kind) != NULL;
}

static int32_t seat_field(const cc_seat_policy *s, const decision_t *d) {
    int32_t v;
    memcpy(&v, (const char *)s + d->seat_field, sizeof v);
    return v;
}

int game_policy_of(const cc_game *g) {
    const cc_seat_policy *s = &g->seats[g->dec_seat];
    if (g->dec_kind == CC_DEC_PLACE) return s->place;
    const decision_t *d = decision_of(g, g->dec_kind);
    return d ? seat_field(s, d) : CC_POL_PYTHON;  /* no such decision: Python is asked */
}

/* Built-in seats answer here; returns the next decision for Python, or NONE. */
static int advance(cc_game *g) {
    for (;;) {
        int rc = run(g);
        if (rc < 0) return rc;
        if (g->over) return CC_DEC_NONE;
        if (game_policy_of(g) == CC_POL_PYTHON) return g->dec_kind;
        int idx = game_policy_choice(g);
        if (idx < 0) return fail(g, idx);
        rc = apply_choice(g, idx);
        if (rc < 0) return fail(g, rc);
    }
}

/* ---------------------------------------------------------------- lifecycle */

/* Stream.shuffle (sim/engine/rng.py): Fisher-Yates from the end. */
void game_shuffle(int32_t *items, int n, uint64_t *state) {
    for (int i = n - 1; i > 0; i--) {
        int j = splitmix_below(state, i + 1);
        int32_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

int game_basic_policy(int p) { return p == CC_POL_FIRST || p == CC_POL_RANDOM || p == CC_POL_GREEDY; }

/* The declared decision of `kind` in any unit, in play or not (a seat's struct names a
 * policy for every kind), NULL if none declares it. */
static const decision_t *declared(int kind) {
    for (int k = 0; k < NREGISTRY; k++)
        for (int i = 0; i < REGISTRY[k]->ndecisions; i++)
            if (REGISTRY[k]->decisions[i].kind == kind) return &REGISTRY[k]->decisions[i];
    return NULL;
}

/* Python and search (search.c) answer every decision kind */
static int any_kind(int p) { return p == CC_POL_PYTHON || p == CC_POL_SEARCH; }

int32_t cc_policy_accepts(int32_t decision, int32_t policy) {
    if (decision == CC_DEC_PLACE) return any_kind(policy) || game_basic_policy(policy);
    const decision_t *d = declared(decision);
    if (!d) return CC_ERR_ARG;
    return any_kind(policy) || d->accepts(policy);
}

int game_check_seat(const cc_seat_policy *p) {
    if (cc_policy_accepts(CC_DEC_PLACE, p->place) != 1) return CC_ERR_ARG;
    int search = p->place == CC_POL_SEARCH;
    for (int k = 0; k < NREGISTRY; k++)
        for (int i = 0; i < REGISTRY[k]->ndecisions; i++) {
            const decision_t *d = &REGISTRY[k]->decisions[i];
            int32_t v = seat_field(p, d);
            search |= v == CC_POL_SEARCH;
            if (!any_kind(v) && !d->accepts(v)) return CC_ERR_ARG;
        }
    if (search && search_check_seat(p) < 0) return CC_ERR_ARG;  /* its parameters */
    for (int k = 0; k < NREGISTRY; k++)  /* its policies' parameters, in play or not */
        if (REGISTRY[k]->check_seat && REGISTRY[k]->check_seat(p) < 0) return CC_ERR_ARG;
    return 0;
}

/* Where unit x's state starts in the area: the sizes of the units before it, each
 * rounded up to 8 bytes; -1 if x is not registered. */
static int64_t state_offset(const expansion_t *x) {
    int64_t at = 0;
    for (int k = 0; k < NREGISTRY; k++) {
        if (REGISTRY[k] == x) return at;
        at += ((int64_t)REGISTRY[k]->state_size + 7) / 8 * 8;
    }
    return -1;
}

static int states_fit(void) {
    int64_t need = 0;
    for (int k = 0; k < NREGISTRY; k++) need += ((int64_t)REGISTRY[k]->state_size + 7) / 8 * 8;
    return need <= UNIT_STATE_BYTES;
}

void *game_state(cc_game *g, const expansion_t *x) { return g->unit_state + state_offset(x); }

const void *game_state_const(const cc_game *g, const expansion_t *x) {
    return g->unit_state + state_offset(x);
}

/* Hooks that take a step over from the base game: at most one unit in play may define
 * each, so the registry's order never decides between two (registry.c). */
static int takeovers_compete(int bits) {
    int award = 0, after_tile = 0, begin_draw = 0, no_tile = 0, keeps = 0;
    for (int k = 0; k < NREGISTRY; k++) {
        const expansion_t *x = REGISTRY[k];
        if (!(bits & x->bit)) continue;
        award += !!x->award;
        after_tile += !!x->after_tile;
        begin_draw += !!x->begin_draw;
        no_tile += !!x->no_tile;
        keeps += !!x->keeps;
    }
    return award > 1 || after_tile > 1 || begin_draw > 1 || no_tile > 1 || keeps > 1;
}

int game_check_config(const cc_tileset *ts, const cc_game_config *c, const int32_t *stack,
                      int nstack, const uint8_t *flags, int ntypes, const cc_seat_policy *seats) {
    int known = 0;
    for (int k = 0; k < NREGISTRY; k++) known |= REGISTRY[k]->bit;
    if (c->nplayers < 2 || c->nplayers > CC_MAX_PLAYERS || c->followers < 0 || c->followers > 30
        || c->farm_points < 0 || c->farm_points > 10
        || (c->expansions & ~known) || takeovers_compete(c->expansions) || !states_fit()
        || NREGISTRY > (int)(sizeof ((cc_game *)0)->units / sizeof *((cc_game *)0)->units)
        || c->start_type < 0 || c->start_type >= ts->n || nstack < 0 || nstack > 3000
        || ntypes != ts->n || (nstack && !stack) || (ntypes && !flags) || !seats)
        return CC_ERR_ARG;
    for (int i = 0; i < nstack; i++)
        if (stack[i] < 0 || stack[i] >= ts->n) return CC_ERR_ARG;
    if (c->shuffle_stack && (c->river_tiles < 0 || c->lake_tiles < 0
                             || (int64_t)c->river_tiles + c->lake_tiles > nstack))
        return CC_ERR_ARG;
    for (int k = 0; k < NREGISTRY; k++)
        if ((c->expansions & REGISTRY[k]->bit) && REGISTRY[k]->check_config
            && REGISTRY[k]->check_config(ts, c) < 0)
            return CC_ERR_ARG;
    for (int s = 0; s < c->nplayers; s++)
        if (game_check_seat(&seats[s]) < 0) return CC_ERR_ARG;
    return 0;
}

int game_max_tiles(const cc_game_config *c, int nstack) {
    int n = nstack + 1;
    for (int k = 0; k < NREGISTRY; k++)
        if ((c->expansions & REGISTRY[k]->bit) && REGISTRY[k]->extra_tiles) n += REGISTRY[k]->extra_tiles(c);
    return n;
}

void game_bind_units(cc_game *g) {
    g->nunits = 0;
    for (int k = 0; k < NREGISTRY && g->nunits < (int)(sizeof g->units / sizeof *g->units); k++)
        if (game_has(g, REGISTRY[k]->bit)) g->units[g->nunits++] = REGISTRY[k];
}

int game_places_instead(const cc_game *g, int seat) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->places_instead && g->units[k]->places_instead(g, seat))
            return 1;
    return 0;
}

const expansion_t *game_greedy_aim(const cc_game *g) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->greedy_aim) return g->units[k];
    return NULL;
}

int game_greedy_place(const cc_game *g, const cc_seat_policy *p, int best) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->greedy_place)
            best = g->units[k]->greedy_place(g, p, best);
    return best;
}

int game_placement_restricted(const cc_game *g) {
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->restricts_placement && g->units[k]->restricts_placement(g))
            return 1;
    return 0;
}

void cc_game_free(cc_game *g) {
    if (!g) return;
    cc_board_free(g->board);
    free(g->tile_flags);
    free(g->stack);
    free(g->rows);
    free(g->values);
    free(g->events);
    free(g->history);
    free(g);
}

/* cc_game_new on `board`: an empty board of game_max_tiles(cfg, nstack) tiles over ts
 * (board_reset), or NULL for a new one. The game owns the board from here, also on an
 * error (then it is freed). */
static int game_new(const cc_tileset *ts, const cc_game_config *cfg, const int32_t *stack,
                    int nstack, const uint8_t *tile_flags, int ntypes, const uint64_t *seat_state,
                    const cc_seat_policy *seats, cc_board *board, cc_game **out) {
    if (!ts || !cfg || !seat_state || !out) {
        cc_board_free(board);
        return CC_ERR_ARG;
    }
    *out = NULL;
    int rc = game_check_config(ts, cfg, stack, nstack, tile_flags, ntypes, seats);
    cc_game *g = rc < 0 ? NULL : calloc(1, sizeof *g);
    if (!g) {
        cc_board_free(board);
        return rc < 0 ? rc : CC_ERR_NOMEM;
    }
    g->ts = ts;
    g->cfg = *cfg;
    g->nplayers = cfg->nplayers;
    g->ntypes = ntypes;
    g->nstack = nstack;
    g->board = board ? board : cc_board_new(ts, game_max_tiles(cfg, nstack));
    g->tile_flags = malloc((size_t)ntypes + 1);
    g->stack = malloc(((size_t)nstack + 1) * sizeof *g->stack);
    if (!g->board || !g->tile_flags || !g->stack || game_grow_rows(g, 5 * 1024) < 0) {
        cc_game_free(g);
        return CC_ERR_NOMEM;
    }
    g->board->farm_points = cfg->farm_points;  /* R-BASE-8, read where the board scores */
    memcpy(g->tile_flags, tile_flags, (size_t)ntypes);
    if (nstack) memcpy(g->stack, stack, (size_t)nstack * sizeof *stack);
    if (cfg->shuffle_stack) {  /* R-BASE-2, R-RIV-1: river first, lake last, then land */
        uint64_t tiles = cfg->tiles_stream;
        int land = cfg->river_tiles + cfg->lake_tiles;
        game_shuffle(g->stack, cfg->river_tiles, &tiles);
        game_shuffle(g->stack + land, nstack - land, &tiles);
    }
    for (int s = 0; s < g->nplayers; s++) {
        g->supply[s] = cfg->followers;
        g->rng[s] = seat_state[s];
        g->seats[s] = seats[s];
    }
    g->seat = g->nplayers - 1;  /* the first turn goes to seat 0 */
    game_bind_units(g);
    g->drawn_type = g->placed_index = -1;
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->start) g->units[k]->start(g);
    int32_t done[CC_MAX_COMPLETED];
    rc = cc_place(g->board, cfg->start_type, 0, 0, 0, done, CC_MAX_COMPLETED);
    int32_t v[4] = {cfg->start_type, 0, 0, 0};
    game_emit(g, CC_EV_START, 0, -1, 4, v);
    if (rc >= 0) rc = advance(g);
    if (rc < 0) {
        cc_game_free(g);
        return rc;
    }
    *out = g;
    return CC_OK;
}

int cc_game_new(const cc_tileset *ts, const cc_game_config *cfg, const int32_t *stack,
                int nstack, const uint8_t *tile_flags, int ntypes, const uint64_t *seat_state,
                const cc_seat_policy *seats, cc_game **out) {
    return game_new(ts, cfg, stack, nstack, tile_flags, ntypes, seat_state, seats, NULL, out);
}

static void *dup(const void *p, size_t n) {
    if (!p || !n) return NULL;
    void *q = malloc(n);
    if (q) memcpy(q, p, n);
    return q;
}

cc_game *cc_game_clone(const cc_game *g) {
    if (!g) return NULL;
    cc_game *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *g;
    c->board = cc_board_clone(g->board);
    c->tile_flags = dup(g->tile_flags, (size_t)g->ntypes + 1);
    c->stack = dup(g->stack, ((size_t)g->nstack + 1) * sizeof *g->stack);
    c->rows = dup(g->rows, (size_t)g->rows_cap * sizeof *g->rows);
    c->values = dup(g->values, ((size_t)g->rows_cap / 5 + 1) * sizeof *g->values);
    c->events = dup(g->events, (size_t)g->events_cap * sizeof *g->events);
    c->history = dup(g->history, (size_t)g->history_cap * sizeof *g->history);
    if (!c->board || !c->tile_flags || !c->stack || !c->rows || !c->values
        || (g->events && !c->events) || (g->history && !c->history)) {
        cc_game_free(c);
        return NULL;
    }
    return c;
}

/* ---------------------------------------------------------------- queries */

int cc_game_apply(cc_game *g, int index) {
    if (!g) return CC_ERR_ARG;
    if (g->error) return g->error;
    if (g->dec_kind == CC_DEC_NONE || index < 0 || index >= game_nchoices(g)) return CC_ERR_ARG;
    int rc = apply_choice(g, index);
    if (rc < 0) return fail(g, rc);
    return advance(g);
}

int cc_game_decision(const cc_game *g, int32_t *head, int head_cap, int32_t *choices, int cap) {
    if (!g || !head || head_cap < CC_HEAD_INTS || cap < 0 || (cap && !choices)) return CC_ERR_ARG;
    if (g->error) return g->error;
    int n = game_nchoices(g);
    for (int i = 0; i < CC_HEAD_INTS; i++) head[i] = -1;
    head[0] = g->dec_kind;
    head[1] = g->dec_kind ? g->dec_seat : -1;
    head[3] = n;
    if (g->dec_kind == CC_DEC_PLACE) {
        if (5 * (int64_t)n > cap) return CC_ERR_FULL;
        head[2] = g->drawn_type;
        memcpy(choices, g->rows, (size_t)n * 5 * sizeof *choices);
        return n;
    }
    const decision_t *d = decision_of(g, g->dec_kind);
    return d ? d->describe(g, head, choices, cap) : n;
}

int cc_game_events(const cc_game *g, int from, int32_t *out, int cap) {
    if (!g || !out || cap < 0 || from < 0 || from > g->nevents) return CC_ERR_ARG;
    int n = g->nevents - from;
    if (n > cap / CC_EVENT_INTS) return CC_ERR_FULL;
    if (n) memcpy(out, &g->events[(size_t)from * CC_EVENT_INTS], (size_t)n * CC_EVENT_INTS * sizeof *out);
    return n;
}

int cc_game_history(const cc_game *g, int from, int32_t *out, int cap) {
    if (!g || !out || cap < 0 || from < 0 || from > g->nhistory) return CC_ERR_ARG;
    int n = g->nhistory - from;
    if (n > cap / CC_HISTORY_INTS) return CC_ERR_FULL;
    if (n) memcpy(out, &g->history[(size_t)from * CC_HISTORY_INTS], (size_t)n * CC_HISTORY_INTS * sizeof *out);
    return n;
}

/* The rows' fields: the base game's first, then each expansion's slice in registry
 * order (all of them, in play or not: the layout never depends on the rules). */
static const field_t BASE_RESULT[] = {{"score", 1}, {"points", CC_NSOURCES}, {"supply", 1},
                                      {"rank", 1}};
static const field_t BASE_STATUS[] = {{"turn", 1}, {"seat", 1}, {"tiles_left", 1}, {"over", 1},
                                      {"tiles", 1}, {"decision", 1}, {"events", 1}, {"history", 1},
                                      {"error", 1}, {"decisions", 1}};
enum { NBASE_RESULT = sizeof BASE_RESULT / sizeof *BASE_RESULT,
       NBASE_STATUS = sizeof BASE_STATUS / sizeof *BASE_STATUS };

static int base_width(const field_t *f, int n) {
    int w = 0;
    for (int i = 0; i < n; i++) w += f[i].width;
    return w;
}

static const field_t *unit_fields(const expansion_t *x, int status, int32_t *n) {
    *n = status ? x->nstatus_fields : x->nresult_fields;
    return status ? x->status_fields : x->result_fields;
}

/* Field i of the result (status 0) or status row: name, offset, width. */
static int32_t row_field(int status, int32_t i, const char **name, int32_t *offset, int32_t *width) {
    if (i < 0 || !name || !offset || !width) return CC_ERR_ARG;
    const field_t *base = status ? BASE_STATUS : BASE_RESULT;
    int nbase = status ? NBASE_STATUS : NBASE_RESULT, at = 0;
    for (int k = -1; k < NREGISTRY; k++) {
        int32_t n = nbase;
        const field_t *f = k < 0 ? base : unit_fields(REGISTRY[k], status, &n);
        for (int j = 0; j < n; j++, i--) {
            if (i == 0) {
                *name = f[j].name;
                *offset = at;
                *width = f[j].width;
                return CC_OK;
            }
            at += f[j].width;
        }
    }
    return CC_ERR_ARG;
}

int32_t cc_result_field(int32_t i, const char **name, int32_t *offset, int32_t *width) {
    return row_field(0, i, name, offset, width);
}

int32_t cc_status_field(int32_t i, const char **name, int32_t *offset, int32_t *width) {
    return row_field(1, i, name, offset, width);
}

static int row_ints(int status) {
    int32_t n, w = status ? base_width(BASE_STATUS, NBASE_STATUS) : base_width(BASE_RESULT, NBASE_RESULT);
    for (int k = 0; k < NREGISTRY; k++) {
        const field_t *f = unit_fields(REGISTRY[k], status, &n);
        w += base_width(f, n);
    }
    return w;
}

int32_t cc_result_ints(void) { return row_ints(0); }
int32_t cc_status_ints(void) { return row_ints(1); }

/* R-BASE-9: 1 + the players strictly ahead (tied players share a rank; rank 1 wins). */
static int rank_of(const cc_game *g, int seat) {
    int r = 1;
    for (int o = 0; o < g->nplayers; o++) r += g->scores[o] > g->scores[seat];
    return r;
}

/* Each expansion's slice of a row at out + at, in registry order, up to `ints` (the
 * row's declared width). */
static int unit_slices(const cc_game *g, int status, int seat, int32_t *out, int at, int ints) {
    for (int k = 0; k < NREGISTRY; k++) {
        int32_t n;
        const field_t *f = unit_fields(REGISTRY[k], status, &n);
        int w = base_width(f, n);
        if (at + w > ints) return CC_ERR_FULL;
        if (w && status) REGISTRY[k]->status(g, out + at);
        else if (w) REGISTRY[k]->result(g, seat, out + at);
        at += w;
    }
    return at == ints ? 0 : CC_ERR_FULL;
}

int cc_game_result(const cc_game *g, int32_t *out, int cap) {
    int ints = row_ints(0);
    if (!g || !out || cap < g->nplayers * ints) return CC_ERR_ARG;
    for (int s = 0; s < g->nplayers; s++) {
        int32_t *o = &out[s * ints];
        o[0] = g->scores[s];
        memcpy(&o[1], g->points[s], CC_NSOURCES * sizeof *o);
        o[1 + CC_NSOURCES] = g->supply[s];
        o[2 + CC_NSOURCES] = rank_of(g, s);
        int rc = unit_slices(g, 0, s, o, base_width(BASE_RESULT, NBASE_RESULT), ints);
        if (rc < 0) return rc;
    }
    return g->nplayers;
}

int cc_game_status(const cc_game *g, int32_t *out, int cap) {
    int ints = row_ints(1);
    if (!g || !out || cap < ints) return CC_ERR_ARG;
    enum { MAX_STATUS = 256 };  /* a bound of the stack row, far above the declared width */
    if (ints > MAX_STATUS) return CC_ERR_FULL;
    int32_t v[MAX_STATUS] = {g->turn, g->seat, game_tiles_left(g), g->over, g->board->ntiles,
                             g->dec_kind, g->nevents, g->nhistory, g->error, g->ndecisions};
    int rc = unit_slices(g, 1, -1, v, NBASE_STATUS, ints);
    if (rc < 0) return rc;
    memcpy(out, v, (size_t)ints * sizeof *v);
    return CC_OK;
}

const cc_board *cc_game_board(const cc_game *g) { return g ? g->board : NULL; }

int cc_game_set_seat(cc_game *g, int seat, const cc_seat_policy *policy) {
    if (!g || !policy || seat < 0 || seat >= g->nplayers || game_check_seat(policy) < 0) return CC_ERR_ARG;
    g->seats[seat] = *policy;
    return CC_OK;
}

int cc_game_set_stream(cc_game *g, int seat, uint64_t state) {
    if (!g || seat < 0 || seat >= g->nplayers) return CC_ERR_ARG;
    g->rng[seat] = state;
    return CC_OK;
}

int cc_game_streams(const cc_game *g, uint64_t *out, int cap) {
    if (!g || !out || cap < g->nplayers) return CC_ERR_ARG;
    memcpy(out, g->rng, (size_t)g->nplayers * sizeof *out);
    return g->nplayers;
}

/* ---------------------------------------------------------------- batches */

int cc_game_batch(const cc_tileset *ts, const cc_game_config *cfg, const int32_t *stack,
                  int nstack, const uint8_t *tile_flags, int ntypes, const cc_seat_policy *seats,
                  int ngames, const uint64_t *streams, int32_t *turns_out, int32_t *winners_out,
                  int32_t *results_out, int results_cap) {
    if (!ts || !cfg || ngames < 0 || !streams || !turns_out || !winners_out || !results_out
        || cfg->nplayers < 2 || cfg->nplayers > CC_MAX_PLAYERS)
        return CC_ERR_ARG;
    int np = cfg->nplayers, per = 2 + np, rc = 0, i = 0;
    int ints = row_ints(0);
    if ((int64_t)ngames * np * ints > results_cap) return CC_ERR_FULL;
    cc_game_config c = *cfg;
    c.record = 0;
    /* every game of the batch is dealt on one board (the same config and stack size):
     * emptied after each in time of its tiles, not a grid cleared anew per game */
    cc_board *board = NULL;
    for (; i < ngames && rc == 0; i++) {
        const uint64_t *s = &streams[(size_t)i * per];
        c.tiles_stream = s[0];
        c.messages_stream = s[1];
        cc_game *g = NULL;
        rc = game_new(ts, &c, stack, nstack, tile_flags, ntypes, &s[2], seats, board, &g);
        board = NULL;  /* the game's now (freed on an error) */
        if (rc < 0) break;
        if (!g->over) rc = CC_ERR_ARG;  /* a seat was not built in */
        else {
            turns_out[i] = g->turn - 1;
            int winners = 0;
            for (int q = 0; q < np; q++) winners |= (rank_of(g, q) == 1) << q;  /* R-BASE-9 */
            winners_out[i] = winners;
            rc = cc_game_result(g, &results_out[(size_t)i * np * ints], np * ints);
            rc = rc < 0 ? rc : 0;
        }
        board = g->board;
        g->board = NULL;
        board_reset(board);
        cc_game_free(g);
    }
    cc_board_free(board);
    return rc < 0 ? rc : i;
}
