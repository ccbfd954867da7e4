/* carcsim C core: the Courier (RULES.md 4; sim/reference/courier.py is the reference
 * engine's reading of the same rules).
 *
 * R-COU-2  The Courier starts off the board.
 * R-COU-3  Phase 4, after scoring and messages: the first meeple placed or moved this
 *          turn that still stands on an incomplete road, city or monastery on a letter
 *          tile, on the Courier's tile or orthogonally next to it, gets the thank-you:
 *          the Courier moves there and its owner scores that feature as in final
 *          scoring, alone. One thank-you per turn.
 * R-COU-4  The first such meeple wins, whoever owns it; 0 points still move the Courier.
 * R-COU-5  Thank-you points are a round of scoring of their own.
 */
#include "game.h"

enum { MOVED_CAP = 32 };  /* figures placed or moved in one turn, at most */

typedef struct {
    int32_t on_board, x, y;            /* R-COU-2: starts off the board */
    int32_t nmoved;                    /* figures placed or moved this turn */
    int32_t moved_fig[MOVED_CAP], moved_seg[MOVED_CAP];
} courier_state_t;

extern const expansion_t courier_expansion;

/* the Courier's state, in the game's state area (game_state) */
static courier_state_t *state(cc_game *g) { return game_state(g, &courier_expansion); }
static const courier_state_t *cstate(const cc_game *g) { return game_state_const(g, &courier_expansion); }

/* its step kind (local: game_step_kind): phase 4 */
enum { COURIER_STEP, COURIER_NSTEPS };

int32_t cc_courier_near(int32_t cx, int32_t cy, int32_t x, int32_t y) {
    /* in 64 bits: coordinates of any int32 value cannot overflow the distance */
    return llabs((int64_t)cx - x) + llabs((int64_t)cy - y) <= 1;
}

static int courier_near(const cc_game *g, int x, int y) {
    const courier_state_t *c = cstate(g);
    return c->on_board && cc_courier_near(c->x, c->y, x, y);
}

/* greedy with `courier`: a meeple where the thank-you would reach it (R-COU-3). */
static int reaches_courier(const cc_game *g, const int32_t *row) {
    if (row[3] < 0 || row[4] < 0) return 0;  /* no figure, or an action (R-ABB-5) */
    int kind = variant(g->board, g->drawn_type, row[2])->def.seg_kind[row[4]];
    if (kind == CC_FIELD) return 0;
    return (g->tile_flags[g->drawn_type] & CC_TILE_LETTER) || courier_near(g, row[0], row[1]);
}

static void courier_start(cc_game *g) {
    *state(g) = (courier_state_t){0};
}

static void courier_next_turn(cc_game *g) {
    state(g)->nmoved = 0;
    if (game_push_step(g, &courier_expansion, COURIER_STEP, 0, 0, 0) < 0)  /* phase 4 closes the turn */
        g->error = CC_ERR_FULL;
}

static void courier_figure_placed(cc_game *g, int fig, int seg) {
    courier_state_t *c = state(g);
    if (c->nmoved >= MOVED_CAP) { g->error = CC_ERR_FULL; return; }
    c->moved_fig[c->nmoved] = fig;
    c->moved_seg[c->nmoved++] = seg;
}

/* R-COU-4: a figure that left the board no longer counts as placed or moved this turn;
 * a figure put down later may get its id (a favour's follower on the very segment of
 * the follower it replaced), and must not inherit that one's place in the list. */
static void courier_figure_removed(cc_game *g, int fig) {
    courier_state_t *c = state(g);
    int kept = 0;
    for (int i = 0; i < c->nmoved; i++)
        if (c->moved_fig[i] != fig) {
            c->moved_fig[kept] = c->moved_fig[i];
            c->moved_seg[kept++] = c->moved_seg[i];
        }
    c->nmoved = kept;
}

static int courier_step(cc_game *g, int local, const step_t *s) {
    (void)s;
    if (local != COURIER_STEP) return 0;
    courier_state_t *c = state(g);
    for (int i = 0; i < c->nmoved; i++) {
        int32_t fig[5], f[8], tile[4];
        int seg = c->moved_seg[i];
        if (cc_figure_info(g->board, c->moved_fig[i], fig, 5) < 0) return CC_ERR_ARG;
        if (fig[3] != seg) continue;  /* moved on since (a ride lists it anew) */
        if (cc_feature_info(g->board, seg, f, 8) < 0) return CC_ERR_ARG;
        if (f[1] == CC_FIELD || f[5]) continue;  /* fields never; complete features no more */
        if (cc_tile_info(g->board, seg / CC_MAX_SEGS, tile, 4) < 0) return CC_ERR_ARG;
        if (!(g->tile_flags[tile[0]] & CC_TILE_LETTER) && !courier_near(g, tile[2], tile[3])) continue;
        int points = feature_value(g->board, seg, 1);
        if (points < 0) return points;
        int32_t v[7] = {seg, tile[2], tile[3], points, c->on_board, c->x, c->y};
        game_emit(g, CC_EV_COURIER, g->turn, fig[0], 7, v);
        c->on_board = 1;
        c->x = tile[2];
        c->y = tile[3];
        int rc = game_push(g, STEP_END_ROUND, ROUND_OWN, 0, 0);
        if (rc == 0) rc = game_push(g, STEP_AWARD, fig[0], points, CC_SRC_COURIER);
        return rc < 0 ? rc : 1;
    }
    return 1;
}

/* A loaded game's Courier (save.c): on the grid (no abs(INT_MIN) in a distance), its
 * figures placed or moved this turn real and each once (R-COU-4: a move forgets the
 * figure first). */
static int courier_check_state(const cc_game *g) {
    const courier_state_t *c = cstate(g);
    const cc_board *b = g->board;
    if (!in_range(c->nmoved, 0, MOVED_CAP + 1) || !on_grid(b, c->x) || !on_grid(b, c->y)) return 0;
    for (int i = 0; i < c->nmoved; i++) {
        if (!in_range(c->moved_fig[i], 0, CC_MAX_FIGURES) || !seg_valid(b, c->moved_seg[i])) return 0;
        for (int j = 0; j < i; j++)
            if (c->moved_fig[j] == c->moved_fig[i]) return 0;
    }
    return 1;
}

static const named_t EVENTS[] = {{CC_EV_COURIER, "courier"}};
/* where it stands: on the board (0: not yet, R-COU-2), x, y */
static const field_t STATUS[] = {{"courier", 3}};

static void courier_status(const cc_game *g, int32_t *out) {
    const courier_state_t *c = cstate(g);
    out[0] = c->on_board;
    out[1] = c->x;
    out[2] = c->y;
}

const expansion_t courier_expansion = {
    .name = "courier", .bit = CC_X_COURIER, .start = courier_start,
    .next_turn = courier_next_turn, .figure_placed = courier_figure_placed,
    .nsteps = COURIER_NSTEPS, .step = courier_step,
    .figure_removed = courier_figure_removed,
    .status_fields = STATUS, .nstatus_fields = sizeof STATUS / sizeof *STATUS, .status = courier_status,
    .events = EVENTS, .nevents = sizeof EVENTS / sizeof *EVENTS, .check_state = courier_check_state,
    .greedy_aim = reaches_courier,
    .state_size = sizeof(courier_state_t),
};
