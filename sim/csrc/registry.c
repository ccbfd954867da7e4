/* carcsim C core: the registry of expansions, one line per unit (game.h describes the
 * hook table). The order is the order in which their hooks run wherever several act at
 * one step, and the order of their slices in the result and status rows; it is the
 * turn's phase order where that matters: The Messages' scoring figures take points as
 * they are awarded (phase 3), the River constrains placement (phase 1), the Courier
 * closes the turn (phase 4), Messengers & Mayors acts around the placement (town hall
 * before the draw, activations in step 1), the Abbot acts in step 2 only. Hooks that take a step over (award,
 * after_tile, begin_draw, no_tile, keeps) may be defined by one unit in play at most:
 * game_check_config refuses rules where two would compete, so no hook is "first to
 * claim". */
#include "game.h"

extern const expansion_t messages_expansion, river_expansion, courier_expansion, mayors_expansion,
    abbot_expansion;

const expansion_t *const game_registry[] = {&messages_expansion, &river_expansion,
                                            &courier_expansion, &mayors_expansion,
                                            &abbot_expansion};
const int game_nregistry = sizeof game_registry / sizeof *game_registry;
