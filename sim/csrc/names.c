/* carcsim C core: the names of the codes C owns (core.h CC_NAMES_*), so Python reads
 * them (cc_name) instead of keeping copies that could drift from the enums. The base
 * game's names are here; the events, figure kinds and decision kinds an expansion adds
 * are named by its unit (game.h expansion_t). A test (tests/test_names.py) checks
 * every name against the enum it names. */
#include "game.h"

/* the base game's events, figure and decisions; the units name theirs */
static const named_t BASE_EVENTS[] = {{CC_EV_START, "start"}, {CC_EV_DRAW, "draw"},
                                      {CC_EV_DISCARD, "discard"}, {CC_EV_PLACE, "place"},
                                      {CC_EV_FIGURE, "figure"}, {CC_EV_SCORE, "score"},
                                      {CC_EV_POINTS, "points"}, {CC_EV_FINAL, "final"},
                                      {CC_EV_END, "end"}};
static const named_t BASE_FIGURES[] = {{CC_FIG_FOLLOWER, "follower"}};
static const named_t BASE_DECISIONS[] = {{CC_DEC_NONE, "none"}, {CC_DEC_PLACE, "place"}};
static const char *const SOURCES[CC_NSOURCES] = {"road", "city", "monastery", "field", "message",
                                                 "courier", "garden"};
/* built-in policies (strategies/ names them so: strategies.register's c_policy) */
static const char *const POLICIES[] = {"first", "random", "greedy", "meeple_only", "alternate",
                                       "dark_seeker", "spread", "coverage", "always_action",
                                       "always_2", "search"};
static const char *const MM_WORDS[] = {"cell", "draw", "end", "none", "target", "farmer", "lie",
                                       "return"};
static const char *const SCARECROW[] = {"farmer", "lie", "return"};  /* MM_SC_* */

#define TABLE(t) {t, (int32_t)(sizeof t / sizeof *t)}
/* the tables indexed by code (NULL for those the units name) */
static const struct {
    const char *const *names;
    int32_t n;
} TABLES[CC_NAMES_TABLES] = {[CC_NAMES_SOURCE] = TABLE(SOURCES), [CC_NAMES_POLICY] = TABLE(POLICIES),
                             [CC_NAMES_MM_WORD] = TABLE(MM_WORDS), [CC_NAMES_SCARECROW] = TABLE(SCARECROW)};

static const char *find(const named_t *t, int n, int32_t code) {
    for (int i = 0; i < n; i++)
        if (t[i].code == code) return t[i].name;
    return NULL;
}

/* an event, figure kind or decision kind: the base game's, else the unit's that adds it */
static const char *named(int32_t table, int32_t code) {
    const named_t *base = table == CC_NAMES_EVENT ? BASE_EVENTS
                        : table == CC_NAMES_FIGURE ? BASE_FIGURES : BASE_DECISIONS;
    int nbase = table == CC_NAMES_EVENT ? (int)(sizeof BASE_EVENTS / sizeof *BASE_EVENTS)
              : table == CC_NAMES_FIGURE ? (int)(sizeof BASE_FIGURES / sizeof *BASE_FIGURES)
              : (int)(sizeof BASE_DECISIONS / sizeof *BASE_DECISIONS);
    const char *name = find(base, nbase, code);
    for (int k = 0; k < game_nregistry && !name; k++) {
        const expansion_t *x = game_registry[k];
        if (table == CC_NAMES_EVENT) name = find(x->events, x->nevents, code);
        else if (table == CC_NAMES_FIGURE) name = find(x->figures, x->nfigures, code);
        else
            for (int i = 0; i < x->ndecisions && !name; i++)
                if (x->decisions[i].kind == code) name = x->decisions[i].name;
    }
    return name;
}

const char *cc_name(int32_t table, int32_t index) {
    if (table < 0 || table >= CC_NAMES_TABLES || index < 0) return NULL;
    if (table == CC_NAMES_EVENT || table == CC_NAMES_FIGURE || table == CC_NAMES_DECISION)
        return named(table, index);  /* codes run 0.. without gaps (tests/test_names.py) */
    return index < TABLES[table].n ? TABLES[table].names[index] : NULL;
}

#ifndef CC_PROFILE_GUIDED  /* setup.py's second, profile-guided build defines it as 1 */
#define CC_PROFILE_GUIDED 0
#endif

int32_t cc_profile_guided(void) { return CC_PROFILE_GUIDED; }
