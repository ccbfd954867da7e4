"""What a Python strategy may read: a read-only view of a game (issue 13 item 2).

`view_of(game)` wraps a sim.engine.game.Game (the C game); strategies receive the view,
never the game (`choose(view, decision, rng)`, strategies/__init__.py), so the engine
behind it can change without touching a strategy. A policy may read:

    view.rules, .turn, .seat, .tiles_left, .over
    view.scores, .supply            per seat (tuples)
    view.points                     per seat, points by source (read-only mappings)
    view.board                      the board's queries only (place, figures... raise)
    view.catalogue                  the tile catalogue (Catalogue is a value)
    view.placed_index               board index of the tile placed last
    view.events, .history           what happened so far (tuples; public information)
    view.seed                       the game's seed, for keying a policy's own randomness
    view.determinised(deals, seats) a private C game at this decision on a fresh deal of
                                    the unseen tiles and messages (the search's own deal)
    view.snapshots                  {snapshot name: frozen snapshot}, each expansion in
                                    play that declares one (sim/expansions/ `snapshot`)
    view.<snapshot>                 that expansion's snapshot, None when it is not in
                                    play: view.messages, .courier, .mayors, .river, .abbot

The snapshots are frozen dataclasses, built on each access from the engine's state by
the expansion's own unit (sim/expansions/<name>.py, its declaration's `view`):
    messages  per seat the two scoring figures' positions and moves; the deck's size
              and the message in hand (drawn, not yet resolved)
    courier   where the Courier stands (None: off the board), `near(x, y)`
    mayors    per seat mayor, messenger meeple and scarecrow in supply, town hall in hand
    river     the river's open end (x, y, edge), None once the lake closes it
    abbot     per seat whether the abbot is in supply, else its tile and feature

The decision a strategy gets (`strategy_decision`) holds its choices behind a read-only
sequence and its info as a read-only mapping. Nothing reachable from the view changes
the game: its attributes cannot be set, the board refuses every mutating call, and the
snapshots are frozen values.

What the view reads of the game (sim/engine/game.py Game): rules, turn, seat, tiles_left,
over, scores, supply, points, board, catalogue, events, history, seed, decision,
stream(seat), and through the snapshots' builders each expansion's state as its unit
reads it (Game.msg, Game.mm, Game.courier_at, Game.river_end: sim/expansions/ `state`).
"""

from __future__ import annotations

from types import MappingProxyType

from sim import expansions

# Board methods that only read (sim/engine/board.py Board); anything else is refused
BOARD_QUERIES = frozenset({
    "catalogue", "max_tiles", "legal_placements", "value",
    "has_placement", "turn_options", "misfit", "tile", "tile_at", "variant_at", "tiles", "find",
    "feature", "strength", "field_cities", "feature_segments", "sides", "free_segments",
    "occupied_features", "figure", "figures_on", "figures", "segment_place",
    "ride_targets", "activating_cells",
})


class BoardView:
    """A board's read-only queries (Board.place, add_figure... raise TypeError)."""

    __slots__ = ("_board",)

    def __init__(self, board):
        object.__setattr__(self, "_board", board)

    def __getattr__(self, name):
        if name in BOARD_QUERIES:
            return getattr(self._board, name)
        raise TypeError(f"board.{name}: a strategy's board is read-only (its queries: "
                        f"{', '.join(sorted(BOARD_QUERIES))})")

    def __setattr__(self, name, value):
        raise TypeError("a strategy's board is read-only")

    def __len__(self) -> int:
        return len(self._board)


class Choices:
    """A decision's choices, read-only, in the decision's order, each in the named form
    its decision kind declares (sim/expansions/ DecisionKind.typed: a place decision's
    are Place(x, y, rotation, figure, segment)); each equals its raw tuple, so either
    may be applied."""

    __slots__ = ("_c", "_typed")

    def __init__(self, choices, typed=None):
        object.__setattr__(self, "_c", choices)
        object.__setattr__(self, "_typed", typed)

    def __setattr__(self, name, value):
        raise TypeError("a decision's choices are read-only")

    def __len__(self) -> int:
        return len(self._c)

    def __getitem__(self, i):
        if self._typed is None:
            return self._c[i]
        if isinstance(i, slice):
            return tuple(map(self._typed, self._c[i]))
        return self._typed(self._c[i])

    def __iter__(self):
        return iter(self._c) if self._typed is None else map(self._typed, self._c)

    def __contains__(self, choice) -> bool:
        return choice in self._c

    def index(self, choice) -> int:
        return self._c.index(choice)

    def __eq__(self, other) -> bool:
        return tuple(self) == tuple(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Choices({list(self._c)!r})"


# decision kind -> the named form of its choices (sim/expansions/ DecisionKind.typed)
_TYPED = {d.name: d.typed for e in expansions.PARTS for d in e.decisions if d.typed is not None}


def strategy_decision(decision):
    """The decision as a strategy receives it: choices and info read-only."""
    if isinstance(decision.choices, Choices):
        return decision
    info = decision.info
    return decision._replace(choices=Choices(decision.choices, _TYPED.get(decision.kind)),
                             info=None if info is None else MappingProxyType(info))


# ---------------------------------------------------------------- the view

_snapshot_names: dict[tuple[str, ...], tuple[str, ...]] = {}


def _parts(names: tuple[str, ...]) -> tuple[str, ...]:
    """The snapshots of the expansions `names` (looked up once per expansion list)."""
    if names not in _snapshot_names:
        _snapshot_names[names] = tuple(e.snapshot for e in expansions.in_play(names) if e.snapshot)
    return _snapshot_names[names]


class View:
    """A game seen by a strategy. See the module docstring."""

    __slots__ = ("_game", "_board", "_parts")

    def __init__(self, game):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_board", None)
        object.__setattr__(self, "_parts", _parts(game.rules.expansions))

    def __setattr__(self, name, value):
        raise TypeError(f"view.{name}: a strategy's view of the game is read-only")

    def __reduce__(self):
        raise TypeError("a view is not pickled; pickle the game")

    rules = property(lambda self: self._game.rules)
    turn = property(lambda self: self._game.turn)
    seat = property(lambda self: self._game.seat)
    tiles_left = property(lambda self: self._game.tiles_left)
    over = property(lambda self: self._game.over)
    seed = property(lambda self: self._game.seed)
    catalogue = property(lambda self: self._game.catalogue)
    MAX_SEGS = property(lambda self: self._game.MAX_SEGS)
    scores = property(lambda self: tuple(self._game.scores))
    supply = property(lambda self: tuple(self._game.supply))
    points = property(lambda self: tuple(MappingProxyType(dict(p)) for p in self._game.points))
    events = property(lambda self: tuple(MappingProxyType(e) for e in self._game.events))
    history = property(lambda self: tuple(self._game.history))

    @property
    def decision(self):
        d = self._game.decision
        return None if d is None else strategy_decision(d)

    @property
    def board(self) -> BoardView:
        board = self._game.board
        if self._board is None or self._board._board is not board:  # a Game's board is its own
            object.__setattr__(self, "_board", BoardView(board))
        return self._board

    @property
    def placed_index(self) -> int:
        """Board index of the tile placed last (tiles are indexed in placement order)."""
        return len(self._game.board) - 1

    @property
    def snapshots(self) -> MappingProxyType:
        return MappingProxyType({name: expansions.SNAPSHOTS[name](self._game) for name in self._parts})

    def __getattr__(self, name: str):
        """view.<snapshot>: an expansion's snapshot (view.messages, .courier, ...), built
        by its unit (sim/expansions/ `view`), None when that expansion is not in play."""
        if name not in expansions.SNAPSHOTS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return expansions.SNAPSHOTS[name](self._game) if name in self._parts else None

    def stream(self, seat: int):
        """`seat`'s own random stream (strategies.Player hands it to the seat's policy)."""
        return self._game.stream(seat)

    def determinised(self, deals, seats):
        """A private C game of the caller's at this very decision, on a fresh deal of
        what the deciding seat has not seen, keyed by one draw from `deals` (a Stream),
        with `seats` (per seat a player) paused at every decision kind: its clones play
        on in C once a choice is applied (Game.determinised: the deal the `search`
        policy makes, sim/csrc/search.c). The game behind the view does not change."""
        return self._game.determinised(deals.next_u64(), seats)

    def _built_in_choice(self, policy, decision):
        """`decision` answered by the built-in `policy` as the C game plays it (for
        strategies.BuiltIn only: Game.policy_choice on the game behind the view)."""
        return self._c_game(policy).policy_choice(policy, decision)

    def _built_in_values(self, greedy):
        """greedy's value of each choice of the place decision (Game.policy_values)."""
        return self._c_game(greedy).policy_values(greedy)

    def _c_game(self, policy):
        """The C game behind the view; a built-in policy is played by it alone."""
        game = self._game
        if not callable(getattr(game, "policy_choice", None)):
            raise TypeError(f"{getattr(policy, 'name', policy)!r} is a built-in policy, played by the "
                            f"C game (sim.engine.game.Game): got {type(game).__module__}."
                            f"{type(game).__qualname__}")
        return game


def view_of(game) -> View:
    """The view of `game` (a view is returned as it is)."""
    return game if isinstance(game, View) else View(game)
