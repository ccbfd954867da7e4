/* carcsim C core: position setup, like a chess FEN: a game started with fewer figures
 * in a seat's supply (the rest standing elsewhere; The Messages' scoreboard setup is
 * in messages.c). Play never needs it; researchers and the rules tests start a game
 * from such a position. The call checks everything first and changes nothing when it
 * refuses; the state it writes is plain fields of the game, so clone and save/load
 * carry it. */
#include "game.h"

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
    if (g->over || seat < 0 || seat >= g->nplayers || kind < CC_FIG_FOLLOWER || kind >= NFIGURE_KINDS
        || (g->dec_kind != CC_DEC_NONE && g->dec_seat == seat))
        return CC_ERR_ARG;
    int whole = game_complement(g, kind);  /* CC_ERR_ARG: a kind of no expansion in play */
    if (whole < 0 || n < 0 || n > whole - on_board(g, seat, kind)) return CC_ERR_ARG;
    game_set_supply(g, seat, kind, n);
    return CC_OK;
}
