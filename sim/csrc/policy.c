/* carcsim C core: the built-in policies, the same choices as the strategies package
 * (strategies/basic.py, greedy.py, messages.py document them; this is their C form,
 * tested against them decision by decision). Random choices use the seat's stream
 * exactly as the Python policies do: one below(n) per random decision. */
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

int policy_place(cc_game *g) {
    const cc_seat_policy *p = &g->seats[g->seat];
    if (g->nrows <= 0) return CC_ERR_ARG;
    if (p->place == CC_POL_FIRST) return first_place(g);
    if (p->place == CC_POL_RANDOM) return splitmix_below(&g->rng[g->seat], g->nrows);
    /* greedy: the best value, the first of equals */
    int aim = p->courier != 0.0 && game_has(g, CC_X_COURIER), best = 0;
    double top = 0.0;
    for (int k = 0; k < g->nrows; k++) {
        double v = g->values[k];
        if (aim) v = v + p->courier * reaches_courier(g, &g->rows[5 * k]);
        if (k == 0 || v > top) { top = v; best = k; }
    }
    return best;
}

/* ---------------------------------------------------------------- scoring figure */

/* P(points % 5 == k) of the next award (strategies/messages.py PRIOR). */
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
    int seat = g->seat, n = g->msg.nchoices;
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
