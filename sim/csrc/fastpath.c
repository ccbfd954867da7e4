/* carcsim C core: cc_play_base, the base game of built-in policies in one call. */
#include "internal.h"

enum { SRC_ROAD = 0, SRC_CITY = 1, SRC_MONASTERY = 2, SRC_FIELD = 3 };

/* Score one feature (R-BASE-6/7/8) for the fast path; during play return its figures. */
static int fast_score(cc_board *b, int root, int final, int nplayers, int32_t *points,
                      int *supply) {
    int32_t info[8];
    int rc = cc_feature_info(b, root, info, 8);
    if (rc < 0) return rc;
    int kind = info[1], tiles = info[2], coats = info[4], value, src;
    if (kind == CC_ROAD) { value = tiles; src = SRC_ROAD; }
    else if (kind == CC_CITY) { value = final ? tiles + coats : 2 * (tiles + coats); src = SRC_CITY; }
    else if (kind == CC_MONASTERY) { value = tiles; src = SRC_MONASTERY; } /* 9 if complete */
    else {
        int32_t cities[64];
        int n = cc_field_cities(b, root, cities, 64);
        if (n < 0) return n;
        value = 0;
        for (int i = 0; i < n; i++) value += 3 * (b->segs[cities[i]].open == 0);
        src = SRC_FIELD;
    }
    const seg_t *r = &b->segs[root];
    for (int q = 0; q < nplayers; q++)
        if (holds_majority(r->count, r->strength, nplayers, q)) points[q * 4 + src] += value;
    if (!final)
        for (int f = 0; f < CC_MAX_FIGURES; f++) {
            if (b->figs[f].seg < 0 || find_const(b, b->figs[f].seg) != root) continue;
            supply[b->figs[f].player]++;
            cc_figure_remove(b, f);
        }
    return 0;
}

int cc_play_base(const cc_tileset *ts, const int32_t *stack, int nstack, int start_type,
                 int nplayers, int followers, const int32_t *policy,
                 const cc_greedy_params *params, uint64_t *seat_state,
                 int32_t *points_out, int32_t *moves_out, int moves_cap) {
    if (!ts || !stack || nstack < 0 || start_type < 0 || start_type >= ts->n || nplayers < 2
        || nplayers > CC_MAX_PLAYERS || followers < 0 || !policy || !params || !seat_state
        || !points_out || !moves_out || moves_cap < 0)
        return CC_ERR_ARG;
    for (int i = 0; i < nstack; i++)
        if (stack[i] < 0 || stack[i] >= ts->n) return CC_ERR_ARG;
    for (int q = 0; q < nplayers; q++)
        if (policy[q] < 0 || policy[q] > 2) return CC_ERR_ARG;
    cc_board *b = cc_board_new(ts, nstack + 1);
    int cap = 5 * 4 * 13 * (2 * (nstack + 1) + 4);
    int32_t *rows = malloc((size_t)cap * sizeof *rows);
    double *values = malloc((size_t)(cap / 5) * sizeof *values);
    int32_t *done = malloc((size_t)(CC_MAX_COMPLETED) * sizeof *done);
    int rc = 0, turns = 0, seat = nplayers - 1;
    int supply[CC_MAX_PLAYERS];
    if (!b || !rows || !values || !done) { rc = CC_ERR_NOMEM; goto out; }
    memset(points_out, 0, (size_t)nplayers * 4 * sizeof *points_out);
    for (int q = 0; q < nplayers; q++) supply[q] = followers;
    rc = cc_place(b, start_type, 0, 0, 0, done, CC_MAX_COMPLETED);
    if (rc < 0) goto out;
    seat = 0;
    for (int i = 0; i < nstack; i++) {
        int t = stack[i];
        cc_greedy_params p;
        const cc_greedy_params *pp = NULL;
        if (policy[seat] == 2) {
            /* as strategies/greedy.py: the follower weight shrinks with the tiles left */
            int left = nstack - i - 1, in_play = left + b->ntiles;
            p = params[seat];
            p.player = seat;
            p.nplayers = nplayers;
            p.follower_value = params[seat].follower_value * left / in_play;
            pp = &p;
        }
        static const cc_figure_rule follower = {0, 0xF, 1, 1, 1}; /* R-BASE-4 */
        int n = cc_turn_options(b, t, &follower, supply[seat] > 0, pp, rows, values, cap);
        if (n < 0) { rc = n; goto out; }
        if (n == 0) continue;  /* R-BASE-3: fits nowhere, discarded; same seat draws again */
        int pick = 0;
        if (policy[seat] == 0) {
            for (int k = 0; k < n && rows[5 * k] == rows[0] && rows[5 * k + 1] == rows[1]
                            && rows[5 * k + 2] == rows[2]; k++)
                if (rows[5 * k + 3] >= 0) { pick = k; break; }
        } else if (policy[seat] == 1) {
            pick = splitmix_below(&seat_state[seat], n);
        } else {
            for (int k = 1; k < n; k++)
                if (values[k] > values[pick]) pick = k;
        }
        const int32_t *row = &rows[5 * pick];
        if (turns >= moves_cap / 5) { rc = CC_ERR_FULL; goto out; }
        memcpy(&moves_out[5 * turns], row, 5 * sizeof *row);
        turns++;
        int nd = cc_place(b, t, row[0], row[1], row[2], done, CC_MAX_COMPLETED);
        if (nd < 0) { rc = nd; goto out; }
        if (row[3] >= 0) {
            int f = cc_figure_add(b, seat, row[3], 1, 1, (b->ntiles - 1) * CC_MAX_SEGS + row[4]);
            if (f < 0) { rc = f; goto out; }
            supply[seat]--;
        }
        for (int k = 0; k < nd && rc == 0; k++) rc = fast_score(b, done[k], 0, nplayers, points_out, supply);
        if (rc < 0) goto out;
        seat = (seat + 1) % nplayers;
    }
    /* R-BASE-8: final scoring, features in ascending root order as in sim/game.py */
    int32_t occ[CC_MAX_FIGURES];
    int nocc = cc_occupied_features(b, occ, CC_MAX_FIGURES);
    if (nocc < 0) { rc = nocc; goto out; }
    for (int k = 0; k < nocc && rc == 0; k++) rc = fast_score(b, occ[k], 1, nplayers, points_out, supply);
    if (rc == 0) rc = turns;
out:
    cc_board_free(b);
    free(rows);
    free(values);
    free(done);
    return rc;
}
