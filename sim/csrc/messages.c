/* carcsim C core: The Messages, both editions (RULES.md 2; sim/expansions/messages.py holds its
 * facts, sim/reference/messages.py is the reference engine's reading of the rules).
 *
 * R-MSG-C1 / R-MSG-N1  Points go to one of two scoring figures; in c3.1 the first
 *          award of a turn fixes the figure for the rest of that turn.
 * R-MSG-C2 / C3        classic: a figure of the active seat ending a round of scoring
 *          on a dark space draws one message; message points are a round of their own.
 * R-MSG-C4             classic ZMG variant: only a figure alone on its space draws.
 * R-MSG-N2 / N3        c3.1: after the turn's scoring phase only, once per turn.
 * R-MSG-8  The action or 2 points.   R-MSG-10  which figures each message counts.
 * R-MSG-11 The deck cycles: a resolved message goes to the bottom.
 *
 * Rule variants (the config's knobs, sim/expansions/messages.py): the 2 points
 * (two_points), the dark spaces' spacing (dark_every) and the deck as a multiset of
 * actions (deck, deck_n: any action 0..CC_MAX_COPIES times).
 */
#include "game.h"

enum { MSG_CHOICES_CAP = 2 + CC_MAX_FIGURES };  /* a drawn message's resolutions at most */

typedef struct {
    int32_t position[2], moves[2], live, turn_figure;
    int32_t drawn[CC_NMSG], taken[CC_NMSG], points[CC_NMSG], resolved[CC_NMSG];
} msg_player_t;

typedef struct {
    int32_t edition, zmg_alone;
    int32_t deck[CC_MAX_DECK], deck_head, deck_n;  /* a queue: top = deck[deck_head] */
    int32_t deck_size;     /* the config's deck_n: the deck's length with the tile in hand */
    int32_t in_hand;       /* action being resolved, -1 */
    int32_t round_moved;   /* bits: the active seat's figures moved this round */
    int32_t turn_messages; /* drawn this turn (c3.1: at most one) */
    int32_t pending_seat, pending_points, pending_source;  /* scoring figure decision */
    msg_player_t players[CC_MAX_PLAYERS];
    int32_t nchoices;      /* the drawn message's resolutions, rows of 3 */
    int32_t choices[MSG_CHOICES_CAP * CC_MSG_CHOICE_INTS];
} msg_state_t;

extern const expansion_t messages_expansion;

/* The Messages' state, in the game's state area (game_state) */
static msg_state_t *state(cc_game *g) { return game_state(g, &messages_expansion); }
static const msg_state_t *cstate(const cc_game *g) { return game_state_const(g, &messages_expansion); }

/* its step kinds (local: game_step_kind) */
enum { MSG_STEP_DRAW, MSG_STEP_EXTRA_TILE, MSG_NSTEPS };

/* R-BASE-10: a figure at total t stands on space t mod 50; the dark spaces are 0, 5, ...,
 * 45, or 0, every, 2 every, ... below 50 under the dark_every knob (spacing 4: 0, 4, ...,
 * 48). For 5 this is t mod 5 = 0, as the ruling says. */
static inline int dark_space(int total, int every) { return total % 50 % every == 0; }

int32_t cc_on_dark(int32_t total, int32_t every) {
    return total >= 0 && every >= 1 && dark_space(total, every);
}

static inline int on_dark(const cc_game *g, int total) { return dark_space(total, g->cfg.dark_every); }

/* The number printed on message `action` in the edition played. */
static int messages_number(const cc_game *g, int action) {
    if (cstate(g)->edition == CC_EDITION_C31 && (action == CC_MSG_ROAD || action == CC_MSG_CITY))
        return action == CC_MSG_CITY ? 1 : 2;  /* c3.1 lists the city first */
    return action + 1;
}

/* R-MSG-C4 is a classic switch; the deck lists every action once (R-MSG-11), or under
 * the deck knobs each action 0..CC_MAX_COPIES times, at least one tile in all */
static int messages_check_config(const cc_tileset *ts, const cc_game_config *c) {
    (void)ts;
    if (c->edition != CC_EDITION_CLASSIC && c->edition != CC_EDITION_C31) return CC_ERR_ARG;
    if (c->zmg_alone && c->edition != CC_EDITION_CLASSIC) return CC_ERR_ARG;
    if (c->two_points < 0 || c->two_points > 10) return CC_ERR_ARG;  /* R-MSG-8's 2, a knob */
    if (c->dark_every < 2 || c->dark_every > 10) return CC_ERR_ARG;  /* R-BASE-10's 5, a knob */
    /* R-MSG-C3: under classic, points that are a multiple of a spacing dividing 50
     * land on a dark space again from every dark space: a chain without end */
    if (c->edition == CC_EDITION_CLASSIC && c->two_points > 0 && 50 % c->dark_every == 0
        && c->two_points % c->dark_every == 0)
        return CC_ERR_ARG;
    if (c->deck_n < 1 || c->deck_n > CC_MAX_DECK) return CC_ERR_ARG;
    int copies[CC_NMSG] = {0};
    for (int i = 0; i < c->deck_n; i++) {
        if (c->deck[i] < 0 || c->deck[i] >= CC_NMSG || ++copies[c->deck[i]] > CC_MAX_COPIES)
            return CC_ERR_ARG;
    }
    return 0;
}

/* a message policy's override per action code: none, 2 points or the action */
static int messages_check_seat(const cc_seat_policy *p) {
    for (int a = 0; a < CC_NMSG; a++)
        if (p->overrides[a] < CC_OVERRIDE_NONE || p->overrides[a] > CC_OVERRIDE_ACTION) return CC_ERR_ARG;
    return 0;
}

static void messages_start(cc_game *g) {
    if (g->cfg.shuffle_deck) {  /* R-MSG-11: the deck given in rulebook order, shuffled */
        uint64_t stream = g->cfg.messages_stream;
        game_shuffle(g->cfg.deck, g->cfg.deck_n, &stream);
    }
    msg_state_t *m = state(g);
    memset(m, 0, sizeof *m);
    m->edition = g->cfg.edition;
    m->zmg_alone = g->cfg.zmg_alone;
    memcpy(m->deck, g->cfg.deck, sizeof m->deck);
    m->deck_n = m->deck_size = g->cfg.deck_n;
    m->in_hand = -1;
    for (int s = 0; s < CC_MAX_PLAYERS; s++) m->players[s].turn_figure = -1;
}

static void messages_next_turn(cc_game *g) {
    msg_state_t *m = state(g);
    for (int s = 0; s < g->nplayers; s++) m->players[s].turn_figure = -1;  /* R-MSG-N1 */
    m->turn_messages = 0;
}

/* Move one scoring figure; the score is the figures' sum. */
static void move_figure(cc_game *g, int seat, int figure, int points, int source) {
    msg_state_t *ms = state(g);
    msg_player_t *m = &ms->players[seat];
    int before = m->position[figure];
    m->position[figure] += points;
    m->moves[figure]++;
    if (ms->edition == CC_EDITION_C31) m->turn_figure = figure;
    if (seat == g->seat) ms->round_moved |= 1 << figure;
    int dark = on_dark(g, m->position[figure]), other = on_dark(g, m->position[1 - figure] + points);
    m->live += dark != other;  /* the choice of figure decided a dark space */
    int32_t v[7] = {figure, points, source, before, m->position[figure], dark, other};
    game_emit(g, CC_EV_MOVE, g->turn, seat, 7, v);
    game_add_points(g, seat, points, source);
}

static int messages_award(cc_game *g, int seat, int points, int source) {
    msg_state_t *ms = state(g);
    msg_player_t *m = &ms->players[seat];
    if (ms->edition == CC_EDITION_C31 && m->turn_figure >= 0) {
        move_figure(g, seat, m->turn_figure, points, source);  /* R-MSG-N1 */
        return 1;
    }
    ms->pending_seat = seat;
    ms->pending_points = points;
    ms->pending_source = source;
    g->dec_kind = CC_DEC_SCORING_FIGURE;
    g->dec_seat = seat;
    return 1;
}

/* R-MSG-C4: no other player's figure stands on the same space (50 spaces). */
static int alone(const cc_game *g, int seat, int total) {
    const msg_state_t *m = cstate(g);
    for (int s = 0; s < g->nplayers; s++)
        for (int f = 0; f < 2 && s != seat; f++)
            if (m->players[s].position[f] % 50 == total % 50) return 0;
    return 1;
}

static int messages_end_round(cc_game *g, int kind) {
    msg_state_t *ms = state(g);
    int moved = ms->round_moved, hit = 0;
    ms->round_moved = 0;
    const msg_player_t *m = &ms->players[g->seat];
    if (ms->edition == CC_EDITION_CLASSIC) {
        /* R-MSG-C2: only final positions count; one message even if both are dark */
        for (int f = 0; f < 2; f++)
            if ((moved & (1 << f)) && on_dark(g, m->position[f])
                && (!ms->zmg_alone || alone(g, g->seat, m->position[f])))
                hit = 1;
    } else {
        /* R-MSG-N2: after the turn's scoring phase only; R-MSG-N3: once per turn */
        hit = kind == ROUND_TURN && ms->turn_messages == 0 && m->turn_figure >= 0
              && on_dark(g, m->position[m->turn_figure]);
    }
    return hit ? game_push_step(g, &messages_expansion, MSG_STEP_DRAW, 0, 0, 0) : 0;
}

/* ---------------------------------------------------------------- the choices */

/* Ties between targets go by the lowest (y, x) position, then segment order. */
static int64_t order_key(const cc_board *b, int seg) {
    const placed_t *p = &b->tiles[seg / CC_MAX_SEGS];
    return ((int64_t)p->y * 100000 + p->x) * CC_MAX_SEGS + seg % CC_MAX_SEGS;
}

static void add_choice(msg_state_t *m, int action, int target, int points) {
    int32_t *c = &m->choices[CC_MSG_CHOICE_INTS * m->nchoices++];
    c[0] = action;
    c[1] = target;
    c[2] = points;
}

/* Insertion sort of ids by key (stable: equal keys keep their order). */
static void sort_by_key(int32_t *ids, int64_t *keys, int n) {
    for (int i = 1; i < n; i++) {
        int32_t id = ids[i];
        int64_t k = keys[i];
        int j = i;
        for (; j > 0 && keys[j - 1] > k; j--) {
            ids[j] = ids[j - 1];
            keys[j] = keys[j - 1];
        }
        ids[j] = id;
        keys[j] = k;
    }
}

/* The legal resolutions of `action` for `seat` with their immediate points
 * (the decision's choices): "2 points" first (the config's two_points), then the
 * action's ways. */
static int message_choices(cc_game *g, int seat, int action) {
    const cc_board *b = g->board;
    msg_state_t *m = state(g);
    m->nchoices = 0;
    add_choice(m, CC_MSG_TWO, -1, g->cfg.two_points);
    /* R-MSG-10: standard followers of the seat; score_and_return: any figure */
    int32_t ids[CC_MAX_FIGURES];
    int64_t keys[CC_MAX_FIGURES];
    int n = 0, knights = 0, farmers = 0;
    static const int8_t SMALLEST_KIND[3] = {CC_ROAD, CC_CITY, CC_MONASTERY};
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        const figure_t *fg = &b->figs[f];
        if (fg->seg < 0 || fg->player != seat) continue;
        if (action == CC_MSG_SCORE) {
            ids[n] = f;
            keys[n++] = order_key(b, fg->seg);
            continue;
        }
        farmers += fg->kind == CC_FIG_SCARECROW && fg->scores;  /* lying: a farmer (R-MM-8) */
        int root = find_const(b, fg->seg), kind = b->segs[root].kind;
        /* standard followers, and figures that count as one there (R-ABB-3: a monk) */
        if (!game_counts_as_follower(g, fg->kind, kind)) continue;
        /* message 3 counts gardens too under c3.1 (R-ABB-6: its text names them) */
        if (kind == CC_GARDEN && action == CC_MSG_MONASTERY && m->edition == CC_EDITION_C31)
            kind = CC_MONASTERY;
        knights += kind == CC_CITY;
        farmers += kind == CC_FIELD;
        int wanted = action <= CC_MSG_MONASTERY ? SMALLEST_KIND[action] == kind
                   : action == CC_MSG_COATS && kind == CC_CITY;
        int seen = 0;
        for (int i = 0; i < n && !seen; i++) seen = ids[i] == root;
        if (wanted && !seen) {
            ids[n] = root;
            keys[n++] = order_key(b, root);
        }
    }
    switch (action) {
    case CC_MSG_ROAD: case CC_MSG_CITY: case CC_MSG_MONASTERY: {
        sort_by_key(ids, keys, n);
        int values[CC_MAX_FIGURES], low = 0;
        for (int i = 0; i < n; i++) {
            values[i] = feature_value(b, ids[i], 1);
            if (values[i] < 0) return values[i];
            if (i == 0 || values[i] < low) low = values[i];
        }
        for (int i = 0; i < n; i++)
            if (values[i] == low) add_choice(m, action, ids[i], low);  /* ties: the player's choice */
        break;
    }
    case CC_MSG_EXTRA:  /* a tile to draw, or a town hall in hand (R-MM-10) */
        if (game_tiles_left(g) > 0 || game_places_instead(g, seat))
            add_choice(m, action, -1, -1);
        break;
    case CC_MSG_COATS: {
        int coats = 0;
        for (int i = 0; i < n; i++) coats += b->segs[ids[i]].coats;
        add_choice(m, action, -1, 2 * coats);
        break;
    }
    case CC_MSG_KNIGHT: add_choice(m, action, -1, 2 * knights); break;
    case CC_MSG_FARMER: add_choice(m, action, -1, 2 * farmers); break;
    default: {  /* score and return: the feature's final value if the seat holds the majority */
        sort_by_key(ids, keys, n);
        for (int i = 0; i < n; i++) {
            const figure_t *fg = &b->figs[ids[i]];
            int root = find_const(b, fg->seg);
            const seg_t *r = &b->segs[root];
            int v = 0;
            /* R-MSG-10: a figure that never scores (M&M's standing scarecrow, R-MM-9:
             * the board's own flag, not M&M's state) never holds the majority: 0 */
            if (fg->scores && holds_majority(r->count, r->strength, g->nplayers, seat)) {
                v = feature_value(b, root, 1);
                if (v < 0) return v;
            }
            add_choice(m, action, ids[i], v);
        }
    }
    }
    return m->nchoices;
}

static int draw_message(cc_game *g) {
    msg_state_t *m = state(g);
    if (m->deck_n == 0) return CC_ERR_ARG;
    int action = m->deck[m->deck_head];
    m->deck_head = (m->deck_head + 1) % m->deck_size;
    m->deck_n--;
    m->in_hand = action;
    m->turn_messages++;
    m->players[g->seat].drawn[action]++;
    int32_t v[2] = {action, messages_number(g, action)};
    game_emit(g, CC_EV_MESSAGE_DRAW, g->turn, g->seat, 2, v);
    int rc = message_choices(g, g->seat, action);
    if (rc < 0) return rc;
    g->dec_kind = CC_DEC_MESSAGES;
    g->dec_seat = g->seat;
    return 1;
}

static int messages_step(cc_game *g, int local, const step_t *s) {
    (void)s;
    if (local == MSG_STEP_DRAW) return draw_message(g);
    if (local == MSG_STEP_EXTRA_TILE) {  /* classic message 4: a turn part inside this turn
                                          (or the town hall instead, R-MM-10) */
        int rc = game_begin_draw(g, 1);
        return rc < 0 ? rc : 1;
    }
    return 0;
}

/* R-MSG-8: the action or 2 points; R-MSG-11: the tile goes to the bottom of the deck. */
static int apply_message(cc_game *g, int idx) {
    msg_state_t *m = state(g);
    int seat = g->seat, action = m->in_hand;
    const int32_t *c = &m->choices[CC_MSG_CHOICE_INTS * idx];
    int code = c[0], target = c[1], points = c[2], extra = 0, tkind = 0, tseg = -1;
    if (code == CC_MSG_TWO) points = g->cfg.two_points;
    else if (code == CC_MSG_EXTRA) { points = 0; extra = 1; }
    else if (code <= CC_MSG_MONASTERY) { tkind = 1; tseg = target; }
    else if (code == CC_MSG_SCORE) {
        tkind = 2;
        tseg = g->board->figs[target].seg;
        int rc = game_return_figure(g, target);
        if (rc < 0) return rc;
    }
    m->deck[(m->deck_head + m->deck_n++) % m->deck_size] = action;
    m->in_hand = -1;
    msg_player_t *p = &m->players[seat];
    int taken = code != CC_MSG_TWO;
    p->taken[action] += taken;
    p->points[action] += points;
    p->resolved[action]++;
    int32_t v[7] = {action, messages_number(g, action), taken, points, tkind, tseg, extra};
    game_emit(g, CC_EV_MESSAGE, g->turn, seat, 7, v);
    int rc = 0;
    if (m->edition == CC_EDITION_CLASSIC) {
        if (extra) rc = game_push_step(g, &messages_expansion, MSG_STEP_EXTRA_TILE, 0, 0, 0);  /* message 4 */
        if (rc == 0) rc = game_push(g, STEP_END_ROUND, ROUND_OWN, 0, 0);  /* R-MSG-C3 */
    } else if (extra) {
        g->extra_turn = 1;  /* c3.1 message 4: a whole turn after this one */
    }
    if (rc == 0) rc = game_push(g, STEP_AWARD, seat, points, CC_SRC_MESSAGE);
    return rc;
}

/* ---------------------------------------------------------------- built-in policies
 * (strategies/messages.py documents them): the scoring figure, the message */

/* P(points % 5 == k) of the next award (strategies/messages.py coverage), measured
 * under the rules' spacing of 5; under another spacing every residue counts alike. */
static const double PRIOR[5] = {0.093, 0.095, 0.165, 0.169, 0.479};

static double chance(const cc_game *g, int a, int b) {
    int every = g->cfg.dark_every;
    double s = 0;
    for (int k = 0; k < every; k++)
        if (on_dark(g, a + k) || on_dark(g, b + k)) s += every == 5 ? PRIOR[k] : 1.0 / every;
    return s;
}

static int policy_scoring_figure(cc_game *g) {
    const msg_state_t *ms = cstate(g);
    int seat = g->dec_seat, points = ms->pending_points;
    const msg_player_t *m = &ms->players[seat];
    int meeple = m->position[0], messenger = m->position[1];
    switch (g->seats[seat].scoring_figure) {
    case CC_POL_FIRST: case CC_POL_MEEPLE_ONLY: return 0;
    case CC_POL_RANDOM: return splitmix_below(&g->rng[seat], 2);
    case CC_POL_ALTERNATE: return (m->moves[0] + m->moves[1]) % 2;
    default: break;
    }
    /* dark_seeker (greedy too), spread, coverage: the figure landing on a dark space */
    int md = on_dark(g, meeple + points), sd = on_dark(g, messenger + points);
    if (md != sd) return md ? 0 : 1;
    if (md) return 0;
    switch (g->seats[seat].scoring_figure) {
    case CC_POL_SPREAD: return (meeple + points) % g->cfg.dark_every == messenger % g->cfg.dark_every;
    case CC_POL_COVERAGE: return chance(g, meeple, messenger + points) > chance(g, meeple + points, messenger);
    default: return 0;
    }
}

static int policy_messages(cc_game *g) {
    const msg_state_t *m = cstate(g);
    int seat = g->dec_seat, n = m->nchoices;
    const cc_seat_policy *p = &g->seats[seat];
    const int32_t *c = m->choices;
    if (p->messages == CC_POL_FIRST) return 0;
    if (p->messages == CC_POL_RANDOM) return splitmix_below(&g->rng[seat], n);
    /* always_action, always_2, greedy: the action's best way (most points, then first) */
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (c[CC_MSG_CHOICE_INTS * i] == CC_MSG_TWO) continue;
        if (best < 0 || c[CC_MSG_CHOICE_INTS * i + 2] > c[CC_MSG_CHOICE_INTS * best + 2]) best = i;
    }
    int how = p->overrides[m->in_hand];
    if (best < 0 || how == CC_OVERRIDE_TWO) return 0;  /* R-MSG-8: impossible -> 2 points */
    if (how == CC_OVERRIDE_ACTION || p->messages == CC_POL_ALWAYS_ACTION) return best;
    if (p->messages == CC_POL_GREEDY) {
        int pts = c[CC_MSG_CHOICE_INTS * best + 2];
        double value = pts < 0 ? p->extra : pts;  /* an extra tile or turn counts `extra` */
        if (value >= g->cfg.two_points) return best;  /* at least the 2 points' worth */
    }
    return 0;
}

/* The scoring figure decision (R-MSG-C1/N1): 2 choices, meeple or messenger; the
 * head shows the points, their source and both figures' positions. */
static int figure_nchoices(const cc_game *g) { (void)g; return 2; }

static void figure_record(const cc_game *g, int idx, int32_t *v) {
    (void)g;
    v[0] = idx;
    v[1] = v[2] = -1;
}

static int figure_describe(const cc_game *g, int32_t *head, int32_t *choices, int cap) {
    (void)choices, (void)cap;
    const msg_state_t *ms = cstate(g);
    const msg_player_t *m = &ms->players[ms->pending_seat];
    head[4] = ms->pending_points;
    head[5] = ms->pending_source;
    head[6] = m->position[0];
    head[7] = m->position[1];
    return 2;
}

static int figure_apply(cc_game *g, int kind, int idx) {
    (void)kind;
    const msg_state_t *m = cstate(g);
    move_figure(g, m->pending_seat, idx, m->pending_points, m->pending_source);
    return 0;
}

/* The drawn message's resolutions (R-MSG-8): rows of CC_MSG_CHOICE_INTS. */
static int message_nchoices(const cc_game *g) { return cstate(g)->nchoices; }

static void message_record(const cc_game *g, int idx, int32_t *v) {
    const int32_t *c = &cstate(g)->choices[CC_MSG_CHOICE_INTS * idx];
    v[0] = c[0];
    v[1] = c[1];
    v[2] = -1;
}

static int message_describe(const cc_game *g, int32_t *head, int32_t *choices, int cap) {
    const msg_state_t *m = cstate(g);
    int n = m->nchoices;
    if (CC_MSG_CHOICE_INTS * (int64_t)n > cap) return CC_ERR_FULL;
    head[4] = m->in_hand;
    head[5] = messages_number(g, m->in_hand);
    memcpy(choices, m->choices, (size_t)n * CC_MSG_CHOICE_INTS * sizeof *choices);
    return n;
}

static int message_apply(cc_game *g, int kind, int idx) {
    (void)kind;
    int rc = apply_message(g, idx);
    return rc < 0 ? rc : 0;
}

/* the built-in policies each decision field takes (strategies/messages.py) */
static int figure_accepts(int p) {
    return game_basic_policy(p) || (p >= CC_POL_MEEPLE_ONLY && p <= CC_POL_COVERAGE);
}

static int message_accepts(int p) {
    return game_basic_policy(p) || p == CC_POL_ALWAYS_ACTION || p == CC_POL_ALWAYS_2;
}

/* R-MSG-C1 / R-MSG-N1: a seat's score is its two figures' sum, so setting them sets
 * the score. Allowed only while the seat has scored no point (every source 0): its
 * score is then exactly this head start, which counts in no point source. */
int cc_game_set_scoreboard(cc_game *g, int seat, int meeple, int messenger) {
    if (!g) return CC_ERR_ARG;
    if (g->error) return g->error;
    if (!game_has(g, CC_X_MESSAGES) || g->over || seat < 0 || seat >= g->nplayers
        || meeple < 0 || meeple > CC_SETUP_MAX_POSITION || messenger < 0
        || messenger > CC_SETUP_MAX_POSITION)
        return CC_ERR_ARG;
    for (int k = 0; k < CC_NSOURCES; k++)
        if (g->points[seat][k] != 0) return CC_ERR_ARG;
    msg_player_t *m = &state(g)->players[seat];
    m->position[0] = meeple;
    m->position[1] = messenger;
    g->scores[seat] = meeple + messenger;
    return CC_OK;
}

/* A loaded game's Messages state (save.c): counts and codes within what this file
 * indexes, the deck and the tile in hand the config's deck as a multiset (R-MSG-11:
 * the 8 messages once each in the rules). */
static int messages_check_state(const cc_game *g) {
    const msg_state_t *m = cstate(g);
    if (!in_range(m->nchoices, 0, MSG_CHOICES_CAP + 1) || !in_range(m->in_hand, -1, CC_NMSG)
        || !in_range(m->deck_size, 0, CC_MAX_DECK + 1) || !in_range(m->deck_head, 0, CC_MAX_DECK)
        || !in_range(m->deck_n, 0, CC_MAX_DECK + 1)
        || !in_range(m->pending_seat, 0, g->nplayers) || !in_range(m->pending_source, 0, CC_NSOURCES)
        || !in_range(m->pending_points, 0, SAVE_MAX_POINTS + 1))
        return 0;
    for (int i = 0; i < CC_MAX_DECK; i++)
        if (!in_range(m->deck[i], 0, CC_NMSG)) return 0;
    for (int i = 0; i < m->nchoices; i++) {
        const int32_t *c = &m->choices[CC_MSG_CHOICE_INTS * i];
        if (!in_range(c[0], CC_MSG_TWO, CC_NMSG)) return 0;
        if (c[0] == CC_MSG_SCORE && !in_range(c[1], 0, CC_MAX_FIGURES)) return 0;
    }
    if (g->dec_kind == CC_DEC_MESSAGES && (m->in_hand < 0 || m->nchoices < 1)) return 0;
    if (game_has(g, CC_X_MESSAGES)) {  /* R-MSG-11: the deck and the tile in hand are the config's */
        if (m->deck_size != g->cfg.deck_n || m->deck_size < 1 || m->deck_head >= m->deck_size) return 0;
        int copies[CC_NMSG] = {0};
        for (int i = 0; i < g->cfg.deck_n; i++) {
            if (!in_range(g->cfg.deck[i], 0, CC_NMSG)) return 0;
            copies[g->cfg.deck[i]]++;
        }
        if (m->in_hand >= 0) copies[m->in_hand]--;
        for (int i = 0; i < m->deck_n; i++) copies[m->deck[(m->deck_head + i) % m->deck_size]]--;
        for (int a = 0; a < CC_NMSG; a++)
            if (copies[a] != 0) return 0;
        if (m->deck_n + (m->in_hand >= 0) != m->deck_size
            || (m->edition != CC_EDITION_CLASSIC && m->edition != CC_EDITION_C31))
            return 0;
    }
    for (int s = 0; s < CC_MAX_PLAYERS; s++)
        if (!in_range(m->players[s].turn_figure, -1, 2)) return 0;
    for (int s = 0; s < g->nplayers; s++)  /* a scoring figure's space takes the points too */
        for (int f = 0; f < 2; f++)
            if (!in_range(m->players[s].position[f], 0, SAVE_MAX_POINTS + 1)) return 0;
    return 1;
}

static const decision_t DECISIONS[] = {
    {CC_DEC_SCORING_FIGURE, "scoring_figure", figure_nchoices, figure_record, figure_describe, figure_apply,
     offsetof(cc_seat_policy, scoring_figure), figure_accepts, policy_scoring_figure},
    {CC_DEC_MESSAGES, "messages", message_nchoices, message_record, message_describe, message_apply,
     offsetof(cc_seat_policy, messages), message_accepts, policy_messages},
};
static const named_t EVENTS[] = {{CC_EV_MOVE, "move"}, {CC_EV_MESSAGE_DRAW, "message_draw"},
                                 {CC_EV_MESSAGE, "message"}};
/* per seat: scoring meeple and messenger positions, their moves, live moves; per
 * action code drawn, taken, message points, resolved */
static const field_t RESULT[] = {{"figures", 2}, {"moves", 2}, {"live_moves", 1}, {"drawn", CC_NMSG},
                                 {"taken", CC_NMSG}, {"message_points", CC_NMSG}, {"resolved", CC_NMSG}};

static void messages_result(const cc_game *g, int seat, int32_t *o) {
    const msg_player_t *m = &cstate(g)->players[seat];
    o[0] = m->position[0];
    o[1] = m->position[1];
    o[2] = m->moves[0];
    o[3] = m->moves[1];
    o[4] = m->live;
    memcpy(&o[5], m->drawn, CC_NMSG * sizeof *o);
    memcpy(&o[5 + CC_NMSG], m->taken, CC_NMSG * sizeof *o);
    memcpy(&o[5 + 2 * CC_NMSG], m->points, CC_NMSG * sizeof *o);
    memcpy(&o[5 + 3 * CC_NMSG], m->resolved, CC_NMSG * sizeof *o);
}

/* search (search.c): the messages no seat has drawn yet lie at the deck's top in an order
 * nobody has seen, dealt anew here among their places; the drawn ones keep their order.
 * R-MSG-11: a draw takes the top and a resolved message goes to the bottom, so after D
 * draws the queue's first deck_size − D tiles are the never drawn ones (a multiset deck
 * too: counting copies by action would not say which). A deck the rules fix (not
 * shuffled) is known to every seat: nothing to deal. The undrawn messages are sorted
 * before they are shuffled (search_sort). */
static void messages_determinise(cc_game *g, uint64_t *stream) {
    msg_state_t *m = state(g);
    if (!g->cfg.shuffle_deck) return;
    int drawn = 0;
    for (int s = 0; s < g->nplayers; s++)
        for (int a = 0; a < CC_NMSG; a++) drawn += m->players[s].drawn[a];
    int n = m->deck_size - drawn;
    if (n > m->deck_n) n = m->deck_n;
    if (n <= 1) return;  /* one unseen tile or none: nothing to deal */
    int32_t at[CC_MAX_DECK], items[CC_MAX_DECK];
    for (int i = 0; i < n; i++) {
        at[i] = (m->deck_head + i) % m->deck_size;
        items[i] = m->deck[at[i]];
    }
    search_sort(items, n);  /* their hidden order is never read */
    game_shuffle(items, n, stream);
    for (int k = 0; k < n; k++) m->deck[at[k]] = items[k];
}

const expansion_t messages_expansion = {
    .name = "messages", .bit = CC_X_MESSAGES, .start = messages_start,
    .next_turn = messages_next_turn, .award = messages_award, .end_round = messages_end_round,
    .nsteps = MSG_NSTEPS, .step = messages_step,
    .decisions = DECISIONS, .ndecisions = sizeof DECISIONS / sizeof *DECISIONS,
    .result_fields = RESULT, .nresult_fields = sizeof RESULT / sizeof *RESULT, .result = messages_result,
    .check_config = messages_check_config, .check_seat = messages_check_seat,
    .check_state = messages_check_state, .determinise = messages_determinise,
    .events = EVENTS, .nevents = sizeof EVENTS / sizeof *EVENTS,
    .state_size = sizeof(msg_state_t),
};
