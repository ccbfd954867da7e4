/* carcsim C core: the names of the codes C owns (core.h CC_NAMES_*), so Python reads
 * them (cc_name) instead of keeping copies that could drift from the enums. Each table
 * is indexed by its enum's values; a test (tests/test_names.py) checks every entry
 * against the enum it names. */
#include "game.h"

static const char *const EVENTS[] = {
    "start", "draw", "discard", "place", "figure", "score", "points", "move", "message_draw",
    "message", "courier", "final", "end", "townhall", "crisis", "favour", "scarecrow", "ride"};
static const char *const SOURCES[CC_NSOURCES] = {"road", "city", "monastery", "field", "message",
                                                 "courier"};
static const char *const FIGURES[] = {"follower", "mayor", "messenger", "scarecrow"};
/* the cc_seat_policy field that answers each decision kind */
static const char *const DECISIONS[] = {"none", "place", "scoring_figure", "messages", "town_hall",
                                        "favour", "scarecrow", "ride", "figure"};
/* built-in policies (strategies/ names them so: strategies.register's c_policy) */
static const char *const POLICIES[] = {"first", "random", "greedy", "meeple_only", "alternate",
                                       "dark_seeker", "spread", "coverage", "always_action",
                                       "always_2"};
static const char *const MM_WORDS[] = {"cell", "draw", "end", "none", "target", "farmer", "lie",
                                       "return"};
static const char *const SCARECROW[] = {"farmer", "lie", "return"};  /* MM_SC_* */

#define TABLE(t) {t, (int32_t)(sizeof t / sizeof *t)}
static const struct {
    const char *const *names;
    int32_t n;
} TABLES[CC_NAMES_TABLES] = {TABLE(EVENTS), TABLE(SOURCES), TABLE(FIGURES), TABLE(DECISIONS),
                             TABLE(POLICIES), TABLE(MM_WORDS), TABLE(SCARECROW)};

const char *cc_name(int32_t table, int32_t index) {
    if (table < 0 || table >= CC_NAMES_TABLES || index < 0 || index >= TABLES[table].n) return NULL;
    return TABLES[table].names[index];
}
