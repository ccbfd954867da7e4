/* carcsim C core: the `search` policy (strategies/search.py documents it; issue 16,
 * issue 25 item 2). A built-in policy for every decision kind, so a game of search
 * and greedy seats never leaves C and batches like every built-in.
 *
 * For a place decision the candidates are greedy's `candidates` best rows by its own
 * valuation (choice.c place_values, greedy's default weights; greedy's choice first,
 * ties in the decision's order); for any other decision every choice. One draw from
 * the deciding seat's own stream keys the rest (none when a single candidate is left):
 * deal j is the game cloned at this decision with what the seat has not seen dealt
 * anew from the key's stream, in order (deal_unseen: the stack's unseen tiles, river
 * tiles still first and the lake last of them, R-RIV-1; each unit's hidden state by
 * its determinise hook, The Messages' undrawn messages, R-MSG-11); every candidate is
 * applied to a clone of the same deals with the same seat streams (common random
 * numbers) and played on by built-in greedy seats (ROLLOUT_SEAT) for `depth` more tile
 * turns, then valued by greedy's valuation of the position (position_values), or with
 * depth 0 to the end (its final scores). A rollout scores the seat's margin over the
 * best other seat or its win share (R-BASE-9: a tie shares the win); the best mean
 * wins, ties to the first in the decision's order. Plainly every candidate gets
 * `rollouts` rollouts; with `halving` the same budget (rollouts x candidates) is spent
 * in rounds of sequential halving, each round's survivors on the next deals (at most
 * CC_SEARCH_MAX deals a round).
 *
 * The game searched never changes (every rollout is a clone; the only change is the
 * seat stream's one draw, which play makes too), and the search never reads what the
 * seat cannot know: the order of the stack and of the undrawn messages is dealt anew
 * before any rollout reads it. Errors (memory) come back as error codes with nothing
 * of the game changed but that draw. */
#include "game.h"

/* greedy with its default parameters (strategies/greedy.py), every decision kind: the
 * rollouts' seats and the candidates' valuation (tests/test_search.py checks it against
 * the Python declaration's struct) */
static const cc_seat_policy ROLLOUT_SEAT = {
    .place = CC_POL_GREEDY, .scoring_figure = CC_POL_GREEDY, .messages = CC_POL_GREEDY,
    .open_weight = {1.5, 1.0, 1.0, 1.0}, .opponent = 1.0, .follower = 2.0, .courier = 0.0,
    .extra = 3.0, .figure = CC_POL_GREEDY, .town_hall = CC_POL_GREEDY,
    .favour = CC_POL_GREEDY, .scarecrow = CC_POL_GREEDY, .ride = CC_POL_GREEDY,
    .figure_weight = {1.5, 1.0, 1.0, 1.0}, .figure_opponent = 1.0, .figure_follower = 2.0};

int cc_search_rollout_seat(cc_seat_policy *out) {
    if (!out) return CC_ERR_ARG;
    *out = ROLLOUT_SEAT;
    return CC_OK;
}

int search_check_seat(const cc_seat_policy *p) {
    if (p->search_rollouts < 1 || p->search_rollouts > CC_SEARCH_MAX || p->search_candidates < 1
        || p->search_candidates > CC_SEARCH_MAX
        || (p->search_score != CC_SEARCH_MARGIN && p->search_score != CC_SEARCH_WIN)
        || p->search_depth < 0 || p->search_depth > CC_SEARCH_MAX_DEPTH
        || (p->search_halving != 0 && p->search_halving != 1))
        return CC_ERR_ARG;
    return CC_OK;
}

/* ---------------------------------------------------------------- determinisation */

enum { CLASS_RIVER, CLASS_LAKE, CLASS_LAND };

/* R-RIV-1: a river tile (its flag) is dealt among the river's places, the lake (a river
 * tile with one river edge: the spring is never in the stack) keeps its place last of
 * them, every other tile is dealt among the land's places. */
static int tile_class(const cc_game *g, int type) {
    if (!(g->tile_flags[type] & CC_TILE_RIVER)) return CLASS_LAND;
    const int8_t *e = variant(g->board, type, 0)->def.edges;
    int river = 0;
    for (int k = 0; k < 4; k++) river += e[k] == CC_EDGE_RIVER;
    return river == 1 ? CLASS_LAKE : CLASS_RIVER;
}

/* Ascending (insertion: a stack's worth of tile types at most): what is dealt is put
 * in an order of its own first, so the deal never depends on the hidden order. */
void search_sort(int32_t *items, int n) {
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && items[k] < items[k - 1]; k--) {
            int32_t t = items[k];
            items[k] = items[k - 1];
            items[k - 1] = t;
        }
}

/* What no seat has seen, dealt anew from *deals (Stream.shuffle's Fisher-Yates, of the
 * items sorted first: the hidden order is never read): the stack's unseen tiles (those
 * after top; the drawn ones, the tile in hand included, keep their places), river
 * tiles among the river tiles' places then the land tiles among theirs (R-RIV-1), then
 * each unit in play's hidden state in registry order (The Messages: the messages not
 * yet drawn, R-MSG-11). scratch: room for 2 * nstack. */
static void deal_unseen(cc_game *g, uint64_t *deals, int32_t *scratch) {
    static const int DEALT[2] = {CLASS_RIVER, CLASS_LAND};  /* the lake keeps its place */
    int32_t *at = scratch, *items = scratch + g->nstack;
    for (int c = 0; c < 2; c++) {
        int n = 0, cls = DEALT[c];
        for (int i = g->top; i < g->nstack; i++)
            if (tile_class(g, g->stack[i]) == cls) {
                at[n] = i;
                items[n++] = g->stack[i];
            }
        search_sort(items, n);
        game_shuffle(items, n, deals);
        for (int k = 0; k < n; k++) g->stack[at[k]] = items[k];
    }
    for (int k = 0; k < g->nunits; k++)
        if (g->units[k]->determinise) g->units[k]->determinise(g, deals);
}

/* A clone of g keeping no records (events, history) and recording none; NULL without
 * memory. */
static cc_game *lean_clone(const cc_game *g) {
    cc_game lean = *g;  /* a shallow copy: cc_game_clone copies what it points to */
    lean.events = lean.history = NULL;
    lean.nevents = lean.nhistory = lean.events_cap = lean.history_cap = 0;
    lean.cfg.record = 0;
    return cc_game_clone(&lean);
}

/* What the deals are cloned from: g without its records, every seat a rollout seat. */
static cc_game *search_root(const cc_game *g) {
    cc_game *root = lean_clone(g);
    if (!root) return NULL;
    for (int s = 0; s < root->nplayers; s++) root->seats[s] = ROLLOUT_SEAT;
    return root;
}

int cc_game_determinised(const cc_game *g, uint64_t key, cc_game **out, int32_t *tiles, int cap) {
    if (!g || !out || cap < 0 || (cap && !tiles)) return CC_ERR_ARG;
    *out = NULL;
    if (g->error) return g->error;
    int left = game_tiles_left(g);
    if (cap && cap < left) return CC_ERR_FULL;
    cc_game *c = lean_clone(g);
    int32_t *scratch = malloc(2 * ((size_t)g->nstack + 1) * sizeof *scratch);
    if (!c || !scratch) {
        free(scratch);
        cc_game_free(c);
        return CC_ERR_NOMEM;
    }
    deal_unseen(c, &key, scratch);
    free(scratch);
    if (cap) memcpy(tiles, &c->stack[c->top], (size_t)left * sizeof *tiles);
    *out = c;
    return left;
}

/* ---------------------------------------------------------------- rollouts */

/* greedy's valuation of a position, for a rollout cut before the end: per seat its
 * score, plus for every feature holding figures the value greedy gives it (options.c
 * greedy_worth: its points if complete, else its kind's open weight times its final
 * value, R-BASE-8; a garden weighed as a monastery) for each seat holding its majority
 * (R-BASE-7), plus greedy's follower value (tiles left / tiles in play, weighted) for
 * each follower in supply. */
static int position_values(const cc_game *g, double *v) {
    const cc_board *b = g->board;
    const cc_seat_policy *p = &ROLLOUT_SEAT;
    int left = game_tiles_left(g), in_play = left + b->ntiles;
    double follower = p->follower * left / in_play;
    for (int q = 0; q < g->nplayers; q++) v[q] = g->scores[q] + follower * g->supply[q];
    int32_t occ[CC_MAX_FIGURES], info[8];
    int n = cc_occupied_features(b, occ, CC_MAX_FIGURES);
    for (int i = 0; i < n; i++) {
        int rc = cc_feature_info(b, occ[i], info, 8);
        if (rc < 0) return rc;
        int kind = info[1], complete = info[5];
        int points = feature_value(b, occ[i], !complete);
        if (points < 0) return points;
        double worth = complete ? points : p->open_weight[kind == CC_GARDEN ? CC_MONASTERY : kind] * points;
        const seg_t *r = &b->segs[info[0]];
        for (int q = 0; q < g->nplayers; q++)
            if (holds_majority(r->count, r->strength, g->nplayers, q)) v[q] += worth;
    }
    return n < 0 ? n : CC_OK;
}

/* One rollout's score for seat from values v (final scores or position_values). */
static double rollout_score(const double *v, int np, int seat, int score) {
    double best = 0.0, top = v[seat];
    int first = 1, tied = 0;
    for (int q = 0; q < np; q++) {
        if (q != seat && (first || v[q] > best)) { best = v[q]; first = 0; }
        if (v[q] > top) top = v[q];
    }
    if (score == CC_SEARCH_MARGIN) return v[seat] - best;
    for (int q = 0; q < np; q++) tied += v[q] == top;
    return v[seat] == top ? 1.0 / tied : 0.0;  /* R-BASE-9: a tie shares the win */
}

/* Where the rollouts' place decisions pause when a rollout is cut (depth): greedy's
 * answer, as a greedy seat gives it (options() with its values, then policy_place). */
static int greedy_place_now(cc_game *c) {
    int seat = c->dec_seat;
    c->seats[seat].place = CC_POL_GREEDY;
    int n = game_place_rows(c, c->drawn_type);
    int idx = n > 0 ? policy_place(c) : n < 0 ? n : CC_ERR_ARG;
    c->seats[seat].place = CC_POL_PYTHON;
    return idx;
}

typedef struct {
    int seat, np, score, depth;
    int stop_turn;  /* with depth: the rollout is cut at the first place decision of this turn */
} rollout_t;

/* Choice `choice` applied to det (a deal; consumed if `own`, else cloned), played on
 * by the rollout seats; its score in *out. */
static int rollout(cc_game *det, int own, int choice, const rollout_t *ro, double *out) {
    cc_game *c = own ? det : cc_game_clone(det);
    if (!c) return CC_ERR_NOMEM;
    int rc = cc_game_apply(c, choice);
    while (rc > 0 && ro->depth && c->turn < ro->stop_turn && c->dec_kind == CC_DEC_PLACE) {
        int idx = greedy_place_now(c);
        rc = idx < 0 ? idx : cc_game_apply(c, idx);
    }
    double v[CC_MAX_PLAYERS];
    if (rc > 0 && !(ro->depth && c->dec_kind == CC_DEC_PLACE)) rc = CC_ERR_ARG;  /* never: built-in seats */
    if (rc >= 0 && c->over)
        for (int q = 0; q < ro->np; q++) v[q] = c->scores[q];
    else if (rc >= 0)
        rc = position_values(c, v);
    if (rc >= 0) *out = rollout_score(v, ro->np, ro->seat, ro->score);
    cc_game_free(c);
    return rc < 0 ? rc : CC_OK;
}

/* ---------------------------------------------------------------- the search */

typedef struct {
    cc_game *root;
    uint64_t deals, key, ndeals;
    int32_t *scratch;  /* deal_unseen's */
    rollout_t ro;
} search_t;

/* The next deal (the deals stream consumed in order), seat streams set from the key. */
static cc_game *next_deal(search_t *S) {
    cc_game *d = cc_game_clone(S->root);
    if (!d) return NULL;
    deal_unseen(d, &S->deals, S->scratch);
    for (int s = 0; s < d->nplayers; s++) {  /* greedy draws nothing; set for every seat alike */
        uint64_t x = S->key ^ (0xD1B54A32D192ED03ull * (S->ndeals * CC_MAX_PLAYERS + (uint64_t)s + 1));
        d->rng[s] = splitmix_next(&x);
    }
    if (S->ro.depth)  /* the place decisions pause, to be cut at the depth (rollout) */
        for (int s = 0; s < d->nplayers; s++) d->seats[s].place = CC_POL_PYTHON;
    S->ndeals++;
    return d;
}

/* totals[i] += the score of candidate cand[i] on each of `deals` new deals, i < n. */
static int play_deals(search_t *S, const int32_t *cand, int n, int deals, double *totals) {
    for (int j = 0; j < deals; j++) {
        cc_game *d = next_deal(S);
        if (!d) return CC_ERR_NOMEM;
        for (int i = 0; i < n; i++) {
            double v;
            int rc = rollout(d, i == n - 1, cand[i], &S->ro, &v);  /* the last one takes the deal */
            if (rc < 0) {
                if (i != n - 1) cc_game_free(d);
                return rc;
            }
            totals[i] += v;
        }
    }
    return CC_OK;
}

/* better(i, j): candidate i's mean beats j's, a tie going to the first in the
 * decision's order */
static int better(double mi, int ci, double mj, int cj) { return mi > mj || (mi == mj && ci < cj); }

/* Sorts candidates (and their totals) best first by mean totals[i] / count. */
static void rank(int32_t *cand, double *totals, int n, int64_t count) {
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && better(totals[k] / count, cand[k], totals[k - 1] / count, cand[k - 1]); k--) {
            int32_t c = cand[k];
            cand[k] = cand[k - 1];
            cand[k - 1] = c;
            double t = totals[k];
            totals[k] = totals[k - 1];
            totals[k - 1] = t;
        }
}

/* The candidates of the current decision into cand (room for nchoices): a place
 * decision's `candidates` best rows by greedy's valuation, best first (ties in the
 * decision's order), else every choice in order. Returns how many, or an error. */
static int candidates(const cc_game *g, int k, int32_t *cand, int n) {
    if (g->dec_kind != CC_DEC_PLACE) {
        for (int i = 0; i < n; i++) cand[i] = i;
        return n;
    }
    double *values = malloc((size_t)n * sizeof *values);
    if (!values) return CC_ERR_NOMEM;
    int rc = cc_game_policy_values(g, &ROLLOUT_SEAT, values, n);
    int m = 0;
    for (int i = 0; rc >= 0 && i < n; i++) {  /* insertion into the best k so far */
        if (m == k && !(values[i] > values[cand[k - 1]])) continue;  /* ties keep the first */
        int at = m < k ? m++ : k - 1;  /* full: the worst kept goes */
        for (; at > 0 && values[i] > values[cand[at - 1]]; at--) cand[at] = cand[at - 1];
        cand[at] = i;
    }
    free(values);
    return rc < 0 ? rc : m;
}

int search_choose(cc_game *g) {
    const cc_seat_policy *p = &g->seats[g->dec_seat];
    int n = game_nchoices(g), seat = g->dec_seat;
    if (n <= 0 || search_check_seat(p) < 0) return CC_ERR_ARG;
    if (n == 1) return 0;
    search_t S = {.ro = {seat, g->nplayers, p->search_score, p->search_depth, 0}};
    int rollouts = p->search_rollouts, halving = p->search_halving;
    int32_t *cand = malloc((size_t)n * sizeof *cand);
    double *totals = calloc((size_t)n, sizeof *totals);
    int rc = cand && totals ? candidates(g, p->search_candidates, cand, n) : CC_ERR_NOMEM;
    int m = rc;
    if (rc == 1) rc = cand[0];  /* nothing to search: no draw */
    else if (rc > 1) {
        S.key = S.deals = splitmix_next(&g->rng[seat]);  /* the one draw (Stream.next_u64) */
        S.ro.stop_turn = g->turn + p->search_depth + 1;  /* the tile turns after this one */
        S.root = search_root(g);
        S.scratch = malloc(2 * ((size_t)g->nstack + 1) * sizeof *S.scratch);
        rc = S.root && S.scratch ? CC_OK : CC_ERR_NOMEM;
        if (rc == CC_OK && !halving) {
            rc = play_deals(&S, cand, m, rollouts, totals);
            if (rc == CC_OK) rank(cand, totals, m, rollouts);
        } else if (rc == CC_OK) {
            /* sequential halving: the budget of rollouts x candidates in ceil(log2 m)
             * rounds, each round's per candidate budget / (survivors x rounds) (at least
             * 1) on the next deals, then the better half (rounded up) goes on */
            int64_t budget = (int64_t)rollouts * m;
            int rounds = 0;
            int64_t count = 0;
            while ((1 << rounds) < m) rounds++;
            for (int alive = m; alive > 1 && rc == CC_OK;) {
                int64_t per = budget / ((int64_t)alive * rounds);
                int deals = per < 1 ? 1 : per > CC_SEARCH_MAX ? CC_SEARCH_MAX : (int)per;
                rc = play_deals(&S, cand, alive, deals, totals);
                count += deals;
                if (rc == CC_OK) rank(cand, totals, alive, count);
                alive = (alive + 1) / 2;
            }
        }
        if (rc == CC_OK) rc = cand[0];
    }
    cc_game_free(S.root);
    free(S.scratch);
    free(cand);
    free(totals);
    return rc;
}
