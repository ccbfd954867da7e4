/* carcsim C core: the built-in policies of the strategies package (strategies/basic.py,
 * greedy.py, messages.py document them; this is their one form, asked from Python
 * through choice.c). Random choices draw from the seat's stream as a Python policy
 * would (sim/rng.py): one below(n) per random decision. */
#include "game.h"

/* first: the first placement, with a figure whenever one may go on it. */
static int first_place(const cc_game *g) {
    const int32_t *r = g->rows;
    for (int k = 0; k < g->nrows && r[5 * k] == r[0] && r[5 * k + 1] == r[1] && r[5 * k + 2] == r[2]; k++)
        if (r[5 * k + 3] >= 0) return k;
    return 0;
}

/* greedy with `courier`: a meeple where the thank-you would reach it (R-COU-3). */
static int reaches_courier(const cc_game *g, const int32_t *row) {
    if (row[3] < 0) return 0;
    int kind = variant(g->board, g->drawn_type, row[2])->def.seg_kind[row[4]];
    if (kind == CC_FIELD) return 0;
    return (g->tile_flags[g->drawn_type] & CC_TILE_LETTER) || courier_near(g, row[0], row[1]);
}

/* greedy's road_figure (1 + a figure kind, 0 none): the follower or messenger meeple
 * of row `idx` swapped for the other one on a road wherever both are allowed; the
 * figure kind is at column `at` of the rows, its local segment at `at` + 1. */
static int road_figure(const cc_game *g, int want, const variant_t *v, int idx, int at) {
    const int32_t *r = &g->rows[5 * idx];
    int kind = r[at], local = r[at + 1];
    if (!want || (kind != CC_FIG_FOLLOWER && kind != CC_FIG_MESSENGER) || kind == want - 1
        || v->def.seg_kind[local] != CC_ROAD)
        return idx;
    for (int k = 0; k < g->nrows; k++) {
        const int32_t *o = &g->rows[5 * k];
        int same = 1;
        for (int c = 0; c < 5 && same; c++) same = c == at ? o[c] == want - 1 : o[c] == r[c];
        if (same) return k;
    }
    return idx;
}

int policy_place(cc_game *g) {
    const cc_seat_policy *p = &g->seats[g->dec_seat];
    if (g->nrows <= 0) return CC_ERR_ARG;
    if (p->place == CC_POL_FIRST) return first_place(g);
    if (p->place == CC_POL_RANDOM) return splitmix_below(&g->rng[g->dec_seat], g->nrows);
    /* greedy: the best value, the first of equals */
    int aim = p->courier != 0.0 && game_has(g, CC_X_COURIER), best = 0;
    double top = 0.0;
    for (int k = 0; k < g->nrows; k++) {
        double v = g->values[k];
        if (aim) v = v + p->courier * reaches_courier(g, &g->rows[5 * k]);
        if (k == 0 || v > top) { top = v; best = k; }
    }
    return road_figure(g, p->road_figure[0], variant(g->board, g->drawn_type, g->rows[5 * best + 2]),
                       best, 3);
}

/* ---------------------------------------------------------------- scoring figure */

/* P(points % 5 == k) of the next award (strategies/messages.py coverage). */
static const double PRIOR[5] = {0.093, 0.095, 0.165, 0.169, 0.479};

static double chance(int a, int b) {
    double s = 0;
    for (int k = 0; k < 5; k++)
        if ((a + k) % 5 == 0 || (b + k) % 5 == 0) s += PRIOR[k];
    return s;
}

int policy_scoring_figure(cc_game *g) {
    int seat = g->dec_seat, points = g->msg.pending_points;
    const msg_player_t *m = &g->msg.players[seat];
    int meeple = m->position[0], messenger = m->position[1];
    switch (g->seats[seat].scoring_figure) {
    case CC_POL_FIRST: case CC_POL_MEEPLE_ONLY: return 0;
    case CC_POL_RANDOM: return splitmix_below(&g->rng[seat], 2);
    case CC_POL_ALTERNATE: return (m->moves[0] + m->moves[1]) % 2;
    default: break;
    }
    /* dark_seeker (greedy too), spread, coverage: the figure landing on a dark space */
    int md = on_dark(meeple + points), sd = on_dark(messenger + points);
    if (md != sd) return md ? 0 : 1;
    if (md) return 0;
    switch (g->seats[seat].scoring_figure) {
    case CC_POL_SPREAD: return (meeple + points) % 5 == messenger % 5;
    case CC_POL_COVERAGE: return chance(meeple, messenger + points) > chance(meeple + points, messenger);
    default: return 0;
    }
}

/* ---------------------------------------------------------------- messages */

int policy_messages(cc_game *g) {
    int seat = g->dec_seat, n = g->msg.nchoices;
    const cc_seat_policy *p = &g->seats[seat];
    const int32_t *c = g->msg.choices;
    if (p->messages == CC_POL_FIRST) return 0;
    if (p->messages == CC_POL_RANDOM) return splitmix_below(&g->rng[seat], n);
    /* always_action, always_2, greedy: the action's best way (most points, then first) */
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (c[CC_MSG_CHOICE_INTS * i] == CC_MSG_TWO) continue;
        if (best < 0 || c[CC_MSG_CHOICE_INTS * i + 2] > c[CC_MSG_CHOICE_INTS * best + 2]) best = i;
    }
    int how = p->overrides[g->msg.in_hand];
    if (best < 0 || how == CC_OVERRIDE_TWO) return 0;  /* R-MSG-8: impossible -> 2 points */
    if (how == CC_OVERRIDE_ACTION || p->messages == CC_POL_ALWAYS_ACTION) return best;
    if (p->messages == CC_POL_GREEDY) {
        int pts = c[CC_MSG_CHOICE_INTS * best + 2];
        double value = pts < 0 ? p->extra : pts;  /* an extra tile or turn counts `extra` */
        if (value >= 2) return best;
    }
    return 0;
}

/* ---------------------------------------------------------------- Messengers & Mayors */

/* greedy's figure after activations (strategies/greedy.py): per option my gain
 * minus `opponent` x the others' mean gain, for its one feature: the weighted final
 * value if it stays open, its points if it is complete now; minus the follower's cost
 * (follower x tiles left / tiles in play) unless it scores now. Ties: the first. */
static int greedy_figure(const cc_game *g, const cc_seat_policy *p) {
    const cc_board *b = g->board;
    int n = g->nplayers, me = g->dec_seat, left = game_tiles_left(g), best = 0;
    double cost = p->figure_follower * left / (left + b->ntiles), best_value = 0.0;
    for (int k = 1; k < g->nrows; k++) {
        int kind = g->rows[5 * k], seg = g->placed_index * CC_MAX_SEGS + g->rows[5 * k + 1];
        const seg_t *r = &b->segs[find_const(b, seg)];
        int32_t f[8];
        int rc = cc_feature_info(b, seg, f, 8);
        if (rc < 0) return rc;
        int now = f[5] && r->kind != CC_FIELD;  /* complete: it scores this turn */
        double worth = feature_value(b, seg, !now);
        if (!now) worth *= p->figure_weight[r->kind];
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
    const placed_t *t = &b->tiles[g->placed_index];
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

int policy_mayors(cc_game *g) {
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
