/* carcsim C core: turn options (placements x figure rules) and the greedy valuation. */
#include "internal.h"

/* ---------------------------------------------------------------- turn options */

/* What placing one tile would do, worked out without changing the board: the new
 * tile's segments grouped into the features they would form, with each feature's
 * aggregates after the placement. */
typedef struct {
    int ngroups;
    int8_t group_of[CC_MAX_SEGS];
    int8_t kind[CC_MAX_SEGS];
    int8_t nroots[CC_MAX_SEGS];
    int32_t roots[CC_MAX_SEGS][8];      /* existing features joined (roots) */
    int32_t open[CC_MAX_SEGS], coats[CC_MAX_SEGS], nfig[CC_MAX_SEGS];
    struct {  /* the figures' tallies of the features joined; unset without one */
        uint16_t count[CC_MAX_PLAYERS], strength[CC_MAX_PLAYERS];
    } figs[CC_MAX_SEGS];
    int8_t complete[CC_MAX_SEGS];
    uint8_t fits[CC_MAX_SEGS];          /* the figure rules that let a figure go there (analyze) */
    uint16_t segs_of[CC_MAX_SEGS];      /* the new tile's segments in each group, a bit each */
    /* the existing cities the new tile joins, and the group each joins (a root is in
     * one group at most: segments reaching one feature are one group) */
    int njoined;
    int32_t joined[CC_MAX_SEGS * 8];
    int8_t joined_group[CC_MAX_SEGS * 8];
} trial_t;

static int root_in(const int32_t *list, int n, int32_t r) {
    for (int i = 0; i < n; i++)
        if (list[i] == r) return 1;
    return 0;
}

/* Each segment its own set, copied in one go (a loop of byte stores costs more). */
static const int8_t SINGLETONS[CC_MAX_SEGS] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
/* and each segment as a set of segments, a bit each */
static const uint16_t SEG_BITS[CC_MAX_SEGS] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};

static int lfind(int8_t *p, int s) {
    while (p[s] != s) s = p[s];
    return s;
}

enum { MAX_LINKS = 4 * 3 };  /* per edge: a city or road, and two field halves */

/* What a frontier cell's placed neighbours show it (its front_cell_t) and their
 * features' roots as they are now: the same for every rotation tried there, so worked
 * out once per cell (the placements come sorted by cell). */
typedef struct {
    int x, y;
    const front_cell_t *f;
    int32_t theirs_root[4], ft_root[8];  /* their features' roots */
    int around;              /* tiles among the 8 around (R-BASE-5), -1 not yet known */
    int centre_tiles;        /* monastery_tiles there (R-MM-10), -1 not yet known */
} cellinfo_t;

/* Frontier cell `at` (b->front[at], at x, y). */
static void cell_info(const cc_board *b, int at, int x, int y, cellinfo_t *c) {
    const front_cell_t *f = &b->front_cells[b->front_slot[at]];
    c->x = x;
    c->y = y;
    c->f = f;
    for (unsigned sides = f->sides; sides; sides &= sides - 1) {
        int e = __builtin_ctz(sides);
        c->theirs_root[e] = f->theirs[e] >= 0 ? find_const(b, f->tile[e] * CC_MAX_SEGS + f->theirs[e]) : -1;
    }
    for (unsigned halves = f->halves; halves; halves &= halves - 1) {
        int h = __builtin_ctz(halves);
        c->ft_root[h] = find_const(b, f->tile[h / 2] * CC_MAX_SEGS + f->ft[h]);
    }
    c->around = c->centre_tiles = -1;  /* worked out when a centre feature asks (cell_around, cell_tiles) */
}

static int cell_around(const cc_board *b, cellinfo_t *c) {
    if (c->around < 0) c->around = around_count(b, cell_in(b, c->x, c->y));
    return c->around;
}

/* What a centre feature of a tile on cell c is worth (monastery_tiles): the same in every
 * rotation, so counted once per cell. */
static int cell_tiles(const cc_board *b, cellinfo_t *c) {
    if (c->centre_tiles < 0) c->centre_tiles = monastery_tiles(b, c->x, c->y);
    return c->centre_tiles;
}

/* The existing features the new tile (v on cell c) would join, as (new segment, root)
 * pairs in edge order; with `matched`, per new city or road segment the edges it
 * closes: 2 a matched edge, 1 an edge a town hall closes. Returns the pair count. */
static inline int links(const variant_t *v, const cellinfo_t *c, int8_t *seg, int32_t *root, int *matched) {
    int n = 0;
    const front_cell_t *f = c->f;
    for (unsigned sides = f->sides; sides; sides &= sides - 1) {  /* in edge order */
        int e = __builtin_ctz(sides);
        int mine = v->edge_seg[e], theirs = f->theirs[e];
        if (mine >= 0 && theirs >= 0 && v->def.edges[e] == f->their_edge[e]) {
            root[n] = c->theirs_root[e];
            seg[n++] = (int8_t)mine;
            if (matched) matched[mine] += 2;
        } else if (mine >= 0 && matched) {
            matched[mine] += 1;  /* a town hall closes this edge */
        }
        for (unsigned halves = f->halves >> 2 * e & 3; halves; halves &= halves - 1) {
            int h = 2 * e + __builtin_ctz(halves), fm = v->half_seg[h];
            if (fm < 0) continue;
            root[n] = c->ft_root[h];
            seg[n++] = (int8_t)fm;
        }
    }
    return n;
}

/* Root rs's figures' tallies added to group g's, or made its tallies if it is the
 * group's first root. */
static inline void add_tallies(trial_t *t, int g, const seg_t *rs, int first) {
    if (first) {
        memcpy(t->figs[g].count, rs->count, sizeof rs->count);
        memcpy(t->figs[g].strength, rs->strength, sizeof rs->strength);
        return;
    }
    /* every slot, not only the players': a fixed count the compiler unrolls, and the
     * slots past the players hold no figure (they add 0) */
    for (int q = 0; q < CC_MAX_PLAYERS; q++) {
        t->figs[g].count[q] = (uint16_t)(t->figs[g].count[q] + rs->count[q]);
        t->figs[g].strength[q] = (uint16_t)(t->figs[g].strength[q] + rs->strength[q]);
    }
}

/* Which rules let a figure go on a feature, by its kind and whether it already holds a
 * figure: a bit per rule, in the rules' order. Made once per call, so a trial's group
 * asks one table entry instead of every rule. */
typedef uint8_t rule_masks_t[5][2];  /* kinds 0..4: cc_tileset_add rejects others */

static void rule_masks(const cc_figure_rule *rules, int nrules, rule_masks_t masks) {
    memset(masks, 0, sizeof(rule_masks_t));
    for (int r = 0; r < nrules; r++)
        for (unsigned kinds = rules[r].segment_kinds & 31u; kinds; kinds &= kinds - 1) {
            int kind = __builtin_ctz(kinds);
            masks[kind][0] = (uint8_t)(masks[kind][0] | 1u << r);
            if (!rules[r].needs_free) masks[kind][1] = (uint8_t)(masks[kind][1] | 1u << r);  /* busy */
        }
}

/* The rules that let a figure go on group g of a trial. */
static unsigned group_fits(const rule_masks_t masks, const trial_t *t, int g) {
    return masks[t->kind[g]][t->nfig[g] != 0];
}

static void analyze(const cc_board *b, const variant_t *v, cellinfo_t *c, const rule_masks_t masks, trial_t *t) {
    int nseg = v->def.nseg;
    int32_t root[MAX_LINKS];
    int8_t seg[MAX_LINKS];
    int matched[CC_MAX_SEGS] = {0};
    int nlinks = links(v, c, seg, root, matched);
    /* each segment's links, a bit per link (so its roots come in link order), and the
     * segments of the new tile that reach the same existing feature become one */
    unsigned seglinks[CC_MAX_SEGS] = {0};
    int8_t par[CC_MAX_SEGS];
    memcpy(par, SINGLETONS, sizeof par);
    int merged = 0;
    for (int i = 0; i < nlinks; i++) {
        seglinks[seg[i]] |= 1u << i;
        for (int j = 0; j < i; j++)
            if (root[j] == root[i] && seg[j] != seg[i]
                && v->def.seg_kind[seg[j]] == v->def.seg_kind[seg[i]]) {
                par[lfind(par, seg[i])] = (int8_t)lfind(par, seg[j]);
                merged = 1;
            }
    }
    t->njoined = 0;
    if (!merged) {
        /* nearly every trial: each segment its own group, numbered as itself, so the
         * general pass below reduces to one pass over the segments (the same groups, roots
         * and joined cities in the same order) */
        t->ngroups = nseg;
        /* what is the tile's own in every such trial, copied whole */
        memcpy(t->group_of, SINGLETONS, sizeof t->group_of);
        memcpy(t->segs_of, SEG_BITS, sizeof t->segs_of);
        memcpy(t->kind, v->def.seg_kind, sizeof t->kind);
        for (int s = 0; s < nseg; s++) {
            /* (nedges and matched are 0 but for a city or road) */
            int kind = v->def.seg_kind[s], nr = 0, open = v->nedges[s] - matched[s], coats = v->def.seg_coats[s];
            int nfig = 0;
            for (unsigned m = seglinks[s]; m; m &= m - 1) {
                int32_t r = root[__builtin_ctz(m)];
                if (root_in(t->roots[s], nr, r)) continue;
                const seg_t *rs = &b->segs[r];
                open += rs->open;
                coats += rs->coats;
                nfig += rs->nfig;
                add_tallies(t, s, rs, nr == 0);
                t->roots[s][nr++] = r;
                if (kind == CC_CITY) {
                    t->joined[t->njoined] = r;
                    t->joined_group[t->njoined++] = (int8_t)s;
                }
            }
            t->open[s] = open;
            t->coats[s] = coats;
            t->nfig[s] = nfig;
            t->nroots[s] = (int8_t)nr;
            t->fits[s] = masks[kind][nfig != 0];
            t->complete[s] = (kind == CC_CITY || kind == CC_ROAD) ? open == 0
                           : is_centre(kind) ? cell_around(b, c) == 8 : 0;
        }
        return;
    }
    /* counts kept in ints until the end: a store to an int8_t field may alias any
     * other, which would make the compiler reload them all */
    int ngroups = 0, nroots[CC_MAX_SEGS];
    int8_t gid[CC_MAX_SEGS], group_of[CC_MAX_SEGS] = {0};
    memset(gid, -1, sizeof gid);
    for (int s = 0; s < nseg; s++) {
        /* groups numbered in the order of their first segment */
        int rep = lfind(par, s), g = gid[rep];
        if (g < 0) {  /* each group's fields are cleared when it is made (its figures'
                         tallies are its first root's: read only where it has one) */
            g = ngroups++;
            gid[rep] = (int8_t)g;
            nroots[g] = 0;
            t->open[g] = t->coats[g] = t->nfig[g] = 0;
            t->segs_of[g] = 0;
        }
        group_of[s] = (int8_t)g;
        t->segs_of[g] = (uint16_t)(t->segs_of[g] | 1u << s);
        t->coats[g] = (int32_t)(t->coats[g] + v->def.seg_coats[s]);
        if (v->def.seg_kind[s] == CC_CITY || v->def.seg_kind[s] == CC_ROAD)
            t->open[g] = (int32_t)(t->open[g] + v->nedges[s] - matched[s]);
        for (unsigned m = seglinks[s]; m; m &= m - 1) {
            int32_t r = root[__builtin_ctz(m)];
            if (root_in(t->roots[g], nroots[g], r)) continue;
            const seg_t *rs = &b->segs[r];
            t->open[g] = (int32_t)(t->open[g] + rs->open);
            t->coats[g] = (int32_t)(t->coats[g] + rs->coats);
            t->nfig[g] = (int32_t)(t->nfig[g] + rs->nfig);
            add_tallies(t, g, rs, nroots[g] == 0);
            t->roots[g][nroots[g]++] = r;
        }
    }
    memcpy(t->group_of, group_of, sizeof group_of);
    t->ngroups = ngroups;
    for (int g = 0; g < ngroups; g++) {
        int kind = v->def.seg_kind[__builtin_ctz(t->segs_of[g])];  /* its first segment's */
        t->kind[g] = (int8_t)kind;
        t->nroots[g] = (int8_t)nroots[g];
        if (kind == CC_CITY)
            for (int k = 0; k < nroots[g]; k++) {
                t->joined[t->njoined] = t->roots[g][k];
                t->joined_group[t->njoined++] = (int8_t)g;
            }
        t->fits[g] = masks[kind][t->nfig[g] != 0];
        t->complete[g] = 0;
        if (kind == CC_CITY || kind == CC_ROAD) t->complete[g] = t->open[g] == 0;
        if (is_centre(kind)) t->complete[g] = cell_around(b, c) == 8;
    }
}

/* What group_fits needs of a trial, and nothing more (no valuation asked): each new
 * segment's group (segments reaching one existing feature are one group, as in
 * analyze), its kind, and whether it would hold a figure (nfig 0 or 1). */
static void analyze_occupancy(const cc_board *b, const variant_t *v, const cellinfo_t *c, trial_t *t) {
    int32_t root[MAX_LINKS];
    int8_t seg[MAX_LINKS], par[CC_MAX_SEGS], busy[CC_MAX_SEGS] = {0};
    int nseg = v->def.nseg, npairs = links(v, c, seg, root, NULL);
    memcpy(par, SINGLETONS, sizeof par);
    int merged = 0;
    for (int i = 0; i < npairs; i++) {
        busy[seg[i]] |= b->segs[root[i]].nfig > 0;
        for (int j = 0; j < i; j++)
            if (root[j] == root[i] && seg[j] != seg[i] && v->def.seg_kind[seg[j]] == v->def.seg_kind[seg[i]]) {
                par[lfind(par, seg[i])] = (int8_t)lfind(par, seg[j]);
                merged = 1;
            }
    }
    /* without a merge (nearly every trial) each segment is its own group */
    for (int s = 0; merged && s < nseg; s++) busy[lfind(par, s)] |= busy[s];
    for (int s = 0; s < nseg; s++) {  /* group id: the representative segment */
        int g = merged ? lfind(par, s) : s;
        t->group_of[s] = (int8_t)g;
        t->kind[g] = v->def.seg_kind[g];
        t->nfig[g] = busy[g];
    }
}

enum { MEMO_SEGS = 2048, MEMO_POOL = 4096, FIELD_CITIES = 256 };

/* What a cc_turn_options call learns of the existing features (the board does not
 * change during it), per root: memo NULL on boards too big for the stack scratch. */
typedef struct {
    /* the cities a field borders: off into pool (-1 not yet), len of them, done the
     * completed ones (all a lone field's valuation needs) */
    int16_t off[MEMO_SEGS], len[MEMO_SEGS], done[MEMO_SEGS];
    /* root_value and its majority holders (bit per player), once valued[r] */
    uint8_t valued[MEMO_SEGS], holders[MEMO_SEGS];
    double value[MEMO_SEGS];
    int32_t pool[MEMO_POOL];
    int32_t pool_n;
} memo_t;

typedef struct {
    const cc_board *b;
    const cc_greedy_params *p;
    int32_t *stamp;        /* a mark per tile, cleared by the call's first walk (group_tiles) */
    int32_t stampv;
    memo_t *memo;
    int farm_points;       /* the board's (R-BASE-8), read once per call */
} evalctx_t;

/* Distinct city roots an existing field root borders, in the order first met; *done
 * the completed ones among them. */
static int field_city_list(evalctx_t *c, int32_t r, int32_t *scratch, const int32_t **out, int *done) {
    memo_t *m = c->memo;
    if (m && m->off[r] >= 0) {
        *out = &m->pool[m->off[r]];
        *done = m->done[r];
        return m->len[r];
    }
    const cc_board *b = c->b;
    field_lists_t *fl = b->fields;
    field_list_t *e = &fl->list[r];
    int n = 0, complete = 0;
    const int32_t *list = scratch;
    if (e->nsegs == b->segs[r].nsegs) {  /* listed on an earlier turn: does it hold? */
        const int32_t *p = &fl->pool[e->off];
        for (; n < e->len && b->segs[p[n]].parent == p[n]; n++) complete += b->segs[p[n]].open == 0;
        if (n == e->len) list = p;
        else n = complete = 0;
    }
    if (list == scratch) {
        int s = r;
        do {
            const seg_t *sg = &b->segs[s];
            const placed_t *pl = &b->tiles[sg->tile];
            unsigned cities = variant(b, pl->type, pl->rot)->def.seg_cities[sg->local];
            for (; cities; cities &= cities - 1) {  /* the city bits, lowest first */
                int ci = __builtin_ctz(cities);
                int32_t cr = find_const(b, sg->tile * CC_MAX_SEGS + ci);
                if (!root_in(scratch, n, cr) && n < FIELD_CITIES) {
                    scratch[n++] = cr;
                    complete += b->segs[cr].open == 0;
                }
            }
            s = sg->next;
        } while (s != r);
        if (fl->n + n > fl->cap) {  /* full: every list forgotten */
            for (int k = 0; k < b->ntiles * CC_MAX_SEGS; k++) fl->list[k].nsegs = 0;
            fl->n = 0;
        }
        if (n <= fl->cap) {
            memcpy(&fl->pool[fl->n], scratch, (size_t)n * sizeof *scratch);
            *e = (field_list_t){b->segs[r].nsegs, fl->n, n};
            fl->n += n;
        }
    }
    *out = list;
    *done = complete;
    if (m && m->pool_n + n <= MEMO_POOL) {
        memcpy(&m->pool[m->pool_n], list, (size_t)n * sizeof *list);
        m->off[r] = (int16_t)m->pool_n;
        m->len[r] = (int16_t)n;
        m->done[r] = (int16_t)complete;
        *out = &m->pool[m->pool_n];
        m->pool_n += n;
    }
    return n;
}

/* Distinct tiles of the feature formed by the new tile and `roots`. */
static int group_tiles(evalctx_t *c, const int32_t *roots, int n) {
    /* one feature: its own count (the new tile is none of its tiles); two or more may
     * share tiles, so they are walked */
    if (n <= 1) return n ? 1 + c->b->segs[roots[0]].ntiles : 1;  /* (none: the new tile alone) */
    int tiles = 1;
    if (c->stampv++ == 0)  /* the first walk of the call: the marks cleared (many calls make none) */
        memset(c->stamp, 0, ((size_t)c->b->ntiles + 1) * sizeof *c->stamp);
    for (int i = 0; i < n; i++) {
        int s = roots[i];
        do {
            int tile = c->b->segs[s].tile;
            if (c->stamp[tile] != c->stampv) { c->stamp[tile] = c->stampv; tiles++; }
            s = c->b->segs[s].next;
        } while (s != roots[i]);
    }
    return tiles;
}

/* The new tile's own field segments of group g: the distinct cities they border, as
 * group ids (-1 - group), added to ids; returns the completed ones added. */
static int own_field_cities(const trial_t *t, const variant_t *v, int g, int32_t *ids, int *nids) {
    int done = 0;
    for (unsigned segs = t->segs_of[g]; segs; segs &= segs - 1) {  /* a group is of one kind */
        int l = __builtin_ctz(segs);
        for (unsigned cities = v->def.seg_cities[l]; cities; cities &= cities - 1) {
            int ci = __builtin_ctz(cities);
            int32_t id = -1 - t->group_of[ci];
            if (root_in(ids, *nids, id) || *nids >= FIELD_CITIES) continue;
            ids[(*nids)++] = id;
            done += t->complete[t->group_of[ci]];
        }
    }
    return done;
}

/* own_field_cities with nothing listed before (ids empty): the distinct cities of the new
 * tile that group g's field segments border, as a bit per group, and the completed
 * ones among them. */
static int own_cities_done(const trial_t *t, const variant_t *v, int g) {
    unsigned seen = 0;
    int done = 0;
    for (unsigned segs = t->segs_of[g]; segs; segs &= segs - 1)
        for (unsigned cities = v->def.seg_cities[__builtin_ctz(segs)]; cities; cities &= cities - 1) {
            int cg = t->group_of[__builtin_ctz(cities)];
            if (seen >> cg & 1) continue;
            seen |= 1u << cg;
            done += t->complete[cg];
        }
    return done;
}

/* Completed cities bordering a field: the field's existing roots plus the new tile's
 * field segments of group g; cities the new tile joins count once, as after placement. */
static int field_completed_cities(evalctx_t *c, const trial_t *t, const variant_t *v, int g,
                                  const int32_t *roots, int nroots) {
    const cc_board *b = c->b;
    int32_t ids[FIELD_CITIES];  /* a valuation: cities past this many are not seen */
    int nids = 0, done = 0, listed;
    int32_t scratch[FIELD_CITIES];
    const int32_t *list;
    int njoined = t ? t->njoined : 0;
    /* one existing field and no existing city joined (most trials): its cities are
     * distinct, none becomes the new tile's, and the new tile's own cities (group ids,
     * negative) are none of them, so the remembered count stands; the same sum as the
     * walk below while no cap is reached */
    if (nroots == 1 && njoined == 0) {
        int nlist = field_city_list(c, roots[0], scratch, &list, &listed);
        if (!t || g < 0) return listed;
        if (nlist + CC_MAX_SEGS <= FIELD_CITIES) return listed + own_field_cities(t, v, g, ids, &nids);
    }
    const int32_t *joined = t ? t->joined : NULL;
    const int8_t *joined_group = t ? t->joined_group : NULL;
    for (int i = 0; i < nroots; i++) {
        int nlist = field_city_list(c, roots[i], scratch, &list, &listed);
        for (int k = 0; k < nlist; k++) {
            int32_t cr = list[k], id = cr;
            int complete = b->segs[cr].open == 0;
            for (int j = 0; j < njoined; j++)  /* a city the new tile joins counts as joined */
                if (joined[j] == cr) {
                    id = -1 - joined_group[j];
                    complete = t->complete[joined_group[j]];
                    break;
                }
            if (root_in(ids, nids, id) || nids >= FIELD_CITIES) continue;
            ids[nids++] = id;
            done += complete;
        }
    }
    if (t && g >= 0) done += own_field_cities(t, v, g, ids, &nids);
    return done;
}

/* Value of a feature for player q: points now if complete, else the weighted
 * final-scoring value; 0 unless q holds the majority. */
static inline double weighted_value(const cc_greedy_params *p, int kind, int tiles, int coats, int complete,
                            int completed_cities, int farm_points) {
    /* a centre feature: tiles = monastery_tiles(), 9 when complete without town halls;
     * a garden weighed as a monastery (R-ABB-4: scored like one) */
    if (complete && kind != CC_FIELD) return feature_points(kind, tiles, coats, 0, 0, farm_points);
    int w = kind == CC_GARDEN ? CC_MONASTERY : kind;
    return p->open_weight[w] * feature_points(kind, tiles, coats, completed_cities, 1, farm_points);
}

double greedy_worth(const cc_greedy_params *p, int kind, int tiles, int coats, int complete,
                    int completed_cities, int farm_points) {
    return weighted_value(p, kind, tiles, coats, complete, completed_cities, farm_points);
}

/* Value of an existing feature to whoever holds its majority. */
static double root_value(evalctx_t *c, int32_t r) {
    const seg_t *s = &c->b->segs[r];
    int tiles = s->ntiles, cities = 0;
    if (is_centre(s->kind)) {
        const placed_t *pl = &c->b->tiles[s->tile];
        tiles = monastery_tiles(c->b, pl->x, pl->y);
    }
    if (s->kind == CC_FIELD) cities = field_completed_cities(c, NULL, NULL, -1, &r, 1);
    return weighted_value(c->p, s->kind, tiles, s->coats, s->open == 0 && s->kind != CC_FIELD, cities,
                          c->farm_points);
}

enum { MAX_RULES = 8 };

/* Gains of every player from group g: `without` any new figure, and `with[r]` when the
 * deciding player adds the figure of rules[r] there, for the rules in `fits` (the only
 * ones written, and the only ones read). Returns 0 if no figure is there: then
 * `without` would be all 0.0 and no `with[r]` is written, but *alone: what the group is
 * worth to the deciding player alone on it (with[r] would be that for a scoring figure
 * and 0.0 for another, in the deciding player's slot, and 0.0 in the others'). */
static ALWAYS_INLINE int group_gains(evalctx_t *c, const trial_t *t, const variant_t *v, cellinfo_t *cell,
                                     int g, const cc_figure_rule *rules, unsigned fits, double *without,
                                     double (*with)[CC_MAX_PLAYERS], double *alone, int np) {
    const cc_greedy_params *p = c->p;
    int me = p->player, any = 0;
    if (t->nroots[g]) {  /* a group joining no feature holds no figure (analyze) */
        /* every slot in two loads (the slots past the players hold no figure) */
        uint64_t lo;
        uint32_t hi;
        _Static_assert(sizeof t->figs[g].count == sizeof lo + sizeof hi, "six figure counts");
        memcpy(&lo, t->figs[g].count, sizeof lo);
        memcpy(&hi, (const char *)t->figs[g].count + sizeof lo, sizeof hi);
        any = (lo | hi) != 0;
    }
    if (!any && !fits) return 0;
    double before[CC_MAX_PLAYERS] = {0};
    for (int i = 0; any && i < t->nroots[g]; i++) {
        int32_t r = t->roots[g][i];
        const seg_t *rs = &c->b->segs[r];
        if (!rs->nfig) continue;
        double value;
        unsigned holders;
        memo_t *m = c->memo;
        if (m && m->valued[r]) {  /* valued for an earlier trial of this call */
            value = m->value[r];
            holders = m->holders[r];
        } else {
            value = root_value(c, r);
            holders = 0;
            for (int q = 0; q < np; q++)
                if (holds_majority(rs->count, rs->strength, np, q)) holders |= 1u << q;
            if (m) {
                m->valued[r] = 1;
                m->value[r] = value;
                m->holders[r] = (uint8_t)holders;
            }
        }
        for (int q = 0; q < np; q++)
            if (holders >> q & 1) before[q] += value;
    }
    int tiles = 0, cities = 0;
    if (is_centre(t->kind[g])) tiles = cell_tiles(c->b, cell);
    else if (t->kind[g] == CC_FIELD) {
        const memo_t *m = c->memo;
        int32_t r0 = t->nroots[g] == 1 ? t->roots[g][0] : -1;
        /* field_completed_cities' first cases, without its call: a field joining none, or
         * one (its count remembered this call) and no existing city */
        if (t->nroots[g] == 0) cities = own_cities_done(t, v, g);
        else if (r0 >= 0 && t->njoined == 0 && m && m->off[r0] >= 0 && m->len[r0] + CC_MAX_SEGS <= FIELD_CITIES)
            cities = m->done[r0] + own_cities_done(t, v, g);
        else cities = field_completed_cities(c, t, v, g, t->roots[g], t->nroots[g]);
    }
    else tiles = group_tiles(c, t->roots[g], t->nroots[g]);
    double after = weighted_value(p, t->kind[g], tiles, t->coats[g], t->complete[g], cities, c->farm_points);
    if (!any) {
        /* nobody's figure there (so none scores in a root: `before` is all 0): without
         * stays 0, and a figure makes the deciding player the only holder, if it scores
         * (what holds_majority says; x - 0.0 is x) */
        *alone = after;
        return 0;
    }
    /* R-BASE-7 as holds_majority says it: a player present holds the majority when no
     * one present is stronger, so when its strength is the greatest of those present */
    const uint16_t *count = t->figs[g].count, *strength = t->figs[g].strength;
    int others = 0;  /* the greatest strength present but the deciding player's */
    for (int q = 0; q < np; q++)
        if (q != me && count[q] && strength[q] > others) others = strength[q];
    int top = count[me] && strength[me] > others ? strength[me] : others;
    for (int q = 0; q < np; q++)
        without[q] = (count[q] && strength[q] >= top ? after : 0.0) - before[q];
    for (unsigned m = fits; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        /* the deciding player with the figure of rules[r] added */
        uint16_t my_count = (uint16_t)(count[me] + rules[r].scores);
        int my_strength = (uint16_t)(strength[me] + rules[r].strength);
        int top_r = my_count && my_strength > others ? my_strength : others;
        for (int q = 0; q < np; q++) {
            int holds = q == me ? my_count && my_strength >= top_r : count[q] && strength[q] >= top_r;
            with[r][q] = (holds ? after : 0.0) - before[q];
        }
    }
    return 1;
}

/* The opponents' mean gain (np: p->nplayers). */
static ALWAYS_INLINE double opponents(const cc_greedy_params *p, const double *gain, int np) {
    /* two players: the other's gain, the same double as the sum below (0.0 + x is x for a
     * gain, which is never -0.0, and x / 1 is x) without its loop and division */
    if (np == 2) return gain[1 - p->player];
    double opp = 0.0;
    for (int q = 0; q < np; q++)
        if (q != p->player) opp += gain[q];
    if (np > 1) opp /= np - 1;
    return opp;
}

/* A row's value: the deciding player's gain `mine`, the opponents' mean gain `opp`. */
static double combine(const cc_greedy_params *p, double mine, double opp, int supply_change) {
    return mine - p->opponent_weight * opp + p->follower_value * supply_change;
}

/* The monasteries holding figures around a cell and what a tile there would give
 * their majority holders (a tile more, perhaps completing them): the same for every
 * rotation of the tile, so worked out once per cell. */
typedef struct {
    int nomon;              /* the tile's no_value they were worked out for */
    int n;
    uint8_t holders[8];     /* bit per player holding the majority */
    double delta[8];        /* value after - value before, for each holder */
    int returned[8];        /* the deciding player's figures back if it completes */
} monasteries_t;

/* Where the monasteries holding figures are (a tile twice if it holds two), so that
 * a cell next to none of them skips the look around. */
typedef struct {
    int n, overflow;
    int32_t x[16], y[16];
} held_t;

static void held_monasteries(const cc_board *b, held_t *h) {
    for (int f = 0; f < b->nfig_slots; f++) {
        int seg = b->figs[f].seg;
        if (seg < 0 || !is_centre(b->segs[seg].kind)) continue;
        const placed_t *p = &b->tiles[b->segs[seg].tile];
        if (h->n == 16) { h->overflow = 1; return; }
        h->x[h->n] = p->x;
        h->y[h->n++] = p->y;
    }
}

static int near_monastery(const held_t *h, int x, int y) {
    if (h->overflow) return 1;
    for (int i = 0; i < h->n; i++)
        if (abs(h->x[i] - x) <= 1 && abs(h->y[i] - y) <= 1) return 1;
    return 0;
}

static void monasteries_around(const cc_board *b, const cc_greedy_params *p, int x, int y,
                               int no_value, int near, monasteries_t *m) {
    m->nomon = no_value;
    m->n = 0;
    if (!near) return;
    /* (x, y) is a frontier cell: its 8 around are in the grid; met by y, then x */
    int here = cell_in(b, x, y), d = b->dim;
    const int off[8] = {-d - 1, -d, -d + 1, -1, 1, d - 1, d, d + 1};
    for (int i = 0; i < 8; i++) {
        int ti = b->grid[here + off[i]];
        if (ti < 0) continue;
        const placed_t *pl = &b->tiles[ti];
        int mon = variant(b, pl->type, pl->rot)->centre;
        if (mon < 0) continue;
        const seg_t *ms = &b->segs[find_const(b, ti * CC_MAX_SEGS + mon)];
        if (!ms->nfig) continue;
        int around = around_count(b, cell_in(b, pl->x, pl->y));
        int worth = monastery_tiles(b, pl->x, pl->y), after_worth = worth + !no_value;
        double before = weighted_value(p, ms->kind, worth, 0, 0, 0, 0);  /* no field: */
        double after = weighted_value(p, ms->kind, after_worth, 0, around + 1 == 8, 0, 0);  /* 0 cities */
        int k = m->n++, holders = 0;
        for (int q = 0; q < p->nplayers; q++)
            if (holds_majority(ms->count, ms->strength, p->nplayers, q)) holders |= 1 << q;
        m->holders[k] = (uint8_t)holders;
        m->delta[k] = after - before;
        m->returned[k] = around + 1 == 8 ? ms->count[p->player] : 0;
    }
}

/* cc_turn_options for arguments it has checked, np = params->nplayers (with params):
 * inlined into a copy per player count, where np is a constant and the loops over the
 * players are unrolled (the same sums in the same order: the same doubles). Each copy
 * has its own branch counts in the profile-guided build: sim/games/training.py plays
 * greedy seats at every table size. */
static ALWAYS_INLINE int turn_options(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                                      const cc_greedy_params *params, int32_t *rows, double *values, int cap,
                                      int np) {
    /* scratch on the stack for usual boards, so a turn allocates nothing */
    int32_t stamp_local[1024];
    int32_t *stamp = !params ? NULL : b->ntiles < 1024 ? stamp_local
                                    : malloc(((size_t)b->ntiles + 1) * sizeof *stamp);
    if (params && !stamp) return CC_ERR_NOMEM;
    memo_t memo;  /* only the slots of placed tiles are made valid */
    int memo_ok = params && b->ntiles * CC_MAX_SEGS <= MEMO_SEGS;
    if (memo_ok) {
        size_t slots = (size_t)b->ntiles * CC_MAX_SEGS;
        memset(memo.off, -1, slots * sizeof *memo.off);
        memset(memo.valued, 0, slots * sizeof *memo.valued);
        memo.pool_n = 0;
    }
    evalctx_t ctx = {b, params, stamp, 0, memo_ok ? &memo : NULL, b->farm_points};
    int rc = 0;
    int32_t *row = rows, *const end = rows + cap;  /* the next row */
    double *value = values;                          /* and its value (with a valuation) */
    cellinfo_t ci = {.f = NULL};
    monasteries_t mons = {.nomon = -1};
    held_t held = {0};
    if (params) held_monasteries(b, &held);
    rule_masks_t masks;
    rule_masks(rules, nrules, masks);
    /* the legal placements as cc_legal_placements lists them, read off the frontier
     * as they are tried (no list of them is made) */
    front_iter_t it;
    front_begin(b, type, &it);
    int x = 0, y = 0;
    unsigned rots = 0;  /* the rotations of cell (x, y) still to try */
    while (rc == 0) {
        if (!rots) {
            if (!front_next(&it, &x, &y, &rots)) break;
            /* (a seat with no figure to place and no valuation asked needs no analysis) */
            if (params || nrules) cell_info(b, it.at, x, y, &ci);
            /* the monasteries around, once per cell (for the tile's no_value, the same in
             * every rotation; asked again below should a rotation's differ) */
            if (params) {
                int nv = variant(b, type, __builtin_ctz(rots))->def.no_value;
                monasteries_around(b, params, x, y, nv, near_monastery(&held, x, y), &mons);
            }
        }
        int r = __builtin_ctz(rots);
        rots &= rots - 1;
        const variant_t *v = variant(b, type, r);
        trial_t t;
        if (params) analyze(b, v, &ci, masks, &t);
        else if (nrules) analyze_occupancy(b, v, &ci, &t);  /* no valuation: group_fits only */
        double gain[CC_MAX_PLAYERS], base = 0.0, opp = 0.0;  /* (gain: with a valuation) */
        double without[CC_MAX_SEGS][CC_MAX_PLAYERS], with[CC_MAX_SEGS][MAX_RULES][CC_MAX_PLAYERS];
        int returned = 0, me = params ? params->player : 0;
        uint8_t holds[CC_MAX_SEGS];  /* group_gains' answer: a figure is there */
        double alone[CC_MAX_SEGS];     /* group_gains' *alone, where no figure is there */
        if (params) {
            for (int q = 0; q < CC_MAX_PLAYERS; q++) gain[q] = 0.0;
            for (int g = 0; g < t.ngroups; g++) {
                /* adding 0.0 changes no sum (a gain is never -0.0: it starts at +0.0) */
                holds[g] = (uint8_t)group_gains(&ctx, &t, v, &ci, g, rules, t.fits[g], without[g], with[g],
                                               &alone[g], np);
                if (holds[g])
                    for (int q = 0; q < np; q++) gain[q] += without[g][q];
                /* the deciding player's figures on the features it completes come back:
                 * its count in the group's tallies (the sum over its roots; unset without one) */
                if (t.complete[g] && t.kind[g] != CC_FIELD && t.nroots[g]) returned += t.figs[g].count[me];
            }
            /* monasteries around gain a neighbour, and may complete: in the order met */
            if (mons.nomon != v->def.no_value)
                monasteries_around(b, params, x, y, v->def.no_value, near_monastery(&held, x, y), &mons);
            for (int k = 0; k < mons.n; k++) {
                for (int q = 0; q < np; q++)
                    if (mons.holders[k] >> q & 1) gain[q] += mons.delta[k];
                returned += mons.returned[k];
            }
            opp = opponents(params, gain, np);
            base = combine(params, gain[me], opp, returned);
        }
        /* room for as many rows as the placement may give (a row per rule on each
         * segment), so none is checked: a caller short of it grows rows and asks again */
        if (end - row < 5 * (1 + v->def.nseg * nrules)) { rc = CC_ERR_FULL; break; }
        row[0] = x; row[1] = y; row[2] = r; row[3] = -1; row[4] = -1;
        row += 5;
        if (params) *value++ = base;
        /* (no rule: t may be unset, see above) */
        for (int s = 0; nrules && s < v->def.nseg; s++) {
          int g = t.group_of[s];
          for (unsigned fits = params ? t.fits[g] : group_fits(masks, &t, g); fits; fits &= fits - 1) {
            int k = __builtin_ctz(fits);
            row[0] = x; row[1] = y; row[2] = r; row[3] = rules[k].kind; row[4] = s;
            row += 5;
            if (params) {
                /* the follower leaves supply, unless its feature scores at once */
                int back = t.complete[g] && t.kind[g] != CC_FIELD;
                if (holds[g]) {
                    double with_fig[CC_MAX_PLAYERS];
                    for (int q = 0; q < np; q++)
                        with_fig[q] = gain[q] - without[g][q] + with[g][k][q];
                    *value++ = combine(params, with_fig[me], opponents(params, with_fig, np), returned - 1 + back);
                } else {
                    /* nobody's figure there: the opponents' gains are the row's without a
                     * figure (gain - 0.0 + 0.0 is gain, never -0.0), and so their mean */
                    double mine = (uint16_t)rules[k].scores ? alone[g] : 0.0;
                    *value++ = combine(params, gain[me] + mine, opp, returned - 1 + back);
                }
            }
          }
        }
    }
    if (stamp != stamp_local) free(stamp);
    return rc ? rc : (int)(row - rows) / 5;
}

int cc_turn_options(const cc_board *b, int type, const cc_figure_rule *rules, int nrules,
                    const cc_greedy_params *params, int32_t *rows, double *values, int cap) {
    if (!b || !rows || cap < 0 || type < 0 || type >= b->ts->n || nrules < 0 || nrules > MAX_RULES
        || (nrules && !rules))
        return CC_ERR_ARG;
    if (params && (!values || params->nplayers < 1 || params->nplayers > CC_MAX_PLAYERS
                   || params->player < 0 || params->player >= params->nplayers))
        return CC_ERR_ARG;
    _Static_assert(CC_MAX_PLAYERS == 6, "a copy of turn_options per player count, up to CC_MAX_PLAYERS");
    switch (params ? params->nplayers : 0) {
    case 2: return turn_options(b, type, rules, nrules, params, rows, values, cap, 2);
    case 3: return turn_options(b, type, rules, nrules, params, rows, values, cap, 3);
    case 4: return turn_options(b, type, rules, nrules, params, rows, values, cap, 4);
    case 5: return turn_options(b, type, rules, nrules, params, rows, values, cap, 5);
    case 6: return turn_options(b, type, rules, nrules, params, rows, values, cap, 6);
    default: return turn_options(b, type, rules, nrules, params, rows, values, cap,
                                 params ? params->nplayers : 0);
    }
}
