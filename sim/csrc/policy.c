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

/* greedy's road_figure (1 + a figure kind, 0 none): the follower or messenger meeple
 * of row `idx` swapped for the other one on a road wherever both are allowed; the
 * figure kind is at column `at` of the rows, its local segment at `at` + 1. */
int policy_road_figure(const cc_game *g, int want, const variant_t *v, int idx, int at) {
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
    return policy_road_figure(g, p->road_figure[0], variant(g->board, g->drawn_type, g->rows[5 * best + 2]),
                       best, 3);
}

