/* carcsim C core: the base game's built-in place policies of the strategies package
 * (strategies/basic.py, greedy.py document them; this is their one form, asked from
 * Python through choice.c; an expansion's decisions have theirs in its unit, its
 * decision_t's choose). Random choices draw from the seat's stream as a Python policy
 * would (sim/engine/rng.py): one below(n) per random decision. */
#include "game.h"

/* first: the first placement, with a figure whenever one may go on it. */
static int first_place(const cc_game *g) {
    const int32_t *r = g->rows;
    for (int k = 0; k < g->nrows && r[5 * k] == r[0] && r[5 * k + 1] == r[1] && r[5 * k + 2] == r[2]; k++)
        if (r[5 * k + 3] >= 0) return k;
    return 0;
}

int policy_place(cc_game *g) {
    const cc_seat_policy *p = &g->seats[g->dec_seat];
    if (g->nrows <= 0) return CC_ERR_ARG;
    if (p->place == CC_POL_FIRST) return first_place(g);
    if (p->place == CC_POL_RANDOM) return splitmix_below(&g->rng[g->dec_seat], g->nrows);
    /* greedy: the best value, the first of equals */
    const expansion_t *aim = p->courier != 0.0 ? game_greedy_aim(g) : NULL;
    int best = 0;
    double top = 0.0;
    for (int k = 0; k < g->nrows; k++) {
        double v = g->values[k];
        if (aim) v = v + p->courier * aim->greedy_aim(g, &g->rows[5 * k]);
        if (k == 0 || v > top) { top = v; best = k; }
    }
    return game_greedy_place(g, p, best);  /* a unit's parameters may prefer another row */
}

