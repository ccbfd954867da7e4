/* carcsim C core: the board, legal placements, union-find features, completion,
 * scoring queries and clone.
 *
 * This header has no macros and no includes on purpose: the cffi build script
 * cdef()s this very file, so Python and C can never disagree about it.
 * Every function returns an error code (< 0) instead of aborting; sim/_core.py turns
 * the codes into Python exceptions.
 *
 * Geometry: edges are indexed N=0 E=1 S=2 W=3; half-edges Nw=0 Ne=1 En=2 Es=3 Se=4
 * Sw=5 Ws=6 Wn=7 (TILES.md 1.2). x grows to the east, y to the north.
 * A segment is named globally by tile_index * 12 + local index; a feature is named by
 * the segment at the root of its union-find tree, valid until the next placement.
 */

enum {
    CC_MAX_PLAYERS = 6,
    CC_MAX_SEGS = 12,
    CC_MAX_FIGURES = 192
};

enum {
    CC_EDGE_FIELD = 0,
    CC_EDGE_ROAD = 1,
    CC_EDGE_CITY = 2,
    CC_EDGE_RIVER = 3,
    CC_EDGE_ANY = 4     /* town hall: fits every neighbour, closes what it touches */
};

enum {
    CC_CITY = 0,
    CC_ROAD = 1,
    CC_FIELD = 2,
    CC_MONASTERY = 3
};

enum {
    CC_OK = 0,
    CC_ERR_ARG = -1,       /* bad argument: null pointer, unknown type, bad index */
    CC_ERR_RANGE = -2,     /* coordinates outside the board's grid */
    CC_ERR_OCCUPIED = -3,  /* the cell already holds a tile */
    CC_ERR_NOFIT = -4,     /* edges do not match, or no placed neighbour */
    CC_ERR_FULL = -5,      /* an output buffer or a fixed capacity is too small */
    CC_ERR_NOMEM = -6
};

/* One tile type in one rotation, as filled in by Python (sim/tiles.py rotates). */
typedef struct {
    int8_t edges[4];          /* CC_EDGE_* per edge N E S W */
    int8_t nseg;              /* number of segments, at most 12 */
    int8_t seg_kind[12];      /* CC_CITY / CC_ROAD / CC_FIELD / CC_MONASTERY */
    uint8_t seg_mask[12];     /* city, road: bit e per edge; field: bit h per half-edge */
    int8_t seg_coats[12];     /* coats of arms on a city segment */
    uint16_t seg_cities[12];  /* field: bit s per local city segment it borders */
    int8_t distinct;          /* 0 if an earlier rotation gives the same tile */
    int8_t no_value;          /* 1: surrounds a monastery but adds nothing to its points
                                 (the town hall, R-MM-10) */
} cc_tiledef;

typedef struct cc_tileset cc_tileset;
typedef struct cc_board cc_board;

cc_tileset *cc_tileset_new(int capacity);
void cc_tileset_free(cc_tileset *ts);
/* Adds one tile type given in its 4 rotations; returns the type index or an error. */
int cc_tileset_add(cc_tileset *ts, const cc_tiledef *rotations);

/* A board for at most max_tiles tiles; the tileset must outlive it. */
cc_board *cc_board_new(const cc_tileset *ts, int max_tiles);
void cc_board_free(cc_board *b);
cc_board *cc_board_clone(const cc_board *b);
int cc_board_ntiles(const cc_board *b);

/* All legal placements of a tile type: triples (x, y, rotation) sorted by y, x,
 * rotation; rotations that give an identical tile are listed once (the lowest).
 * cap is the number of int32 slots in out. Returns the number of placements. */
int cc_legal_placements(const cc_board *b, int type, int32_t *out, int cap);
/* 1 if the tile fits at (x, y) in that rotation, 0 if not, or an error. */
int cc_fits(const cc_board *b, int type, int x, int y, int rot);
/* Why a tile does not fit: 0 if it fits, 1 + the first edge (0..3) that clashes,
 * 5 if it has no placed neighbour, 6 if the cell is taken, or an error (< 0). */
int cc_misfit(const cc_board *b, int type, int x, int y, int rot);
/* Places a tile; writes the features it completes (root segment ids, cities and
 * roads first, then monasteries) to completed. Returns how many, or an error. */
int cc_place(cc_board *b, int type, int x, int y, int rot, int32_t *completed, int cap);

/* Placed tile idx: out = {type, rotation, x, y}. */
int cc_tile_info(const cc_board *b, int idx, int32_t *out);
/* Placed tile index at (x, y), -1 if the cell is empty, or an error. */
int cc_tile_at(const cc_board *b, int x, int y);
/* Number of the 8 cells around (x, y) that hold tiles. */
int cc_neighbours8(const cc_board *b, int x, int y);

/* The feature (root segment) a segment belongs to. */
int cc_find(const cc_board *b, int seg);
/* out = {root, kind, tiles, open, coats, complete, segments, figures}; for a monastery
 * `tiles` is 1 + the tiles around it and `open` the empty cells around it. */
int cc_feature_info(const cc_board *b, int seg, int32_t *out);
/* Figure count and strength per player on the feature: out[0..5] counts,
 * out[6..11] strengths. */
int cc_feature_strength(const cc_board *b, int seg, int32_t *out);
/* Distinct city features a field feature borders (root ids). */
int cc_field_cities(const cc_board *b, int seg, int32_t *out, int cap);
/* Local segments of placed tile idx whose feature holds no figure. */
int cc_free_segments(const cc_board *b, int idx, int32_t *out, int cap);
/* Distinct features (root ids) that hold at least one figure, ascending. */
int cc_occupied_features(const cc_board *b, int32_t *out, int cap);

/* Figures. A figure stands on a segment and occupies its feature; it adds `strength`
 * for its player and, if `scores`, counts its player as present for the majority
 * (a standing scarecrow occupies but never scores, R-MM-9). Returns the figure id. */
int cc_figure_add(cc_board *b, int player, int kind, int strength, int scores, int seg);
/* Change a figure's strength and scoring presence (a scarecrow lying down, R-MM-8). */
int cc_figure_set(cc_board *b, int fig, int strength, int scores);
int cc_figure_remove(cc_board *b, int fig);
/* out = {player, kind, strength, segment, scores}; segment -1 for a free slot. */
int cc_figure_info(const cc_board *b, int fig, int32_t *out);
/* Figure ids on the feature of seg, ascending. */
int cc_feature_figures(const cc_board *b, int seg, int32_t *out, int cap);

/* ---- turn options and their valuation (one call per turn, no Python loop) ---- */

/* Weights of the greedy valuation (strategies/greedy.py documents them). */
typedef struct {
    int32_t player, nplayers;
    double open_weight[4];   /* per kind: multiplies the final-scoring value of an incomplete feature */
    double opponent_weight;  /* weight of the opponents' mean gain, subtracted */
    double follower_value;   /* value of one follower in supply */
} cc_greedy_params;

/* How one kind of figure may go on the tile just placed (R-BASE-4, R-MM-1/5/7): on
 * segments whose kind has its bit in segment_kinds (1 << CC_CITY, ...), only where the
 * feature would hold no figure if needs_free; it adds strength, and presence if scores. */
typedef struct {
    int32_t kind, segment_kinds, needs_free, strength, scores;
} cc_figure_rule;

/* Every legal placement of `type` times every figure option on it, as rows of 5 int32:
 * x, y, rotation, figure kind (-1 none), local segment (-1 none).
 * Placements sorted by y, x, rotation; per placement the no-figure row first, then per
 * segment (local order) one row per rule (in the given order) that allows it there.
 * rules/nrules: the figures the player may place now (none: nrules = 0).
 * With params != NULL, values[i] is row i's greedy value for params->player.
 * cap: int32 slots in rows (values needs cap / 5 doubles). Returns the row count. */
int cc_turn_options(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                    const cc_greedy_params *params, int32_t *rows, double *values, int cap);

/* ---- the base turn for built-in policies (the fast path) ----
 * Plays a whole base game (R-BASE-1..8) in C: the same rules as sim/game.py, which
 * is the reference it is tested against (same seed, same moves, same points).
 * stack: tile types in draw order (already shuffled by Python); start_type goes to
 * (0, 0) r0. policy per seat: 0 first, 1 random, 2 greedy (weights in params[seat],
 * follower_value there is the unscaled weight). seat_state: each seat's SplitMix64
 * state, advanced in place. points_out: players × 4 (road, city, monastery, field).
 * moves_out: 5 int32 per turn, the chosen turn-option row. Returns the turns played. */
int cc_play_base(const cc_tileset *ts, const int32_t *stack, int nstack, int start_type,
                 int nplayers, int followers, const int32_t *policy,
                 const cc_greedy_params *params, uint64_t *seat_state,
                 int32_t *points_out, int32_t *moves_out, int moves_cap);

/* Every figure on the board as rows of 6 int32 (id, player, kind, strength, segment,
 * scores), by id. Returns the number of figures. */
int cc_figures(const cc_board *b, int32_t *out, int cap);

/* The best row of cc_turn_options for params->player (the first of equal values),
 * written to best (5 int32). rows/values/cap as for cc_turn_options (scratch).
 * Returns the number of rows (0: nothing to place, best untouched). */
int cc_turn_best(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                 const cc_greedy_params *params, int32_t *rows, double *values, int cap,
                 int32_t *best);
/* 1 if (x, y, rot, kind, seg) is one of cc_turn_options' rows, 0 if not, or an error. */
int cc_option_legal(const cc_board *b, int type, int x, int y, int rot, int kind, int seg,
                    const cc_figure_rule *rules, int nrules);

/* Every segment of the feature of seg, ascending. Returns how many. */
int cc_feature_segments(const cc_board *b, int seg, int32_t *out, int cap);
