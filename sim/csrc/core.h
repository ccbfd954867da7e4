/* carcsim C core: the board, legal placements, union-find features, completion,
 * scoring queries and clone.
 *
 * This header has no macros and no includes on purpose: the cffi build script
 * cdef()s this very file, so Python and C can never disagree about it.
 * Every function returns an error code (< 0) instead of aborting; sim/core/__init__.py turns
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
    CC_MAX_FIGURES = 192,
    CC_MAX_COMPLETED = 25   /* features one placement can complete: 12 + 4 + 9 */
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
    CC_MONASTERY = 3,
    CC_GARDEN = 4       /* R-ABB-2: a centre feature like the monastery (the Abbot's) */
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

/* One tile type in one rotation, as filled in by Python (sim/formats/tiles.py rotates). */
typedef struct {
    int8_t edges[4];          /* CC_EDGE_* per edge N E S W */
    int8_t nseg;              /* number of segments, at most 12 */
    int8_t seg_kind[12];      /* CC_CITY / CC_ROAD / CC_FIELD / CC_MONASTERY / CC_GARDEN */
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
/* The most tiles the board holds (a game's board: its stack, start and town halls). */
int cc_board_max_tiles(const cc_board *b);

/* All legal placements of a tile type: triples (x, y, rotation) sorted by y, x,
 * rotation; rotations that give an identical tile are listed once (the lowest).
 * cap is the number of int32 slots in out. Returns the number of placements. */
int cc_legal_placements(const cc_board *b, int type, int32_t *out, int cap);
/* Why a tile does not fit: 0 if it fits, 1 + the first edge (0..3) that clashes,
 * 5 if it has no placed neighbour, 6 if the cell is taken, or an error (< 0). */
int cc_misfit(const cc_board *b, int type, int x, int y, int rot);
/* Places a tile; writes the features it completes (root segment ids, cities and
 * roads first, then monasteries) to completed, which must have room for
 * CC_MAX_COMPLETED. Returns how many, or an error; on an error nothing changed. */
int cc_place(cc_board *b, int type, int x, int y, int rot, int32_t *completed, int cap);

/* Placed tile idx: out = {type, rotation, x, y}. */
int cc_tile_info(const cc_board *b, int idx, int32_t *out, int cap);
/* Placed tile index at (x, y), -1 if the cell is empty, or an error. */
int cc_tile_at(const cc_board *b, int x, int y);
/* Number of the 8 cells around (x, y) that hold tiles. */
int cc_neighbours8(const cc_board *b, int x, int y);

/* The feature (root segment) a segment belongs to. */
int cc_find(const cc_board *b, int seg);
/* out = {root, kind, tiles, open, coats, complete, segments, figures}; for a monastery
 * `tiles` is 1 + the tiles around it and `open` the empty cells around it. */
int cc_feature_info(const cc_board *b, int seg, int32_t *out, int cap);
/* Figure count and strength per player on the feature: out[0..5] counts,
 * out[6..11] strengths. */
int cc_feature_strength(const cc_board *b, int seg, int32_t *out, int cap);
/* Distinct city features a field feature borders (root ids). */
int cc_field_cities(const cc_board *b, int seg, int32_t *out, int cap);
/* What the feature of seg is worth, completed during play or (final) in final scoring
 * (R-BASE-6..8; a monastery's town halls not counted, R-MM-10): the one value that
 * scoring, the messages, the Courier and the greedy valuation use. */
int cc_feature_value(const cc_board *b, int seg, int final);
/* Bit per player (of np) holding the majority given each player's figure count and
 * strength on a feature (R-BASE-7; strength-0 presence wins only alone, R-MM-4): the
 * rule scoring applies. Counts and strengths must be 0..65535. */
int cc_majority(const int32_t *count, const int32_t *strength, int np);
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
int cc_figure_info(const cc_board *b, int fig, int32_t *out, int cap);
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
 * cap: int32 slots in rows (values needs cap / 5 doubles). Returns the row count, or
 * CC_ERR_FULL when cap may be short: each placement asks room for a row per rule on each
 * of its segments (so cap >= 5 * legal placements * (1 + 12 * nrules) is always enough). */
int cc_turn_options(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                    const cc_greedy_params *params, int32_t *rows, double *values, int cap);

/* Every figure on the board as rows of 6 int32 (id, player, kind, strength, segment,
 * scores), by id. Returns the number of figures. */
int cc_figures(const cc_board *b, int32_t *out, int cap);


/* Every segment of the feature of seg, ascending. Returns how many. */
int cc_feature_segments(const cc_board *b, int seg, int32_t *out, int cap);

/* Where each road segment of tile type `type` ends (R-MM-6: a messenger rides on from
 * a junction or a city gate): ends[local] for its n <= 12 segments, CC_END_* or
 * CC_END_GATE + the local index of the city whose gate it enters. The same for every
 * rotation (rotating keeps the local order). */
enum { CC_END_NONE = 0, CC_END_VILLAGE = 1, CC_END_MONASTERY = 2, CC_END_HOUSE = 3,
       CC_END_GATE = 4 };
int cc_tileset_set_road_ends(cc_tileset *ts, int type, const int8_t *ends, int n);

/* ==================================================================== the game
 * The whole game as a resumable state machine (game.c; each expansion in its own file:
 * messages.c, river.c, courier.c, mayors.c, listed in registry.c; game.h describes the
 * hook table). The same rules, order of steps, decisions and events as sim/engine/game.py,
 * which it is tested against move by move. Random streams come from Python (sim/engine/rng.py derivations) as SplitMix64 states.
 * A call that is refused (bad argument, bad choice) changes nothing; an internal
 * failure (memory, a fixed capacity) leaves the game answering every later call with
 * that error (cc_game_status shows it).
 */

typedef struct cc_game cc_game;

enum { CC_X_MESSAGES = 1, CC_X_RIVER = 2, CC_X_COURIER = 4, CC_X_MAYORS = 8, CC_X_ABBOT = 16 };  /* expansion bits */
enum { CC_TILE_RIVER = 1, CC_TILE_LETTER = 2 };                 /* per tile type flags */
enum { CC_EDITION_CLASSIC = 0, CC_EDITION_C31 = 1 };
/* point sources, sim/engine/scoring.py SOURCES order */
enum { CC_SRC_ROAD = 0, CC_SRC_CITY = 1, CC_SRC_MONASTERY = 2, CC_SRC_FIELD = 3,
       CC_SRC_MESSAGE = 4, CC_SRC_COURIER = 5, CC_SRC_GARDEN = 6, CC_NSOURCES = 7 };
/* message actions, by what they do (each edition numbers them its own way);
 * CC_MSG_TWO is the "2 points" resolution */
enum { CC_MSG_TWO = -1, CC_MSG_ROAD = 0, CC_MSG_CITY = 1, CC_MSG_MONASTERY = 2,
       CC_MSG_EXTRA = 3, CC_MSG_COATS = 4, CC_MSG_KNIGHT = 5, CC_MSG_FARMER = 6,
       CC_MSG_SCORE = 7, CC_NMSG = 8 };
/* The Messages' deck holds at most this many tiles: each action 0..CC_MAX_COPIES times
 * ([rules.variant] deck_*, a variant of R-MSG-11's eight) */
enum { CC_MAX_COPIES = 3, CC_MAX_DECK = CC_NMSG * CC_MAX_COPIES };
enum { CC_DEC_NONE = 0, CC_DEC_PLACE = 1, CC_DEC_SCORING_FIGURE = 2, CC_DEC_MESSAGES = 3,
       CC_DEC_TOWN_HALL = 4, CC_DEC_FAVOUR = 5, CC_DEC_SCARECROW = 6, CC_DEC_RIDE = 7,
       CC_DEC_FIGURE = 8 };
/* figure kinds (cc_name CC_NAMES_FIGURE names them) */
enum { CC_FIG_FOLLOWER = 0, CC_FIG_MAYOR = 1, CC_FIG_MESSENGER = 2, CC_FIG_SCARECROW = 3,
       CC_FIG_ABBOT = 4 };
/* A place row's or figure choice's segment below -1: a step-2 action instead of a
 * figure, by the figure kind beside it: the abbot taken back (R-ABB-5) */
enum { CC_RECALL = -2 };
/* Messengers & Mayors choice rows {code, a, b, 0, 0}: town_hall CC_MM_CELL (x, y),
 * CC_MM_DRAW or CC_MM_END; favour CC_MM_NONE or CC_MM_TARGET (figure id); scarecrow
 * CC_MM_FARMER, CC_MM_LIE, CC_MM_RETURN; ride CC_MM_RETURN or CC_MM_TARGET (segment);
 * figure: {figure kind or -1, local segment or -1, 0, 0, 0} */
enum { CC_MM_CELL = 0, CC_MM_DRAW = 1, CC_MM_END = 2, CC_MM_NONE = 3, CC_MM_TARGET = 4,
       CC_MM_FARMER = 5, CC_MM_LIE = 6, CC_MM_RETURN = 7 };
/* built-in policies (strategies/); CC_POL_PYTHON: the decision is returned to Python */
enum { CC_POL_PYTHON = -1, CC_POL_FIRST = 0, CC_POL_RANDOM = 1, CC_POL_GREEDY = 2,
       CC_POL_MEEPLE_ONLY = 3, CC_POL_ALTERNATE = 4, CC_POL_DARK_SEEKER = 5,
       CC_POL_SPREAD = 6, CC_POL_COVERAGE = 7, CC_POL_ALWAYS_ACTION = 8,
       CC_POL_ALWAYS_2 = 9, CC_POL_SEARCH = 10 };
/* search's score of a rollout (search.c): the seat's margin over the best other, or its
 * win share (R-BASE-9: a tie shares the win) */
enum { CC_SEARCH_MARGIN = 0, CC_SEARCH_WIN = 1 };
/* search's bounds: rollouts and candidates 1..CC_SEARCH_MAX, depth 0..CC_SEARCH_MAX_DEPTH */
enum { CC_SEARCH_MAX = 100000, CC_SEARCH_MAX_DEPTH = 10000 };
enum { CC_OVERRIDE_NONE = 0, CC_OVERRIDE_TWO = 1, CC_OVERRIDE_ACTION = 2 };
enum { CC_RECORD_HISTORY = 1, CC_RECORD_EVENTS = 2 };

typedef struct {
    int32_t nplayers, followers, expansions;  /* CC_X_* bits */
    int32_t start_type;   /* at (0, 0) r0: the start tile, or the spring with the River */
    int32_t river_edge;   /* with the River: the spring's river edge (R-RIV-1) */
    int32_t edition, zmg_alone;
    int32_t deck[CC_MAX_DECK];  /* The Messages: action codes, top first (R-MSG-11) */
    int32_t deck_n;       /* its tiles: 8 in the rules, each action once */
    int32_t record;       /* CC_RECORD_* bits: what to keep (nothing for batches) */
    /* Shuffled here when set, exactly as sim/engine/game.py tile_order and sim/expansions/messages.py
     * deck_order do: the stack is river_tiles river tiles, lake_tiles lakes, then the
     * land tiles; Fisher-Yates of the river tiles then of the land tiles with the
     * tiles stream (R-BASE-2, R-RIV-1); the deck (given in rulebook order) with the
     * messages stream. */
    int32_t shuffle_stack, river_tiles, lake_tiles, shuffle_deck;
    uint64_t tiles_stream, messages_stream;
    /* Messengers & Mayors: the town hall's tile type (R-MM-10); 0 ends a game whose
     * stack is empty with town halls unplaced (scripted games), else R-MM-12 */
    int32_t town_hall_type, town_halls_at_end;
    /* rule variants (knobs, sim/expansions/): R-BASE-8 a field's points per completed
     * city, 0..10 (3 in the rules); R-MSG-8 The Messages' points instead of a message's
     * action, 0..10 (2 in the rules); R-BASE-10 the dark spaces' spacing, 2..10 (5
     * in the rules: spaces 0, 5, ..., 45) */
    int32_t farm_points, two_points, dark_every;
} cc_game_config;

/* One seat: a policy per decision kind and their parameters (the strategies package). */
typedef struct {
    int32_t place, scoring_figure, messages;  /* CC_POL_* */
    double open_weight[4];   /* greedy place, per kind (city, road, field, monastery) */
    double opponent, follower, courier;  /* greedy place */
    double extra;            /* greedy messages: value of an extra tile or turn */
    int32_t overrides[8];    /* messages: CC_OVERRIDE_* per action code */
    /* Messengers & Mayors decisions (CC_POL_FIRST, RANDOM, GREEDY or PYTHON) */
    int32_t figure, town_hall, favour, scarecrow, ride;
    /* greedy road_figure of the place [0] and figure [1] decisions: 0 greedy's own
     * choice, else 1 + the figure kind put on a road where both may go */
    int32_t road_figure[2];
    double figure_weight[4], figure_opponent, figure_follower;  /* greedy figure */
    /* search (any decision kind, CC_POL_SEARCH; strategies/search.py documents it):
     * rollouts per candidate, candidates of a place decision, CC_SEARCH_* score, tile
     * turns played before a rollout is cut (0: to the end) and sequential halving
     * (0 or 1); checked only for a seat that plays search */
    int32_t search_rollouts, search_candidates, search_score, search_depth, search_halving;
} cc_seat_policy;

/* Sizes of the rows the game writes. */
enum { CC_HEAD_INTS = 8, CC_EVENT_INTS = 12, CC_HISTORY_INTS = 6, CC_MSG_CHOICE_INTS = 3 };
/* The widths of cc_game_result's per-player row and of cc_game_status's row: the sum of
 * the fields the base game and every unit declare (cc_result_field, cc_status_field),
 * so a unit's slice needs no constant here. */
int32_t cc_result_ints(void);
int32_t cc_status_ints(void);

enum { CC_EV_START = 0, CC_EV_DRAW = 1, CC_EV_DISCARD = 2, CC_EV_PLACE = 3, CC_EV_FIGURE = 4,
       CC_EV_SCORE = 5, CC_EV_POINTS = 6, CC_EV_MOVE = 7, CC_EV_MESSAGE_DRAW = 8,
       CC_EV_MESSAGE = 9, CC_EV_COURIER = 10, CC_EV_FINAL = 11, CC_EV_END = 12,
       CC_EV_TOWNHALL = 13, CC_EV_CRISIS = 14, CC_EV_FAVOUR = 15, CC_EV_SCARECROW = 16,
       CC_EV_RIDE = 17, CC_EV_RECALL = 18 };

/* ---- the names and layouts C owns, read by Python instead of copied (sim/engine/deal.py
 * and the expansions' modules build their tables from these; tests/test_names.py) */
enum { CC_NAMES_EVENT = 0,     /* CC_EV_* */
       CC_NAMES_SOURCE = 1,    /* CC_SRC_* */
       CC_NAMES_FIGURE = 2,    /* CC_FIG_* */
       CC_NAMES_DECISION = 3,  /* CC_DEC_*: the cc_seat_policy field that answers it */
       CC_NAMES_POLICY = 4,    /* CC_POL_* from CC_POL_FIRST on */
       CC_NAMES_MM_WORD = 5,   /* CC_MM_* */
       CC_NAMES_SCARECROW = 6, /* a scarecrow decision's outcomes, as counted in the row */
       CC_NAMES_TABLES = 7 };
/* The name of entry `index` of table `table` (CC_NAMES_*), or NULL past its end or for
 * an unknown table (CC_DEC_NONE's name is "none"). Static strings: never freed. */
const char *cc_name(int32_t table, int32_t index);
/* 1 when this build of the core is profile-guided (setup.py: built again with the counts
 * sim/games/training.py's games left in an instrumented build), 0 when not. */
int32_t cc_profile_guided(void);
/* 1 if a cc_seat_policy decision field for decision kind `decision` (CC_DEC_*) accepts
 * policy code `policy` (CC_POL_*; CC_POL_PYTHON always), 0 if not; CC_ERR_ARG for a
 * decision kind that has no field. The check cc_game_new and cc_game_set_seat apply. */
int32_t cc_policy_accepts(int32_t decision, int32_t policy);
/* Field i of cc_game_result's row: its name, first int and width (ints); CC_OK, or
 * CC_ERR_ARG past the last field (nothing written). The fields tile the row's
 * cc_result_ints() ints in order. */
int32_t cc_result_field(int32_t i, const char **name, int32_t *offset, int32_t *width);
/* The same for cc_game_status's row (cc_status_ints()). */
int32_t cc_status_field(int32_t i, const char **name, int32_t *offset, int32_t *width);
/* R-BASE-10: 1 if a scoring figure at `total` points stands on a dark space of the
 * 50-space scoreboard (0, 5, ..., 45), else 0: the test The Messages applies. */
int32_t cc_on_dark(int32_t total, int32_t every);
/* R-COU-3: 1 if (x, y) is the tile of a Courier standing at (cx, cy) or orthogonally
 * next to it, else 0: the neighbourhood the Courier's thank-you and greedy use. */
int32_t cc_courier_near(int32_t cx, int32_t cy, int32_t x, int32_t y);

/* A new game: places the start tile and runs to the first decision of a CC_POL_PYTHON
 * seat (or the end). stack: tile types in draw order, or unshuffled as
 * cfg->shuffle_stack says; tile_flags: CC_TILE_* per tile type (ntypes entries);
 * seat_state: each seat's SplitMix64 state. On success *out is the game; on failure
 * nothing is kept. */
int cc_game_new(const cc_tileset *ts, const cc_game_config *cfg, const int32_t *stack,
                int nstack, const uint8_t *tile_flags, int ntypes, const uint64_t *seat_state,
                const cc_seat_policy *seats, cc_game **out);
void cc_game_free(cc_game *g);
cc_game *cc_game_clone(const cc_game *g);

/* The decision waiting for Python: head (CC_HEAD_INTS) = {kind, seat, tile type or -1,
 * nchoices, info...}; scoring_figure info = {points, source, meeple, messenger};
 * messages info = {action, number}. choices: place rows of 5 (x, y, rotation, figure,
 * segment); messages rows of CC_MSG_CHOICE_INTS (action or CC_MSG_TWO, target or -1,
 * points or -1 for none); scoring_figure has the 2 choices meeple, messenger and
 * writes none; Messengers & Mayors rows of 5 (CC_MM_*; figure: the tile placed as the
 * tile type). cap: int32 slots in choices. Returns the number of choices (0: over). */
int cc_game_decision(const cc_game *g, int32_t *head, int head_cap, int32_t *choices, int cap);
/* Takes choice `index` of the current decision, then runs the built-in seats on to the
 * next decision for Python. Returns its kind (CC_DEC_NONE once over), or an error with
 * nothing changed (bad index, no decision). */
int cc_game_apply(cc_game *g, int index);
/* out (cc_status_ints()) = {turn, seat, tiles_left, over, tiles on board, decision kind,
 * events, history entries, error, decisions taken}, then each expansion's slice
 * (the Courier: on board, x, y); cc_status_field names each field's place. */
int cc_game_status(const cc_game *g, int32_t *out, int cap);
/* Events from index `from` on, CC_EVENT_INTS each: {kind, turn, seat, v0..v8}; the
 * layout per kind is in game.c above game_emit(). Returns how many were written. */
int cc_game_events(const cc_game *g, int from, int32_t *out, int cap);
/* History from `from` on, CC_HISTORY_INTS each: {decision kind, choice values...}. */
int cc_game_history(const cc_game *g, int from, int32_t *out, int cap);
/* Per player cc_result_ints(): score, points by source (6), followers in supply, rank
 * (R-BASE-9: 1 + the players with a higher score), then each expansion's slice in
 * registry order (The Messages: figure positions, their moves, live moves, per action
 * code drawn, taken, message points, resolved; Messengers & Mayors: statistics,
 * figures in supply, town hall in hand), whether in play or not; cc_result_field
 * names each field's place. Returns the number of players. */
int cc_game_result(const cc_game *g, int32_t *out, int cap);
/* The game's board, read-only (valid while the game lives and until its next change). */
const cc_board *cc_game_board(const cc_game *g);
/* Each seat's random stream state. Returns the number of seats. */
int cc_game_streams(const cc_game *g, uint64_t *out, int cap);
/* Sets seat's random stream state (a Python policy drew from it, or a reseed). */
int cc_game_set_stream(cc_game *g, int seat, uint64_t state);
/* Replaces seat's policies (checked as cc_game_new does; nothing changes on an error).
 * The current decision, if any, is not answered until the next cc_game_apply. */
int cc_game_set_seat(cc_game *g, int seat, const cc_seat_policy *policy);
/* The current decision answered by the built-in policy `pol` names for its kind, with
 * pol's parameters, exactly as the game answers it for a seat playing pol (choice.c):
 * *choice_index is an index into the decision's choices. A random policy draws from
 * the deciding seat's own stream, as in play; nothing else changes. Returns CC_OK, or
 * CC_ERR_ARG with nothing changed: no decision (over), pol invalid, or pol's policy for
 * this kind is CC_POL_PYTHON. */
int cc_game_policy_choice(cc_game *g, const cc_seat_policy *pol, int32_t *choice_index);
/* greedy's valuation of each row of the current place decision for pol (whose place
 * policy must be greedy), before its courier bonus and road_figure swap: values[i]
 * for row i (cap doubles). Returns the number of rows, or an error (CC_ERR_ARG: no
 * place decision or pol not greedy; CC_ERR_FULL: cap too small). */
int cc_game_policy_values(const cc_game *g, const cc_seat_policy *pol, double *values, int cap);

/* A shard of games of built-in seats in one call (no events, no history): game i is
 * cc_game_new(cfg with shuffle_stack and shuffle_deck set, stack) dealt from its own
 * streams, streams[i * (2 + nplayers) ...] = {tiles, messages, seat 0, seat 1, ...}.
 * Out, per game: turns_out (tile turns played), winners_out (bit per seat), and
 * nplayers rows of cc_result_ints() in results_out (results_cap int32 slots).
 * Returns the number of games played, or an error (then the outputs are partial). */
int cc_game_batch(const cc_tileset *ts, const cc_game_config *cfg, const int32_t *stack,
                  int nstack, const uint8_t *tile_flags, int ntypes, const cc_seat_policy *seats,
                  int ngames, const uint64_t *streams, int32_t *turns_out, int32_t *winners_out,
                  int32_t *results_out, int results_cap);

/* The whole state of a game as bytes (for pickling): cc_game_save writes at most cap
 * bytes to out (out may be NULL with cap 0 to ask the size) and returns the size;
 * cc_game_load rebuilds a game over the same tile set from them, checking first every
 * count and index (ranges), the board's union-find structure and feature aggregates,
 * cells and frontier, figures, the state segments, the pending decision's fields, the
 * Messages deck, the seats and config (as cc_game_new), scores within bounds (save.c
 * lists them); NOT edge matching or connectivity between neighbours. A refused blob
 * leaves *out NULL. The bytes are this build's own layout: for pickles between
 * processes of one build, not for storage. */
int64_t cc_game_save(const cc_game *g, uint8_t *out, int64_t cap);
int cc_game_load(const cc_tileset *ts, const uint8_t *data, int64_t size, cc_game **out);
/* The config a game was made with (a loaded one's as its bytes gave it), so that the
 * caller can check it against the rules it means to play (sim/engine/game.py _load). */
int cc_game_get_config(const cc_game *g, cc_game_config *out);

/* Rule queries the engine wraps (sim/engine/board.py, game.py), so Python keeps no
 * copy of these rules:
 * cc_activating_cells (R-MM-2/8): cells whose tile would surround (give a 4th
 * orthogonal neighbour to) a tile holding a mayor or a standing scarecrow, as x, y
 * pairs in xy (cap ints; a cell next to two such tiles is listed twice). Returns the
 * number of cells.
 * cc_ride_targets (R-MM-6): the segments a messenger on the road of segment `road` may
 * ride to once that road is scored: every segment of an incomplete road ending at the
 * same junction of the same tile, or of the incomplete city the road enters;
 * ascending, cap at most. CC_ERR_ARG unless road is a placed road segment.
 * cc_game_river_end (R-RIV-1/2): 1 and out = {x, y, edge} of the river's open end
 * (cap >= 3), or 0 without the River or once the lake has closed it. */
int cc_activating_cells(const cc_board *b, int32_t *xy, int cap);
int cc_ride_targets(const cc_board *b, int road, int32_t *out, int cap);
int cc_game_river_end(const cc_game *g, int32_t *out, int cap);

/* Position setup (setup.c), like a chess FEN: a game started from a position play
 * would not give. Each refuses (CC_ERR_ARG, nothing changed) a game that is over, a
 * seat out of range or a value out of its bounds.
 * cc_game_set_scoreboard: The Messages' two scoring figures of seat on totals meeple
 * and messenger (0..CC_SETUP_MAX_POSITION), its score their sum; only while the seat
 * has scored no point.
 * cc_game_set_supply: n figures of kind (CC_FIG_*; mayor, messenger and scarecrow with
 * Messengers & Mayors) in seat's supply, 0 up to its complement less those on the
 * board; not while a decision waits for that seat. */
enum { CC_SETUP_MAX_POSITION = 1000 };
int cc_game_set_scoreboard(cc_game *g, int seat, int meeple, int messenger);
int cc_game_set_supply(cc_game *g, int seat, int kind, int n);

/* ==================================================================== branches
 * Counterfactual branches (branch.c; sim/tournament/counterfactual.py). */

/* 1 if a river tile is still in g's stack (an aligned branch would not be uniform
 * there: R-RIV-1), 0 if not. */
int cc_branch_river_left(const cc_game *g);
/* From g waiting at a decision, nbranches games played to the end, each on its own
 * clone: choice index choices[b] of the decision taken, the seats playing seats[]
 * (every one built in) with streams[b * nplayers ...] as their random streams, and the
 * tiles left rotated by one first (the next tile to the bottom) where rotate[b] is set.
 * Writes each branch's final scores, nplayers per branch, into scores_out
 * (scores_cap int32 slots). g does not change. Returns nbranches, or an error (then
 * scores_out is partial). */
int cc_branch_play(const cc_game *g, const cc_seat_policy *seats, int nbranches,
                   const int32_t *choices, const int32_t *rotate, const uint64_t *streams,
                   int32_t *scores_out, int scores_cap);

/* ==================================================================== search
 * The search policy (search.c; strategies/search.py documents it). */

/* g at its decision on a deal of what its deciding seat has not seen, dealt anew from
 * stream `key` as the search deals (the stack's unseen tiles, river tiles still first
 * and the lake last of them, R-RIV-1; The Messages' undrawn messages, R-MSG-11): a new
 * game in *out keeping no records (no events, no history), its seats g's. tiles, when
 * cap > 0: the tiles left in their new draw order (cap int32 slots; for tests). g does
 * not change. Returns the number of tiles left, or an error with *out NULL. */
int cc_game_determinised(const cc_game *g, uint64_t key, cc_game **out, int32_t *tiles, int cap);
/* The seat the rollouts play and whose valuation ranks a place decision's candidates:
 * greedy with its default parameters, every decision kind. */
int cc_search_rollout_seat(cc_seat_policy *out);
