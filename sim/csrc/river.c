/* carcsim C core: the River (RULES.md 3b; sim/expansions/river.py states the same rules).
 *
 * R-RIV-1  The spring starts (Python builds the river stack, lake at its bottom).
 * R-RIV-2  A river tile must continue the river from its open end, and a curve may not
 *          turn the same way as the previous curve (straights between do not reset it).
 * R-RIV-3  Fields across the river: only what the tile data says (nothing to do here).
 */
#include "game.h"

typedef struct {
    int32_t open;          /* 0 once the lake has closed the river */
    int32_t x, y, edge;    /* the open river end */
    int32_t last_turn;     /* the previous curve: +1, -1, 0 before the first */
} river_state_t;

extern const expansion_t river_expansion;

/* the River's state, in the game's state area (game_state) */
static river_state_t *state(cc_game *g) { return game_state(g, &river_expansion); }
static const river_state_t *cstate(const cc_game *g) { return game_state_const(g, &river_expansion); }

/* Whether river tile `type` in rotation rot at (x, y) continues the river: its turn
 * (+1 clockwise, -1, 0 straight or the lake) and exit edge (-1: the lake). */
static int course(const cc_game *g, int type, int x, int y, int rot, int *turn, int *exit_edge) {
    const river_state_t *r = cstate(g);
    if (!r->open || x != r->x + DX[r->edge] || y != r->y + DY[r->edge]) return 0;
    const int8_t *edges = variant(g->board, type, rot)->def.edges;
    int entry = (r->edge + 2) % 4;
    if (edges[entry] != CC_EDGE_RIVER) return 0;
    *exit_edge = -1;
    for (int e = 0; e < 4 && *exit_edge < 0; e++)
        if (e != entry && edges[e] == CC_EDGE_RIVER) *exit_edge = e;
    *turn = 0;
    if (*exit_edge >= 0) {
        int d = (*exit_edge - r->edge + 4) % 4;
        *turn = d == 1 ? 1 : d == 3 ? -1 : 0;
    }
    return 1;
}

static int river_check_config(const cc_tileset *ts, const cc_game_config *c) {
    (void)ts;
    return c->river_edge < 0 || c->river_edge > 3 ? CC_ERR_ARG : 0;  /* the spring's edge */
}

/* R-RIV-2: while the river is open, river tiles are laid and nothing else */
static int river_restricts(const cc_game *g) { return cstate(g)->open; }

/* A loaded game's river end (save.c): its next square x + DX, y + DY on the grid. */
static int river_check_state(const cc_game *g) {
    const river_state_t *r = cstate(g);
    return in_range(r->edge, 0, 4) && on_grid(g->board, r->x) && on_grid(g->board, r->y);
}

static void river_start(cc_game *g) {
    *state(g) = (river_state_t){1, 0, 0, g->cfg.river_edge, 0};  /* leaves the spring at 0,0 r0 */
}

static int river_allows(const cc_game *g, int type, int x, int y, int rot) {
    if (!(g->tile_flags[type] & CC_TILE_RIVER)) return -1;
    int turn, exit_edge;
    if (!course(g, type, x, y, rot, &turn, &exit_edge)) return 0;
    return turn == 0 || turn != cstate(g)->last_turn;  /* R-RIV-2: no U-turn */
}

static void river_placed(cc_game *g, int type, int x, int y, int rot) {
    if (!(g->tile_flags[type] & CC_TILE_RIVER)) return;
    int turn = 0, exit_edge = -1;
    if (!course(g, type, x, y, rot, &turn, &exit_edge)) exit_edge = -1;
    river_state_t *r = state(g);
    if (turn) r->last_turn = turn;
    if (exit_edge < 0) r->open = 0;  /* the lake closes the river */
    else {
        r->x = x;
        r->y = y;
        r->edge = exit_edge;
    }
}

int cc_game_river_end(const cc_game *g, int32_t *out, int cap) {
    if (!g || !out || cap < 3) return CC_ERR_ARG;
    const river_state_t *r = cstate(g);
    if (!game_has(g, CC_X_RIVER) || !r->open) return 0;
    out[0] = r->x;
    out[1] = r->y;
    out[2] = r->edge;
    return 1;
}

const expansion_t river_expansion = {
    .name = "river", .bit = CC_X_RIVER, .start = river_start, .allows = river_allows,
    .placed = river_placed, .check_config = river_check_config,
    .restricts_placement = river_restricts, .check_state = river_check_state,
    .state_size = sizeof(river_state_t),
};
