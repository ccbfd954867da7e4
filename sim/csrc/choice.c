/* carcsim C core: a built-in policy answers the current decision. One dispatch serves
 * the game itself (a built-in seat, game.c advance) and Python (a built-in policy
 * asked by the differential harness, a strategy that composes one, tests:
 * cc_game_policy_choice), so a game answered decision by decision from Python is the
 * game the C seats play, bit for bit: the same functions (policy.c), the same
 * parameters, the deciding seat's own policy stream. */
#include "game.h"

int game_policy_choice(cc_game *g) {
    const decision_t *d = game_decision(g);  /* an expansion's kind: its declared policies */
    int idx = game_policy_of(g) == CC_POL_SEARCH ? search_choose(g)  /* any kind (search.c) */
            : g->dec_kind == CC_DEC_PLACE ? policy_place(g) : d ? d->choose(g) : CC_ERR_ARG;
    return idx < 0 || idx < game_nchoices(g) ? idx : CC_ERR_ARG;
}

/* greedy's value of each row of the current place decision for seat policy sp, as
 * options() (game.c) works them out when a greedy seat draws: cc_turn_options with
 * the weights of game_greedy_params. The decision's rows are cc_turn_options' rows
 * less those an expansion forbids (R-RIV-2, RULES.md 6), in the same order, so they
 * are matched in order, then the step-2 actions' rows. values: room for nrows. Returns nrows or an error. */
static int place_values(const cc_game *g, const cc_seat_policy *sp, double *values) {
    int seat = g->dec_seat, cap = g->rows_cap, n, k = 0;
    cc_figure_rule rules[NFIGURE_KINDS];
    int nrules = game_figure_rules(g, seat, rules);
    cc_greedy_params p;
    game_greedy_params(g, seat, sp, &p);
    int32_t *rows;
    double *all;
    for (;;) {  /* rows_cap held them when the tile was drawn, but a loaded game's may not */
        rows = malloc((size_t)cap * sizeof *rows);
        all = malloc(((size_t)cap / 5 + 1) * sizeof *all);
        n = rows && all ? cc_turn_options(g->board, g->drawn_type, rules, nrules, &p, rows, all, cap)
                        : CC_ERR_NOMEM;
        if (n != CC_ERR_FULL || cap > INT32_MAX / 4) break;
        free(rows);
        free(all);
        cap *= 2;
    }
    for (int i = 0; i < n && k < g->nrows; i++)
        if (!memcmp(&rows[5 * i], &g->rows[5 * k], 5 * sizeof *rows)) values[k++] = all[i];
    free(rows);
    free(all);
    if (n < 0) return n;
    /* then the step-2 actions (R-ABB-5), each beside its placement's no-figure row */
    for (int base = -1; k < g->nrows && g->rows[5 * k + 4] < -1; k++) {
        const int32_t *r = &g->rows[5 * k];
        for (base = 0; base < k; base++) {
            const int32_t *o = &g->rows[5 * base];
            if (o[0] == r[0] && o[1] == r[1] && o[2] == r[2] && o[3] < 0) break;
        }
        if (base == k) return CC_ERR_ARG;
        values[k] = values[base] + game_action_value(g, &p, r, 1);
    }
    return k == g->nrows ? k : CC_ERR_ARG;  /* rows not the decision's: never in play */
}

int cc_game_policy_choice(cc_game *g, const cc_seat_policy *pol, int32_t *choice_index) {
    if (!g || !pol || !choice_index || game_check_seat(pol) < 0) return CC_ERR_ARG;
    if (g->error) return g->error;
    if (g->over || g->dec_kind == CC_DEC_NONE) return CC_ERR_ARG;
    int seat = g->dec_seat, rc = 0;
    cc_seat_policy own = g->seats[seat];
    double *values = g->values;
    uint64_t stream = g->rng[seat];
    /* the policy answers as the seat's own would: the policy functions read the seat's
     * entry (and greedy's place values); both are put back below */
    g->seats[seat] = *pol;
    if (game_policy_of(g) == CC_POL_PYTHON) rc = CC_ERR_ARG;
    else if (g->dec_kind == CC_DEC_PLACE && pol->place == CC_POL_GREEDY) {
        g->values = malloc(((size_t)g->nrows + 1) * sizeof *g->values);
        rc = g->values ? place_values(g, pol, g->values) : CC_ERR_NOMEM;
    }
    if (rc >= 0) rc = game_policy_choice(g);
    if (g->values != values) {
        free(g->values);
        g->values = values;
    }
    g->seats[seat] = own;
    if (rc < 0) {
        g->rng[seat] = stream;  /* refused: nothing changed */
        return rc;
    }
    *choice_index = rc;
    return CC_OK;
}

int cc_game_policy_values(const cc_game *g, const cc_seat_policy *pol, double *values, int cap) {
    if (!g || !pol || !values || cap < 0 || game_check_seat(pol) < 0 || pol->place != CC_POL_GREEDY)
        return CC_ERR_ARG;
    if (g->error) return g->error;
    if (g->over || g->dec_kind != CC_DEC_PLACE) return CC_ERR_ARG;
    if (cap < g->nrows) return CC_ERR_FULL;
    return place_values(g, pol, values);
}
