/* carcsim C core: the Abbot and gardens (RULES.md 4b; sim/expansions/abbot.py holds its
 * facts, sim/reference/abbot.py is the reference engine's reading of the same rules).
 *
 * R-ABB-1  One abbot per seat. The garden copies of tiles are tile data (abbot.tiles,
 *          the River's RJ); a garden is on the board only with the Abbot in play
 *          (sim/engine/deal.py leaves the segment out otherwise).
 * R-ABB-2  A garden is a centre feature like the monastery (board.c: complete with its
 *          tile and the 8 around, R-ABB-4: worth its tile and the tiles around, 9 when
 *          completed, town halls not counted); only the abbot may stand on it.
 * R-ABB-3  In step 2 the abbot may go on the monastery or the garden of the tile just
 *          placed (its figure rule); on a monastery it is a monk for every rule that
 *          speaks of monks (counts_as_follower: The Messages' message 3).
 * R-ABB-5  Instead of a figure, a seat with its abbot on the board may take it back:
 *          it scores the abbot's feature at once as in final scoring, a round of scoring
 *          of its own (ROUND_OWN: under the classic edition it may draw a message; under
 *          c3.1 the points go onto the turn's figure, R-MSG-N1, and count at the end of
 *          phase 3). The place decision offers it as rows (x, y, rotation, CC_FIG_ABBOT,
 *          CC_RECALL) after every placement's own rows; the figure decision (RULES.md 6)
 *          as its last choice (game.c, mayors.c: the step-2 actions of the hook table).
 * R-ABB-6  Met through the hook table, not by name: message 3 counts gardens under c3.1
 *          only (messages.c), message 8 may take the abbot like any figure, the
 *          Courier's thank-you reaches a placed abbot like any figure placed this turn,
 *          a favour replaces standard followers only and a crisis meeting sends mayors
 *          home only (mayors.c).
 */
#include "game.h"

typedef struct {
    int32_t supply, placed, recalls, recall_points;  /* R-ABB-1: one abbot */
    int32_t fig;  /* the figure id it was last placed as: a hint, checked on use (abbot_of) */
} abbot_player_t;

typedef struct {
    abbot_player_t players[CC_MAX_PLAYERS];
} abbot_state_t;

extern const expansion_t abbot_expansion;

/* the Abbot's state, in the game's state area (game_state) */
static abbot_state_t *state(cc_game *g) { return game_state(g, &abbot_expansion); }
static const abbot_state_t *cstate(const cc_game *g) { return game_state_const(g, &abbot_expansion); }

/* R-ABB-3: on the monastery or garden of the tile just placed (always free there),
 * strength 1, it scores */
static const cc_figure_rule RULE = {CC_FIG_ABBOT, (1 << CC_MONASTERY) | (1 << CC_GARDEN), 1, 1, 1};

static const cc_figure_rule *abbot_rule(int kind) { return kind == CC_FIG_ABBOT ? &RULE : NULL; }

static void abbot_start(cc_game *g) {
    abbot_state_t *a = state(g);
    memset(a, 0, sizeof *a);
    for (int s = 0; s < g->nplayers; s++) a->players[s].supply = 1;  /* R-ABB-1 */
}

static int abbot_in_supply(const cc_game *g, int seat, int kind) {
    (void)kind;
    return cstate(g)->players[seat].supply;
}

static void abbot_supply_change(cc_game *g, int seat, int kind, int delta, int placed) {
    (void)kind;
    state(g)->players[seat].supply += delta;
    state(g)->players[seat].placed += placed;
}

static int abbot_complement(const cc_game *g, int kind) {
    (void)g;
    (void)kind;
    return 1;
}

static int is_abbot_of(const cc_board *b, int f, int seat) {
    return b->figs[f].seg >= 0 && b->figs[f].kind == CC_FIG_ABBOT && b->figs[f].player == seat;
}

/* How many abbots of seat's stand on the board (a loaded game's check: at most one). */
static int abbots_on_board(const cc_board *b, int seat) {
    int n = 0;
    for (int f = 0; f < b->nfig_slots; f++) n += is_abbot_of(b, f, seat);
    return n;
}

/* The figure id of seat's abbot on the board, -1 if it is in supply. Asked every turn
 * (actions) and every place decision (action_values), so not by a scan of the
 * figures: an abbot in supply is not on the board (R-ABB-1, check_state), and one on
 * the board is the figure it was placed as (figure_placed) unless a loaded or set-up
 * game says otherwise, which the scan then finds. */
static int abbot_of(const cc_game *g, int seat) {
    const abbot_player_t *a = &cstate(g)->players[seat];
    const cc_board *b = g->board;
    if (a->supply) return -1;
    if (in_range(a->fig, 0, b->nfig_slots) && is_abbot_of(b, a->fig, seat)) return a->fig;
    for (int f = 0; f < b->nfig_slots; f++)
        if (is_abbot_of(b, f, seat)) return f;
    return -1;
}

static void abbot_figure_placed(cc_game *g, int fig, int seg) {
    (void)seg;
    const figure_t *f = &g->board->figs[fig];
    if (f->kind == CC_FIG_ABBOT) state(g)->players[f->player].fig = fig;
}

/* R-ABB-5: taking the abbot back is an action while it stands on the board */
static int abbot_actions(const cc_game *g, int seat, int32_t *out, int cap) {
    if (cap < 1 || abbot_of(g, seat) < 0) return 0;
    out[0] = CC_FIG_ABBOT;
    out[1] = CC_RECALL;
    return 1;
}

/* R-ABB-5: the recall event, the abbot home, then (pushed, so run first: award, then
 * the round's end) its feature's final-scoring value to the seat. */
static int abbot_act(cc_game *g, int seat, int kind, int code) {
    const cc_board *b = g->board;
    int f = abbot_of(g, seat);
    if (kind != CC_FIG_ABBOT || code != CC_RECALL || f < 0) return CC_ERR_ARG;
    int seg = b->figs[f].seg, fkind = b->segs[find_const(b, seg)].kind;
    int points = feature_value(b, seg, 1);
    if (points < 0) return points;
    const placed_t *t = &b->tiles[seg / CC_MAX_SEGS];
    int32_t v[5] = {seg, t->x, t->y, points, fkind};
    game_emit(g, CC_EV_RECALL, g->turn, seat, 5, v);
    int rc = game_return_figure(g, f);
    if (rc < 0) return rc;
    state(g)->players[seat].recalls++;
    state(g)->players[seat].recall_points += points;
    rc = game_push(g, STEP_END_ROUND, ROUND_OWN, 0, 0);
    return rc < 0 ? rc : game_push(g, STEP_AWARD, seat, points, source_of_kind(fkind));
}

/* greedy's value of taking the abbot back: its points now less what the abbot's
 * feature is worth to the seat if it stays, and the abbot home unless the feature is
 * complete (then it comes home anyway, and the points are the same). */
static double recall_value(const cc_board *b, const cc_greedy_params *p, int kind, int tiles, int around) {
    int complete = around == 8;
    double kept = greedy_worth(p, kind, tiles, 0, complete, 0, b->farm_points);
    return tiles - kept + (complete ? 0.0 : p->follower_value);
}

/* greedy (strategies/greedy.py): recall_value after the tile about to be placed, when
 * it is next to the abbot's feature (its value then: a tile more around, and one more
 * to its worth unless a town hall, R-MM-10, R-ABB-4), and as it is elsewhere; the
 * feature's tiles and neighbours counted once for all the cells. */
static void abbot_action_values(const cc_game *g, const cc_greedy_params *p, int kind, int code,
                                const int32_t *cells, int n, double *out) {
    (void)kind;
    (void)code;
    const cc_board *b = g->board;
    int f = abbot_of(g, p->player);
    if (f < 0) {
        for (int i = 0; i < n; i++) out[i] = 0.0;
        return;
    }
    int seg = b->figs[f].seg, fkind = b->segs[find_const(b, seg)].kind;
    const placed_t *t = &b->tiles[seg / CC_MAX_SEGS];
    int tiles = monastery_tiles(b, t->x, t->y), around = around_count(b, cell_in(b, t->x, t->y));
    double away = recall_value(b, p, fkind, tiles, around);
    double next_to[2] = {recall_value(b, p, fkind, tiles + 1, around + 1),  /* a tile that counts */
                         recall_value(b, p, fkind, tiles, around + 1)};     /* a town hall */
    for (int i = 0; i < n; i++) {
        const int32_t *c = cells ? &cells[3 * i] : NULL;
        out[i] = c && abs(c[0] - t->x) <= 1 && abs(c[1] - t->y) <= 1 ? next_to[c[2] != 0] : away;
    }
}

/* R-ABB-3: the abbot is a monk on a monastery (and what stands on a garden) */
static int abbot_counts_as_follower(int kind, int feature_kind) {
    return kind == CC_FIG_ABBOT && is_centre(feature_kind);
}

/* A loaded game's Abbot (save.c): each seat's one abbot in supply or on the board. */
static int abbot_check_state(const cc_game *g) {
    for (int s = 0; s < g->nplayers; s++) {
        const abbot_player_t *a = &cstate(g)->players[s];
        int on_board = abbots_on_board(g->board, s);
        if (!in_range(a->supply, 0, 2) || on_board > 1
            || (game_has(g, CC_X_ABBOT) && a->supply + on_board != 1)
            || !in_range(a->placed, 0, SAVE_MAX_POINTS) || !in_range(a->recalls, 0, SAVE_MAX_POINTS)
            || !in_range(a->recall_points, 0, SAVE_MAX_POINTS))
            return 0;
    }
    return 1;
}

static const named_t EVENTS[] = {{CC_EV_RECALL, "recall"}};
static const named_t FIGURES[] = {{CC_FIG_ABBOT, "abbot"}};
/* per seat: the abbot in supply, times placed, times taken back, points taken back */
static const field_t RESULT[] = {{"abbot", 4}};

static void abbot_result(const cc_game *g, int seat, int32_t *out) {
    const abbot_player_t *a = &cstate(g)->players[seat];
    out[0] = a->supply;
    out[1] = a->placed;
    out[2] = a->recalls;
    out[3] = a->recall_points;
}

const expansion_t abbot_expansion = {
    .name = "abbot", .bit = CC_X_ABBOT, .start = abbot_start,
    .figure_rule = abbot_rule, .in_supply = abbot_in_supply, .supply_change = abbot_supply_change,
    .complement = abbot_complement, .figure_placed = abbot_figure_placed,
    .actions = abbot_actions, .act = abbot_act, .action_values = abbot_action_values,
    .counts_as_follower = abbot_counts_as_follower,
    .result_fields = RESULT, .nresult_fields = sizeof RESULT / sizeof *RESULT, .result = abbot_result,
    .check_state = abbot_check_state,
    .events = EVENTS, .nevents = sizeof EVENTS / sizeof *EVENTS,
    .figures = FIGURES, .nfigures = sizeof FIGURES / sizeof *FIGURES,
    .state_size = sizeof(abbot_state_t),
};
