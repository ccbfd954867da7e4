/* carcsim C core: position setup, like a chess FEN: a game started with The Messages'
 * two scoring figures on given scoreboard spaces, or with fewer figures in a seat's
 * supply (the rest standing elsewhere). Play never needs them; researchers and the
 * rules tests start a game from such a position. Each call checks everything first
 * and changes nothing when it refuses; the state it writes is plain fields of the
 * game, so clone and save/load carry it. */
#include "game.h"

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
    msg_player_t *m = &g->msg.players[seat];
    m->position[0] = meeple;
    m->position[1] = messenger;
    g->scores[seat] = meeple + messenger;
    return CC_OK;
}

/* Figures of seat and kind on the board (a lying scarecrow is still a scarecrow). */
static int on_board(const cc_game *g, int seat, int kind) {
    int n = 0;
    for (int f = 0; f < CC_MAX_FIGURES; f++) {
        const figure_t *fg = &g->board->figs[f];
        n += fg->seg >= 0 && fg->player == seat && fg->kind == kind;
    }
    return n;
}

/* At most the seat's whole complement less what stands on the board (R-BASE-4: the
 * rules' followers; R-MM-1/5/7: one mayor, messenger, scarecrow each). Refused while
 * a decision waits for that seat: its choices were worked out from its supply. */
int cc_game_set_supply(cc_game *g, int seat, int kind, int n) {
    if (!g) return CC_ERR_ARG;
    if (g->error) return g->error;
    if (g->over || seat < 0 || seat >= g->nplayers || kind < CC_FIG_FOLLOWER || kind > CC_FIG_SCARECROW
        || (kind != CC_FIG_FOLLOWER && !game_has(g, CC_X_MAYORS))
        || (g->dec_kind != CC_DEC_NONE && g->dec_seat == seat))
        return CC_ERR_ARG;
    int whole = kind == CC_FIG_FOLLOWER ? g->cfg.followers : 1;
    if (n < 0 || n > whole - on_board(g, seat, kind)) return CC_ERR_ARG;
    if (kind == CC_FIG_FOLLOWER) g->supply[seat] = n;
    else g->mm.players[seat].supply[kind] = n;
    return CC_OK;
}
