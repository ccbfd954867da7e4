/* carcsim C core: what the core's own files share (never cdef'd, so it may include
 * and define freely; the public contract is core.h). */
#ifndef CARCSIM_INTERNAL_H
#define CARCSIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core.h"

/* A function the compiler must inline: where a caller passes a constant (a player count),
 * its copy is specialised for it (options.c). Not under AddressSanitizer, which keeps
 * each inlined copy's locals apart (six turn-options copies: a 370 KB frame). */
#if defined(__SANITIZE_ADDRESS__)
#define ALWAYS_INLINE inline
#elif defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* Neighbour offsets per edge N E S W (y grows to the north). */
static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {1, 0, -1, 0};
/* Half-edge h of a tile touches half-edge HALF_PARTNER[h] of the neighbour. */
static const int HALF_PARTNER[8] = {5, 4, 7, 6, 1, 0, 3, 2};

typedef struct {
    cc_tiledef def;
    int8_t edge_seg[4];  /* local city/road segment on each edge, -1 if none */
    int8_t half_seg[8];  /* local field segment on each half-edge, -1 if none */
    int8_t centre;       /* local centre segment (monastery or garden), -1 if none */
    int8_t nedges[CC_MAX_SEGS];    /* edges a city or road segment is on (0 for others) */
    int8_t road_end[CC_MAX_SEGS];  /* CC_END_* per local segment (R-MM-6) */
    uint16_t of_kind[5];           /* the local segments of each kind, a bit each */
} variant_t;

/* What the four sides of a cell must show, as one base-6 number (N lowest digit):
 * digit 0 where no tile is next to it, else 1 + the neighbour's facing edge type. */
enum { NEED_CODES = 6 * 6 * 6 * 6 };
static const int NEED_PLACE[4] = {1, 6, 36, 216};

struct cc_tileset {
    int n, cap;
    variant_t *v;        /* n * 4 variants */
    uint8_t *fit;        /* n * NEED_CODES: bit r if distinct rotation r fits that need */
};

static inline int edge_matches(int mine, int theirs) {
    return mine == CC_EDGE_ANY || theirs == CC_EDGE_ANY || mine == theirs;
}

typedef struct {
    int32_t parent, next;  /* union-find parent; circular list of the feature's segments */
    int16_t tile;          /* placed tile index, -1 for an unused slot */
    int8_t kind, local;
    /* aggregates, valid at the root only */
    int16_t ntiles, open, nfig;  /* at most 4000 tiles (cc_board_new), 4 edges each */
    int32_t coats, nsegs;        /* up to 12 segments and 108 coats a tile */
    uint16_t count[6], strength[6];  /* at most 192 figures of strength 9: no wrap */
} seg_t;

typedef struct {
    int16_t type, rot, x, y;
} placed_t;

typedef struct {
    int8_t player, kind, strength, scores;
    int32_t seg;           /* -1: free slot */
} figure_t;

/* The distinct cities a field borders, in the order a walk of it meets them (greedy's
 * valuation, options.c), remembered from turn to turn: a field root's list holds while
 * the field has `nsegs` segments (it grows only by a union, which also changes its
 * list) and every city listed is still a root (a city absorbed into another changes
 * whose root a segment finds; one that absorbed others is still met as itself). */
typedef struct {
    int32_t nsegs;         /* the field's segments when listed; 0: nothing listed */
    int32_t off, len;      /* its cities: pool[off .. off + len) */
} field_list_t;

typedef struct {
    int32_t n, cap;        /* pool ints used, and its room: when full, all is forgotten */
    field_list_t *list;    /* per segment slot (read at field roots) */
    int32_t *pool;
} field_lists_t;

/* What a frontier cell's placed neighbours show it, written when a tile is placed next
 * to the cell, so that the trials of a turn (options.c) read it instead of looking
 * around every cell each turn. Segments by tile and local index, not roots: a union
 * changes roots, never these. */
typedef struct {
    uint8_t sides;           /* bit e: a tile on side e */
    uint8_t halves;          /* bit h: that tile has a field on half-edge h's partner */
    int8_t their_edge[4];    /* the edge type it shows this cell */
    int8_t theirs[4];        /* its city or road segment on that edge, -1 if none */
    int8_t ft[8];            /* its field segment on half-edge h's partner */
    int16_t tile[4];         /* the tile on side e (its segments' slots: tile * 12 + local) */
} front_cell_t;

struct cc_board {
    const cc_tileset *ts;
    int max_tiles, ntiles, dim, origin, nfront;
    int farm_points;       /* R-BASE-8: a field's points per completed city (the config's) */
    int16_t *grid;         /* dim*dim placed indices, -1 empty */
    uint16_t *need;        /* dim*dim: what its sides must show (NEED_CODES) */
    uint8_t *in_front;     /* dim*dim: 1 if the cell is on the frontier */
    int32_t *front;        /* frontier cells (empty cells next to a tile), ascending */
    /* what each frontier cell's neighbours show it: front[i]'s is front_cells[front_slot[i]]
     * (a cell keeps its slot while in the frontier, so an insert moves 2 bytes a cell);
     * slots 0..nslots-1 are taken, but for the nfree in free_slots */
    front_cell_t *front_cells;
    int16_t *front_slot, *free_slots;  /* 4 * max_tiles + 4 <= 16004 slots */
    int nslots, nfree;
    placed_t *tiles;
    seg_t *segs;           /* max_tiles * CC_MAX_SEGS */
    figure_t figs[CC_MAX_FIGURES];
    /* 1 + the highest figure slot in use (0: none), so that a scan of the figures stops
     * there: slots are taken lowest first and a game holds a few dozen at most */
    int32_t nfig_slots;
    /* what the valuation remembers of the fields (options.c): not the board's state, so
     * written through a const board; a loaded board starts with nothing listed */
    field_lists_t *fields;
};

static inline const variant_t *variant(const cc_board *b, int type, int rot) {
    return &b->ts->v[type * 4 + rot];
}

/* Cell index of (x, y), or -1 outside the grid. */
static inline int cell(const cc_board *b, int x, int y) {
    int gx = x + b->origin, gy = y + b->origin;
    if (gx < 0 || gy < 0 || gx >= b->dim || gy >= b->dim) return -1;
    return gy * b->dim + gx;
}

static inline int seg_valid(const cc_board *b, int seg) {
    return seg >= 0 && seg < b->ntiles * CC_MAX_SEGS && b->segs[seg].tile >= 0;
}

/* The root of segment s: its parent, since every segment's parent is its feature's root
 * (a new segment is its own; a union points every segment of the smaller feature at the
 * other's root, unite in board.c; a loaded board's are made so, board_flatten). */
static inline int find_const(const cc_board *b, int s) {
    return b->segs[s].parent;
}

/* R-BASE-7: is q among the greatest strengths of those present? */
static inline int holds_majority(const uint16_t *count, const uint16_t *strength, int np, int q) {
    if (!count[q]) return 0;
    for (int o = 0; o < np; o++)
        if (count[o] && strength[o] > strength[q]) return 0;
    return 1;
}

/* A centre feature: in the tile centre, complete when its tile and the 8 around hold
 * tiles, worth its tile and the tiles around (R-BASE-5/6/8; a garden, R-ABB-2/4). */
static inline int is_centre(int kind) { return kind == CC_MONASTERY || kind == CC_GARDEN; }

/* The frontier's cells where a tile of a type fits, in the frontier's order (by y, then
 * x: the order of every placement list), each with its fitting distinct rotations as
 * bits: the one scan behind cc_legal_placements and cc_turn_options. The cells are
 * looked up a chunk at a time and those where the tile fits gathered without a branch
 * per cell (which fit is as good as random: a branch on it is mispredicted often). */
enum { FRONT_CHUNK = 32 };
typedef struct {
    const int32_t *cells;
    const uint16_t *need;
    const uint8_t *fit;
    int i, n, dim, origin;
    int k, nk;                  /* the chunk's fitting cells: the next is k of nk */
    int at;                     /* the frontier index of the cell front_next gave last */
    int32_t cand[FRONT_CHUNK];  /* frontier indices */
    uint8_t cand_fits[FRONT_CHUNK];
} front_iter_t;

static inline void front_begin(const cc_board *b, int type, front_iter_t *it) {
    it->cells = b->front;
    it->need = b->need;
    it->fit = &b->ts->fit[(size_t)type * NEED_CODES];
    it->i = it->k = it->nk = 0;
    it->n = b->ntiles >= b->max_tiles ? 0 : b->nfront;  /* a full board takes no tile */
    it->dim = b->dim;
    it->origin = b->origin;
}

/* The next cell with a fitting rotation: 1 and its x, y and rotation bits, or 0 at the
 * end. */
static inline int front_next(front_iter_t *it, int *x, int *y, unsigned *fits) {
    for (;;) {
        while (it->k < it->nk) {
            int i = it->cand[it->k], c = it->cells[i], dim = it->dim, gx = c % dim, gy = c / dim;
            unsigned f = it->cand_fits[it->k++];
            if (gx < 1 || gy < 1 || gx >= dim - 1 || gy >= dim - 1)
                continue;  /* the outermost ring stays empty (see cc_misfit) */
            it->at = i;
            *x = gx - it->origin;
            *y = gy - it->origin;
            *fits = f;
            return 1;
        }
        if (it->i >= it->n) return 0;
        int end = it->n - it->i > FRONT_CHUNK ? it->i + FRONT_CHUNK : it->n, k = 0;
        for (int i = it->i; i < end; i++) {
            int c = it->cells[i];
            unsigned f = it->fit[it->need[c]];
            it->cand[k] = i;
            it->cand_fits[k] = (uint8_t)f;
            k += f != 0;
        }
        it->i = end;
        it->k = 0;
        it->nk = k;
    }
}

/* Tiles among the 8 cells around grid cell c, counted by offset: c must not be on the
 * grid's outermost ring, which holds for a placed tile's cell (cc_misfit, and a loaded
 * board is checked for it) and for a frontier cell (front_next). */
static inline int around_count(const cc_board *b, int c) {
    const int16_t *g = b->grid;
    int d = b->dim;
    return (g[c - d - 1] >= 0) + (g[c - d] >= 0) + (g[c - d + 1] >= 0) + (g[c - 1] >= 0)
         + (g[c + 1] >= 0) + (g[c + d - 1] >= 0) + (g[c + d] >= 0) + (g[c + d + 1] >= 0);
}

/* The grid cell of (x, y) known to be inside the grid (as around_count's). */
static inline int cell_in(const cc_board *b, int x, int y) {
    return (y + b->origin) * b->dim + x + b->origin;
}

/* Every used segment's parent made its root (a loaded board's paths may be longer). */
void board_flatten(cc_board *b);

/* A slot and its front_cells entry for each frontier cell, worked out from the grid (a
 * loaded board's, save.c; play keeps them as it places tiles, cc_place). */
void board_front_cells(cc_board *b);

/* A board back to empty, as cc_board_new made it (its size, tile set and farm_points
 * kept), in time of its tiles rather than of its grid: so a batch's games share one
 * board instead of clearing a new grid each (cc_game_batch). */
void board_reset(cc_board *b);
/* b->fields for a board of b->max_tiles tiles, nothing listed for its b->ntiles tiles'
 * segments (a slot placed later is cleared by cc_place); CC_ERR_NOMEM or CC_OK. */
int board_new_fields(cc_board *b);

/* R-MM-10: a centre feature's worth in tiles, town halls not counted (board.c). */
int monastery_tiles(const cc_board *b, int x, int y);

/* What a feature of `kind` with these aggregates is worth, completed during play or
 * (final) in final scoring (R-BASE-6..8): the one formula behind feature_value (a
 * feature on the board) and the greedy valuation (a feature as a trial placement would
 * make it; options.c). A centre feature's `tiles` is monastery_tiles(); a field is
 * worth farm_points per completed city (the board's, R-BASE-8). */
int feature_points(int kind, int tiles, int coats, int completed_cities, int final, int farm_points);

/* greedy's worth of a feature to its holder (options.c): its points if complete, else
 * its kind's open weight times its final-scoring value (a garden weighed as a
 * monastery). */
double greedy_worth(const cc_greedy_params *p, int kind, int tiles, int coats, int complete,
                    int completed_cities, int farm_points);

/* SplitMix64, identical to sim/engine/rng.py Stream. */
static inline uint64_t splitmix_next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Stream.below(n): uniform on 0..n-1, n > 0. */
static inline int splitmix_below(uint64_t *state, int n) {
    return (int)(((unsigned __int128)splitmix_next(state) * (unsigned)n) >> 64);
}


#endif
