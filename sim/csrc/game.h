/* carcsim C core: the game state shared by game.c, the policies and the expansion
 * files (internal, never cdef'd). The state is flat: one malloc for the game, one for
 * its board, buffers grown geometrically and reused, nothing allocated per turn.
 *
 * The hook table (expansion_t below). game.c plays the base game and names no
 * expansion: each expansion is one unit (messages.c, river.c, courier.c, mayors.c,
 * abbot.c) exporting one expansion_t, listed once in registry.c. This header names no
 * unit's state, steps or caps: a unit declares its state type in its own file and
 * keeps it in the game's shared state area (state_size, game_state), numbers its steps
 * locally (nsteps, game_step_kind), and answers other units through declared queries.
 * The table covers:
 *   turn      start, next_turn, allows (R-RIV-2), placed, after_tile, begin_draw,
 *             no_tile, figure_placed / figure_removed, award, end_round
 *   agenda    how many step kinds a unit owns (nsteps, numbered locally; their agenda
 *             codes follow the base game's by registry position) and the hook running them
 *   decisions the decision kinds it adds (decision_t: choices, history entry, head,
 *             apply), dispatched by kind
 *   figures   its figure kinds (figure_rule), their supply (in_supply,
 *             supply_change), placements whose figure waits for step 1
 *             (deferred_cells), scored features (scored) and figures it keeps (keeps)
 *   rows      its slices of the result and status rows (fields with their widths,
 *             and a writer); the base game's fields come first
 *   setup     its config checks (check_config) and the tiles it adds (extra_tiles)
 *   queries   what other units may ask of it through game.c (places_instead,
 *             restricts_placement, counts_as_follower), never by reading its state
 *   greedy    the base game's greedy place policy's terms it adds (greedy_aim,
 *             greedy_place) and the values of its step-2 actions (action_values)
 *   search    what of its state no seat has seen, dealt anew (determinise)
 *   state     its size in the shared state area (state_size) and the check of a
 *             loaded game's part (check_state)
 *   names     the events and figure kinds it adds, and its decisions' names (cc_name)
 * Order: wherever several units act at one step their hooks run in registry order,
 * which is the turn's phase order (registry.c: messages, river, courier, mayors, abbot);
 * the hooks that take a step over (award, after_tile, begin_draw, no_tile, keeps) may
 * be defined by one unit in play at most (game_check_config), so none is "first to
 * claim". */
#ifndef CARCSIM_GAME_H
#define CARCSIM_GAME_H

#include "internal.h"

/* Steps of a turn still to run (sim/engine/game.py agenda), kept as a stack: top = next.
 * A step's kind is the base game's (below STEP_UNITS) or a unit's: a unit numbers its
 * own step kinds locally, 0 .. its nsteps - 1, and on the agenda local kind i of unit x
 * is game_step_kind(x, i): STEP_UNITS + the nsteps of the units before x in registry
 * order + i (game.c): the units' kinds follow each other without gaps, each with its
 * one owner, and the step order is the order of the pushes whatever the codes. */
enum { STEP_SCORE, STEP_AWARD, STEP_END_ROUND, STEP_UNITS };
/* what a round of scoring ends: a turn's phase 3, or points that are a round of their own
 * (a message's R-MSG-C3, the Courier's thank-you R-COU-5, the abbot taken back R-ABB-5) */
enum { ROUND_TURN, ROUND_OWN };
enum { AGENDA_CAP = 96 };
/* CC_FIG_* codes are below this: the follower's, the units' and room for more (a code no
 * unit adds has no figure rule: game_figure_rule) */
enum { NFIGURE_KINDS = 8 };
/* the state area of the units (expansion_t state_size): flat in cc_game like the rest, so
 * clone and save copy it with the game. Each unit's part is rounded up to 8 bytes; today
 * The Messages 3320, River 24, Courier 272, M&M 664, Abbot 96: 4376 in all
 * (game_check_config refuses every game if they outgrow it) */
enum { UNIT_STATE_BYTES = 4608 };
/* x, y ints of the cells whose placements defer their figure (RULES.md 6): each of the
 * 2 activating figures per seat has one tile with 4 sides */
enum { DEFERRED_CAP = 2 * 4 * 2 * CC_MAX_PLAYERS };

typedef struct {
    int32_t kind, a, b, c;
} step_t;

struct cc_game {
    const cc_tileset *ts;
    cc_board *board;
    cc_game_config cfg;
    int32_t nplayers, ntypes;
    uint8_t *tile_flags;               /* ntypes */
    int32_t *stack;                    /* draw order; the next tile is stack[top] */
    int32_t nstack, top;
    int32_t supply[CC_MAX_PLAYERS], scores[CC_MAX_PLAYERS];
    int32_t points[CC_MAX_PLAYERS][CC_NSOURCES];
    uint64_t rng[CC_MAX_PLAYERS];
    cc_seat_policy seats[CC_MAX_PLAYERS];
    int32_t turn, seat, over, extra_turn, drawn_type, placed_index, error, ndecisions;
    /* the units in play, in registry order (game_bind_units: set by cc_game_new and
     * cc_game_load from cfg.expansions, never read from a saved blob), so a hook loop
     * visits only them; MAX_UNITS bounds the registry */
    const struct expansion_s *units[8];
    int32_t nunits;
    step_t agenda[AGENDA_CAP];
    int32_t nagenda;
    /* the current decision; place rows (5 int32) with greedy values when asked */
    int32_t dec_kind, dec_seat, nrows, rows_cap;
    int32_t *rows;
    double *values;
    _Alignas(8) uint8_t unit_state[UNIT_STATE_BYTES];  /* game_state() */
    int32_t *events, nevents, events_cap;      /* CC_EVENT_INTS each */
    int32_t *history, nhistory, history_cap;   /* CC_HISTORY_INTS each */
};

/* One field of a row the game writes (cc_game_result, cc_game_status): its name and
 * width in ints; a row is its fields in order (cc_result_field, cc_status_field). */
typedef struct {
    const char *name;
    int32_t width;
} field_t;

/* A code and its name (cc_name reads the base game's and each unit's). */
typedef struct {
    int32_t code;
    const char *name;
} named_t;

/* A decision kind an expansion adds (the place decision is game.c's own). */
typedef struct {
    int32_t kind;  /* CC_DEC_* */
    const char *name;  /* the cc_seat_policy field's, as Python names the decision */
    int (*nchoices)(const cc_game *g);
    /* the history entry of choice idx: 3 values (CC_HISTORY_INTS - 1 at most) */
    void (*record)(const cc_game *g, int idx, int32_t *v);
    /* cc_game_decision's head[2] and head[4..] (the rest is game.c's) and its choices
     * (cap ints); returns the number of choices or CC_ERR_FULL */
    int (*describe)(const cc_game *g, int32_t *head, int32_t *choices, int cap);
    /* takes choice idx (checked: 0 <= idx < nchoices) of a decision of `kind` (already
     * cleared from g->dec_kind); CC_OK or an error */
    int (*apply)(cc_game *g, int kind, int idx);
    /* the cc_seat_policy field naming a seat's policy for it (offsetof), the built-in
     * policy codes that field accepts (CC_POL_PYTHON always), and the built-in
     * policies' answer (policy.c: a choice index or an error) */
    size_t seat_field;
    int (*accepts)(int policy);
    int (*choose)(cc_game *g);
} decision_t;

/* An expansion: the hooks it adds to the turn (NULL where it adds nothing). */
typedef struct expansion_s {
    const char *name;
    int32_t bit;  /* CC_X_* */
    void (*start)(cc_game *g);
    void (*next_turn)(cc_game *g);
    /* 0 if the expansion forbids this placement of a tile type (R-RIV-2), 1 if allowed,
     * -1 if it has no say about this tile type (then for none of its placements: game.c
     * asks it once per drawn tile, and no more if -1) */
    int (*allows)(const cc_game *g, int type, int x, int y, int rot);
    void (*placed)(cc_game *g, int type, int x, int y, int rot);
    void (*figure_placed)(cc_game *g, int fig, int seg);
    /* 1 if the expansion took the points over (a scoring figure moves or is asked) */
    int (*award)(cc_game *g, int seat, int points, int source);
    int (*end_round)(cc_game *g, int kind);
    /* how many step kinds it owns (local kinds 0 .. nsteps - 1; on the agenda as
     * game_step_kind), and the hook that runs step s of its local kind `local` (an
     * error or >= 0) */
    int32_t nsteps;
    int (*step)(cc_game *g, int local, const step_t *s);
    /* the decision kinds it adds */
    const decision_t *decisions;
    int32_t ndecisions;
    /* before a draw (a turn's, or a classic extra tile's): 1 if it set a decision
     * instead (the town hall, R-MM-10), or an error */
    int (*begin_draw)(cc_game *g, int extra_tile);
    /* the stack is empty at a turn's start: 1 if it set a decision instead of the end
     * (R-MM-12), or an error */
    int (*no_tile)(cc_game *g);
    /* after a drawn tile is placed: 1 if it runs the rest of the turn (its figure,
     * completed features done[0..nd)), or an error */
    int (*after_tile)(cc_game *g, int x, int y, const int32_t *done, int nd, int figure, int local);
    void (*figure_removed)(cc_game *g, int fig);
    /* ---- figure kinds it adds (CC_FIG_*; the follower is the base game's): the
     * placement rule of `kind`, NULL if the kind is not its own */
    const cc_figure_rule *(*figure_rule)(int kind);
    /* how many figures of its `kind` seat holds in supply */
    int (*in_supply)(const cc_game *g, int seat, int kind);
    /* seat's supply of its `kind` changed by delta: -1 with `placed` a figure taken
     * onto the board (counted as placed), +1 one back home; any delta without `placed`
     * a position setup (cc_game_set_supply) */
    void (*supply_change)(cc_game *g, int seat, int kind, int delta, int placed);
    /* how many figures of its `kind` a seat has in all (R-MM-1/5/7: one each) */
    int (*complement)(const cc_game *g, int kind);
    /* cells where a placement's figure is asked only after step 1 (RULES.md 6), as
     * x, y pairs (cap ints); returns how many cells, or an error */
    int (*deferred_cells)(const cc_game *g, int32_t *xy, int cap);
    /* a feature of root was scored: its majority `winners` (bit per seat) and value,
     * before its figures leave */
    void (*scored)(cc_game *g, int root, int winners, int value);
    /* a scored feature's figure: 1 if the expansion keeps it on the board (taking it
     * over), 0 if it goes home, or an error */
    int (*keeps)(cc_game *g, int fig, int root, int kind);
    /* ---- its slices of the rows: the fields it declares (their widths summed) and
     * the writer of seat's result slice / of its status slice, called whether or not
     * it is in play (a part out of play writes its zero state) */
    const field_t *result_fields;
    int32_t nresult_fields;
    void (*result)(const cc_game *g, int seat, int32_t *out);
    const field_t *status_fields;
    int32_t nstatus_fields;
    void (*status)(const cc_game *g, int32_t *out);
    /* ---- setup: CC_ERR_ARG unless its fields of a config with it in play are valid
     * (cc_game_new and cc_game_load); the tiles it adds to a board beyond the stack
     * and the start (R-MM-10's town halls) */
    int (*check_config)(const cc_tileset *ts, const cc_game_config *c);
    /* CC_ERR_ARG unless a seat's parameters of its policies are valid (checked for
     * every seat, whatever is in play: a seat's struct always holds them) */
    int (*check_seat)(const cc_seat_policy *p);
    int (*extra_tiles)(const cc_game_config *c);
    /* ---- queries other units ask through game.c (never each other's state):
     * places_instead: 1 if seat holds a tile it may place instead of drawing (the town
     * hall, R-MM-10; The Messages' extra tile counts it, R-MSG-C5);
     * restricts_placement: 1 while its tiles alone may be placed (the river being
     * laid, R-RIV-2; no town hall then) */
    int (*places_instead)(const cc_game *g, int seat);
    int (*restricts_placement)(const cc_game *g);
    /* greedy's `courier` weight: 1 if a place row puts a figure where this unit would
     * reward it (the Courier's thank-you, R-COU-3) */
    int (*greedy_aim)(const cc_game *g, const int32_t *row);
    /* greedy's place decision under seat policy p: the row to take instead of its best
     * row `best` (the same where its parameters say nothing; M&M's road_figure, R-MM-5) */
    int (*greedy_place)(const cc_game *g, const cc_seat_policy *p, int best);
    /* ---- step-2 actions instead of a figure (R-ABB-5: taking the abbot back), named
     * by one of its figure kinds and a code < -1 in a place row's or figure choice's
     * segment column: the (kind, code) pairs seat may take now (out: cap pairs; how
     * many, or an error); taking one for the active seat, the tile placed and phase 3
     * already on the agenda (what it pushes runs first); greedy's values of one for
     * p->player beside n placements' no-figure rows, out[i] for `cells` + 3 i = {x, y,
     * no_value} of the tile about to be placed there, or (cells NULL, n 1) once it is on
     * the board: a list (n >= 1), so that what the cell does not change is worked out
     * once per decision, not once per placement */
    int (*actions)(const cc_game *g, int seat, int32_t *out, int cap);
    int (*act)(cc_game *g, int seat, int kind, int code);
    void (*action_values)(const cc_game *g, const cc_greedy_params *p, int kind, int code,
                          const int32_t *cells, int n, double *out);
    /* counts_as_follower: 1 if its figure `kind` on a feature of `feature_kind` counts
     * as a standard follower there for rules that speak of followers (R-ABB-3: the
     * abbot is a monk), asked by other units through game.c */
    int (*counts_as_follower)(int kind, int feature_kind);
    /* ---- cc_game_load: 1 if its part of a loaded game's state is within what its code
     * indexes and assumes (save.c's checks of the base game come first), else 0;
     * asked of every unit, in play or not (its state is loaded either way) */
    int (*check_state)(const cc_game *g);
    /* ---- search (search.c): deal anew from *stream (game_shuffle) what of its state
     * no seat has seen, so a rollout never reads it (The Messages: the messages not
     * yet drawn, R-MSG-11); NULL where every seat sees all of it */
    void (*determinise)(cc_game *g, uint64_t *stream);
    /* ---- names: the events it emits (CC_EV_*) and its figure kinds (CC_FIG_*) */
    const named_t *events;
    int32_t nevents;
    const named_t *figures;
    int32_t nfigures;
    /* ---- its state, when it keeps it in the game's shared state area (bytes; 0: none
     * there): game_state() finds it; zeroed with the game, copied and saved with it */
    size_t state_size;
} expansion_t;

/* unit x's part of the shared state area (x->state_size bytes, 8-aligned), in registry
 * order; game_check_config refuses rules whose units would not fit. */
void *game_state(cc_game *g, const expansion_t *x);
const void *game_state_const(const cc_game *g, const expansion_t *x);

/* cc_game.units from cfg.expansions (a game made or loaded) */
void game_bind_units(cc_game *g);
/* registry.c: every expansion, in the order their hooks run */
extern const expansion_t *const game_registry[];
extern const int game_nregistry;

/* game.c, for the expansions and policies */
int game_push(cc_game *g, int kind, int a, int b, int c);  /* onto the front of the agenda */
/* The agenda kind of unit x's local step kind `local` (0 .. x->nsteps - 1), and back:
 * the local kind of agenda kind `kind` if x owns it, else -1. */
int game_step_kind(const expansion_t *x, int local);
int game_step_local(const expansion_t *x, int kind);
/* game_push of unit x's local step kind `local` */
int game_push_step(cc_game *g, const expansion_t *x, int local, int a, int b, int c);
/* 1 if `kind` is a step kind the base game or a unit in play owns (save.c) */
int game_step_known(const cc_game *g, int kind);
void game_emit(cc_game *g, int kind, int turn, int seat, int n, const int32_t *v);
void game_add_points(cc_game *g, int seat, int points, int source);
int game_draw_for_turn(cc_game *g);
/* The place decision's rows (and greedy's values) of tile type t for the active seat,
 * computed as play does into g->rows; their number (save.c checks a loaded game's). */
int game_place_rows(cc_game *g, int t);
int game_return_figure(cc_game *g, int fig);
/* A figure of `kind` from seat's supply onto seg (the figure event; the Courier lists
 * it as placed this turn, whoever's it is: R-COU-4). Returns its id or an error. */
int game_put_figure(cc_game *g, int seat, int kind, int seg);
/* Step 2's choice for seat on the tile just placed: the figure of `kind` onto its local
 * segment `local` (game_put_figure), or an action (local < -1: the owner of kind takes
 * it); kind < 0: nothing. An error or >= 0. */
int game_place_figure(cc_game *g, int seat, int kind, int local);
/* The step-2 actions seat may take now (expansion_t actions), as (kind, code) pairs in
 * registry order; out has room for cap pairs. How many, or an error. */
int game_actions(const cc_game *g, int seat, int32_t *out, int cap);
/* greedy's value of `row`, an action's place row or figure choice (x, y, rotation, kind,
 * code), to add to its placement's no-figure row's value; pending: the tile is not on
 * the board yet (its cell and no_value are the row's), else it is (action_values). */
double game_action_value(const cc_game *g, const cc_greedy_params *p, const int32_t *row, int pending);
/* 1 if a figure of `kind` counts as a standard follower on a feature of feature_kind
 * (the follower everywhere; an expansion's kind where it says so, R-ABB-3). */
int game_counts_as_follower(const cc_game *g, int kind, int feature_kind);
enum { ACTIONS_CAP = 8 };  /* step-2 actions one seat may have at once */
/* an action's code in a segment column: -2 .. -1 - ACTIONS_CAP (a loaded game's rows) */
enum { ACTION_CODE_MIN = -1 - ACTIONS_CAP };
void game_figure_moved(cc_game *g, int fig, int seg);  /* placed or moved this turn */
void game_figure_removed(cc_game *g, int fig);         /* it left the board */
/* A turn's or an extra tile's draw, unless an expansion decides first; 1 if a
 * decision is set, 0 if nothing was left to draw, or an error. */
int game_begin_draw(cc_game *g, int extra_tile);
int game_end_or_force(cc_game *g);  /* nothing left to draw: R-MM-12, else the end */
int game_final_scoring(cc_game *g);
/* The place decision's rows for the figure kinds the seat may place (mayors.c) */
int game_figure_rules(const cc_game *g, int seat, cc_figure_rule *out);
int game_grow_rows(cc_game *g, int64_t need);  /* room for need int32 in rows */
int game_tiles_left(const cc_game *g);
static inline int game_has(const cc_game *g, int bit) { return (g->cfg.expansions & bit) != 0; }
/* The greedy valuation's weights for seat with policy sp now, written to p (returned). */
cc_greedy_params *game_greedy_params(const cc_game *g, int seat, const cc_seat_policy *sp,
                                     cc_greedy_params *p);
int game_nchoices(const cc_game *g);           /* of the current decision (0: none) */
int game_policy_of(const cc_game *g);          /* the deciding seat's CC_POL_* for its kind */
int game_basic_policy(int p);  /* first, random or greedy: what every decision kind accepts */
/* The current decision's kind as an expansion declares it (its owner in play), NULL
 * for the place decision, none, or a kind of no expansion in play. */
const decision_t *game_decision(const cc_game *g);
/* 1 if `kind` is none, the place decision or a decision kind of a unit in play (save.c) */
int game_decision_known(const cc_game *g, int kind);
int game_check_seat(const cc_seat_policy *p);  /* CC_ERR_ARG unless every field is valid */
/* cc_game_new's checks of its arguments (and cc_game_load's of a blob's config and seats) */
int game_check_config(const cc_tileset *ts, const cc_game_config *c, const int32_t *stack,
                      int nstack, const uint8_t *flags, int ntypes, const cc_seat_policy *seats);

/* save.c's bounds of a loaded game, shared with the units' check_state */
enum { SAVE_MAX_POINTS = 1000000 };  /* a loaded score or point count; far above any game's */
static inline int in_range(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v < hi; }
/* a square coordinate on the board's grid (then x + 1 next to it cannot overflow) */
static inline int on_grid(const cc_board *b, int64_t v) { return in_range(v, -b->origin, b->origin + 1); }

/* The one feature-value function (R-BASE-6/8): points for the feature of seg, scored
 * complete during play (final = 0) or in final scoring (final = 1). board.c. */
int feature_value(const cc_board *b, int seg, int final);
/* The point source of a feature kind. */
static inline int source_of_kind(int kind) {
    return kind == CC_CITY ? CC_SRC_CITY : kind == CC_ROAD ? CC_SRC_ROAD
         : kind == CC_FIELD ? CC_SRC_FIELD : kind == CC_GARDEN ? CC_SRC_GARDEN : CC_SRC_MONASTERY;
}


/* policy.c: the place decision's built-in policies (a choice index or an error; the
 * expansions' decisions have theirs in their units) */
int policy_place(cc_game *g);
/* greedy's place choice for seat policy p after the units in play with greedy_place
 * had their say (registry order): row `best`, or the row one of them prefers. */
int game_greedy_place(const cc_game *g, const cc_seat_policy *p, int best);
/* The unit in play whose greedy_aim greedy's `courier` weight values, or NULL. */
const expansion_t *game_greedy_aim(const cc_game *g);

/* search.c: the search policy's answer to the current decision (any kind: a choice
 * index or an error), and CC_ERR_ARG unless a search seat's parameters are in range */
int search_choose(cc_game *g);
int search_check_seat(const cc_seat_policy *p);
/* ascending, in place: what a determinise hook deals is sorted first, so that the deal
 * never depends on the order it hides */
void search_sort(int32_t *items, int n);

/* choice.c: the deciding seat's built-in policy answers the current decision (one of
 * the four above, by kind): a checked choice index, or an error. */
int game_policy_choice(cc_game *g);

/* The placement rule of figure kind `kind` (the follower's, or the rule of the
 * expansion that adds the kind), NULL for an unknown kind (policies, game.c). */
const cc_figure_rule *game_figure_rule(int kind);
/* A seat's figures of `kind`: in supply and in all (the follower's: the rules'), or
 * CC_ERR_ARG for a kind no expansion in play adds; and a position setup's new supply
 * (setup.c; checked by the caller). */
int game_in_supply(const cc_game *g, int seat, int kind);
int game_complement(const cc_game *g, int kind);
void game_set_supply(cc_game *g, int seat, int kind, int n);
/* A board for every tile of the stack, the start and the tiles expansions add. */
int game_max_tiles(const cc_game_config *c, int nstack);
/* The declared queries (expansion_t): any unit in play answering 1. */
int game_places_instead(const cc_game *g, int seat);
int game_placement_restricted(const cc_game *g);
/* Stream.shuffle (sim/engine/rng.py): Fisher-Yates from the end, on a SplitMix64 state. */
void game_shuffle(int32_t *items, int n, uint64_t *state);

#endif
