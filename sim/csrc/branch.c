/* carcsim C core: counterfactual branches (sim/tournament/counterfactual.py, issue 13
 * item 4). From a game waiting at a decision, each branch is a clone of it that takes
 * one of the decision's choices and is played to the end by the seats' own built-in
 * policies, on random streams the caller derives (common random numbers: branches of
 * one rollout share them); only the final scores come back. Optionally the clone's
 * stack is rotated first (its next tile moved to the bottom): the aligned branch of an
 * extra tile or turn, which hands the same tiles to the same players as the action's
 * branch. The paused game itself never changes; the clones record nothing. */
#include "game.h"

int cc_branch_river_left(const cc_game *g) {
    if (!g) return CC_ERR_ARG;
    for (int i = g->top; i < g->nstack; i++)
        if (g->tile_flags[g->stack[i]] & CC_TILE_RIVER) return 1;
    return 0;
}

/* The tiles left in draw order t1, t2, ..., tn become t2, ..., tn, t1. */
static void rotate_stack(cc_game *g) {
    int left = g->nstack - g->top;
    if (left < 2) return;
    int32_t first = g->stack[g->top];
    memmove(&g->stack[g->top], &g->stack[g->top + 1], (size_t)(left - 1) * sizeof *g->stack);
    g->stack[g->nstack - 1] = first;
}

/* One branch into scores (nplayers). Returns CC_OK or an error; the clone is freed. */
static int play_branch(const cc_game *g, const cc_seat_policy *seats, int choice, int rotate,
                       const uint64_t *streams, int32_t *scores) {
    cc_game *c = cc_game_clone(g);
    if (!c) return CC_ERR_NOMEM;
    c->cfg.record = 0;  /* nothing of a branch is read but its scores */
    int rc = CC_OK;
    for (int s = 0; s < c->nplayers && rc >= 0; s++) {
        rc = cc_game_set_seat(c, s, &seats[s]);
        if (rc >= 0) rc = cc_game_set_stream(c, s, streams[s]);
    }
    if (rc >= 0 && rotate) rotate_stack(c);
    if (rc >= 0) rc = cc_game_apply(c, choice);
    if (rc > 0) rc = CC_ERR_ARG;  /* stopped at a decision: a seat is not built in */
    if (rc >= 0) memcpy(scores, c->scores, (size_t)c->nplayers * sizeof *scores);
    cc_game_free(c);
    return rc;
}

int cc_branch_play(const cc_game *g, const cc_seat_policy *seats, int nbranches,
                   const int32_t *choices, const int32_t *rotate, const uint64_t *streams,
                   int32_t *scores_out, int scores_cap) {
    if (!g || !seats || nbranches < 0
        || (nbranches > 0 && (!choices || !rotate || !streams || !scores_out)))
        return CC_ERR_ARG;
    if (g->error) return g->error;
    if (g->dec_kind == CC_DEC_NONE) return CC_ERR_ARG;
    for (int s = 0; s < g->nplayers; s++)
        if (seats[s].place == CC_POL_PYTHON || seats[s].scoring_figure == CC_POL_PYTHON
            || seats[s].messages == CC_POL_PYTHON)
            return CC_ERR_ARG;
    int np = g->nplayers;
    if ((int64_t)nbranches * np > scores_cap) return CC_ERR_FULL;
    for (int b = 0; b < nbranches; b++) {
        int rc = play_branch(g, seats, choices[b], rotate[b], &streams[(size_t)b * np],
                             &scores_out[(size_t)b * np]);
        if (rc < 0) return rc;
    }
    return nbranches;
}
