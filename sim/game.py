"""The game contract (STYLE.md rule 1): state, decisions, apply, clone, result.

A game is a value built from (rules, seed). It advances by itself until a player must
decide; `decision` then says who decides what, with the legal choices in a fixed order,
and `apply(choice)` takes one of them. Runner, CLI, scripts and strategies use only:

    game.decision        -> Decision | None (None once the game is over)
    game.apply(choice)   -> None; raises IllegalMove for a choice not offered
    game.over, game.result(), game.events, game.clone(), game.stream(seat)

Decisions (base game):
    "place":  one per turn. Choices are (x, y, rotation, figure, segment) rows: every
              legal placement of the drawn tile (R-BASE-3) times every figure option
              on it (R-BASE-4): figure -1 and segment -1 for none, or a figure kind
              (index into FIGURE_KINDS) on a local segment whose feature would be free.
              Sorted by y, x, rotation, then no figure first, then segment order;
              rotations giving an identical tile appear once (the lowest).

Random streams are split by purpose (tiles, each seat's strategy), so swapping a
strategy never changes the tiles drawn; `clone()` copies all of them.
"""

from __future__ import annotations

from typing import NamedTuple

from sim import scoring
from sim.board import MAX_SEGS, Board, Catalogue
from sim.errors import IllegalMove, InputError
from sim.rng import Stream, derive
from sim.rules import Rules
from sim.tiles import Tile, tile_set

FOLLOWER = "follower"
FIGURE_KINDS = (FOLLOWER,)  # index = the kind code stored in the C core
STRENGTH = {FOLLOWER: 1}  # R-BASE-7


class Decision(NamedTuple):
    kind: str  # "place"
    seat: int
    tile: str  # the tile being placed
    choices: tuple


_catalogues: dict[tuple[str, ...], Catalogue] = {}


def catalogue_for(rules: Rules) -> Catalogue:
    """The tile catalogue of a rules' tile sets (built once per process and set list)."""
    key = rules.tile_sets
    if key not in _catalogues:
        _catalogues[key] = Catalogue([t for name in key for t in tile_set(name)])
    return _catalogues[key]


def tile_order(rules: Rules, seed: int) -> tuple[Tile, list[str]]:
    """R-BASE-2: the start tile and the land tiles in draw order for a seeded game."""
    start, ids = land_tiles(rules)
    Stream(derive(seed, "tiles")).shuffle(ids)
    return start, ids


def land_tiles(rules: Rules) -> tuple[Tile, list[str]]:
    """(start tile, the other land tiles as ids with repeats) for R-BASE-2."""
    tiles = [t for name in rules.tile_sets for t in tile_set(name)]
    starts = [t for t in tiles if t.has("start")]
    if len(starts) != 1:
        raise InputError(f"tile sets {', '.join(rules.tile_sets)}: expected exactly one start tile")
    start = starts[0]
    ids = [t.id for t in tiles for _ in range(t.count - (t is start))]
    return start, ids


class Game:
    """One game of Carcassonne. See the module docstring for the contract."""

    def __init__(self, rules: Rules, seed: int, *, stack: list[str] | None = None):
        """Set up (R-BASE-2): start tile at (0, 0) rotation 0, the rest shuffled by the
        game's tile stream. `stack` replaces the shuffled order with fixed tile ids,
        drawn first to last (scripted games); ids are checked against the tile sets.

        Raises InputError for an unknown tile id or more copies than the sets hold.
        """
        self.rules = rules
        self.seed = seed
        self.catalogue = catalogue_for(rules)
        self._seat_streams = [Stream(derive(seed, f"seat{s}")) for s in range(rules.players)]
        if stack is None:
            start, order = tile_order(rules, seed)
        else:
            start, ids = land_tiles(rules)
            order = list(stack)
            _check_stack(order, ids)
        self._fixed_stack = None if stack is None else tuple(stack)
        self._stack = [self.catalogue.index[i] for i in reversed(order)]  # draw from the end
        self.board = Board(self.catalogue, len(order) + 1)
        self.supply = [rules.followers] * rules.players
        self.scores = [0] * rules.players
        self.points = [dict.fromkeys(scoring.SOURCES, 0) for _ in range(rules.players)]
        self.events: list[dict] = []
        self.history: list = []
        self.turn = 0
        self.seat = rules.players - 1  # the first turn goes to seat 0
        self.over = False
        self.decision: Decision | None = None
        self._drawn = ""  # id of the tile drawn this turn
        self._drawn_type = -1
        self._placed = -1  # board index of the tile placed this turn
        self._completed: list[int] = []
        s = self.catalogue.index[start.id]
        self.board.place(s, 0, 0, 0)
        self._emit("start", tile=start.id, at=[0, 0], rot=0)
        self._next_turn()

    # ------------------------------------------------------------ contract

    def stream(self, seat: int) -> Stream:
        """The random stream of the strategy playing `seat` (owned by the game so a
        clone copies it)."""
        return self._seat_streams[seat]

    @property
    def tiles_left(self) -> int:
        """Tiles still in the stack (the drawn tile not included)."""
        return len(self._stack)

    def apply(self, choice) -> None:
        """Take one of `decision.choices`. Raises IllegalMove otherwise."""
        d = self.decision
        if d is None:
            raise IllegalMove("the game is over")
        if choice not in d.choices:
            raise IllegalMove(f"turn {self.turn}: {choice!r} is not a legal {d.kind} choice")
        self.history.append(choice)
        self.decision = None
        self._apply_place(*choice)

    def result(self) -> dict:
        """Scores, points by source, ranks and winners (R-BASE-9)."""
        return scoring.result(self.scores, self.points)

    def clone(self) -> Game:
        """An independent copy: board, supplies, stacks and every random stream."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.board = self.board.clone()
        g._seat_streams = [s.copy() for s in self._seat_streams]
        g._stack = list(self._stack)
        g.supply = list(self.supply)
        g.scores = list(self.scores)
        g.points = [dict(p) for p in self.points]
        g.events = list(self.events)  # events are never mutated once emitted
        g.history = list(self.history)
        g._completed = list(self._completed)
        return g

    def __deepcopy__(self, memo) -> Game:
        return self.clone()

    def __reduce__(self):
        # C memory cannot be pickled: rebuild from (rules, seed) and replay the choices
        return _rebuild, (self.rules, self.seed, self._fixed_stack, tuple(self.history),
                          tuple(s.state for s in self._seat_streams))

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.state_key() == other.state_key()

    def state_key(self) -> tuple:
        """Everything that determines the game's future, as plain values."""
        figures = tuple((f, i) for f, i in self.board.figures())
        return (self.rules, self.seed, tuple(self.board.tiles()), figures, tuple(self._stack),
                tuple(self.supply), tuple(self.scores), self.turn, self.seat, self.over,
                self.decision, tuple(s.state for s in self._seat_streams), len(self.events))

    # ------------------------------------------------------------ turn

    def _emit(self, kind: str, turn: int | None = None, **data) -> None:
        self.events.append({"e": kind, "turn": self.turn if turn is None else turn, **data})

    def _next_turn(self) -> None:
        """Draw for the next seat (R-BASE-3), discarding unplaceable tiles; with the
        stack empty, final scoring (R-BASE-8)."""
        self.seat = (self.seat + 1) % self.rules.players
        while self._stack:
            t = self._stack.pop()
            tile = self.catalogue.types[t].id
            # R-BASE-4: a follower only from supply
            options, _ = self.board.turn_options(t, self.supply[self.seat] > 0)
            if options:
                self.turn += 1
                self._drawn = tile
                self._drawn_type = t
                self._emit("draw", seat=self.seat, tile=tile)
                self.decision = Decision("place", self.seat, tile, tuple(options))
                return
            # R-BASE-3: a tile that fits nowhere leaves the game; draw again
            self._emit("discard", turn=self.turn + 1, seat=self.seat, tile=tile)
        self._final_scoring()

    def _apply_place(self, x: int, y: int, rot: int, figure: int, local: int) -> None:
        self._completed = self.board.place(self._drawn_type, x, y, rot)
        self._placed = len(self.board) - 1
        self._emit("place", seat=self.seat, tile=self._drawn, at=[x, y], rot=rot)
        if figure >= 0:
            kind = FIGURE_KINDS[figure]
            seg = self._placed * MAX_SEGS + local
            self.board.add_figure(self.seat, figure, STRENGTH[kind], seg)
            self.supply[self.seat] -= 1
            _, _, where = self.board.segment_place(seg)
            self._emit("figure", seat=self.seat, figure=kind, at=[x, y], where=where)
        self._end_turn()

    def _end_turn(self) -> None:
        """R-BASE-6: score what this turn completed, then the next seat draws."""
        for root in self._completed:
            self._score(root, final=False)
        self._completed = []
        self._next_turn()

    # ------------------------------------------------------------ scoring

    def _award(self, seat: int, points: int, source: str) -> None:
        if points == 0:
            return  # R-BASE-10: a figure moves only by more than 0 points
        self.scores[seat] += points
        self.points[seat][source] += points
        self._emit("points", seat=seat, points=points, source=source, total=self.scores[seat])

    def _score(self, root: int, final: bool) -> None:
        """Score one feature: majority (R-BASE-7) takes the full value; during play its
        figures then go back to supply."""
        f = self.board.feature(root)
        value = scoring.final_value(self.board, f) if final else scoring.completed_value(f)
        counts, strengths = self.board.strength(root)
        winners = scoring.majority(counts[:self.rules.players], strengths[:self.rules.players])
        x, y, where = self.board.segment_place(root)
        self._emit("score", feature=f.kind, at=[x, y], where=where, tiles=f.tiles, coats=f.coats,
                   complete=f.complete, final=final, points=value, winners=winners)
        for w in winners:
            self._award(w, value, f.kind)
        if not final:
            for fig in self.board.figures_on(root):
                info = self.board.figure(fig)
                self.board.remove_figure(fig)
                self.supply[info.player] += 1

    def _final_scoring(self) -> None:
        """R-BASE-8: every feature still holding figures scores its final value."""
        self.turn += 1
        self._emit("final")
        for root in self.board.occupied_features():
            self._score(root, final=True)
        self.over = True
        self.decision = None
        self._emit("end", scores=list(self.scores), winners=self.result()["winners"])


def _check_stack(order: list[str], available: list[str]) -> None:
    left: dict[str, int] = {}
    for i in available:
        left[i] = left.get(i, 0) + 1
    for n, tid in enumerate(order, 1):
        if tid not in left:
            raise InputError(f"tile {n} of the stack: unknown tile id {tid!r}")
        if left[tid] == 0:
            raise InputError(f"tile {n} of the stack: no copy of {tid!r} is left in the tile sets")
        left[tid] -= 1


def _rebuild(rules, seed, stack, history, seat_states):
    g = Game(rules, seed, stack=None if stack is None else list(stack))
    for choice in history:
        g.apply(choice)
    for s, state in zip(g._seat_streams, seat_states):
        s.state = state
    return g
