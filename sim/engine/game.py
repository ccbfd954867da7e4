"""The game contract (STYLE.md rule 1): a game is a C state machine owned from Python.

A game is a value built from (rules, seed). It advances by itself (in C, sim/csrc)
until a player must decide; `decision` then says who decides what, with the legal
choices in a fixed order, and `apply(choice)` takes one of them (one C call).
Runner, CLI and scripts use only (strategies get the game's read-only view instead,
sim/engine/view.py):

    game.decision        -> Decision | None (None once the game is over)
    game.apply(choice)   -> None; raises IllegalMove for a choice not offered
    game.over, game.result(), game.events, game.history, game.clone(), game.stream(seat)
    game.turn, .seat, .tiles_left, .scores, .points, .supply, .reseed(key),
    game.replayed(turn)  the game as it stood at the end of `turn` (render)

`clone()` is a C copy of the whole state; pickling goes through a C save and load of
the state, not a replay. The C handle is freed with the object (ffi.gc).

Decisions:
    "place"           one per tile placed. Choices are (x, y, rotation, figure, segment)
                      rows: every legal placement of the drawn tile (R-BASE-3) times
                      every figure option on it (R-BASE-4): figure -1 and segment -1 for
                      none, or a figure kind (index into FIGURE_KINDS) on a local segment
                      whose feature would be free. Sorted by y, x, rotation, then no
                      figure first, then segment order; rotations giving an identical
                      tile appear once (the lowest).
    "figure"          Messengers & Mayors, step 2 after step-1 activations (RULES.md 6):
                      a placement that surrounds a mayor's or standing scarecrow's tile
                      is offered without a figure (its rows carry -1, -1); once the
                      favours and scarecrows are resolved the active seat chooses
                      (figure, segment) on the tile just placed: (-1, -1) for none first,
                      then by segment and figure kind as in "place". Not asked when none
                      is the only choice.
    "town_hall", "favour", "scarecrow", "ride"
                      Messengers & Mayors: sim/expansions/mayors.py.
    "scoring_figure"  The Messages: which of the seat's two scoring figures takes
                      `info["points"]` from `info["source"]`; choices ("meeple",
                      "messenger") (R-MSG-C1, R-MSG-N1).
    "messages"        The Messages: how the active seat resolves the drawn message
                      `info["action"]`: ("2", None) for 2 points, or (action, target)
                      for each legal way to take the action; `info["points"]` gives
                      each choice's immediate points (None for an extra tile or turn).

`game.turn` counts tile placements (a classic message-4 extra tile is a turn of its
own number, played by the same seat). Random streams are split by purpose (tiles,
messages, each seat's strategy; sim/engine/rng.py), so swapping a strategy never changes
the tiles; `clone()` copies all of them. The shuffles are done in C on the streams of
sim/engine/deal.py `tile_order` and `deck_order`.

Seats: `Game(rules, seed)` leaves every decision to the caller. `Game(rules, seed,
seats)` takes per seat a `strategies.Player` or None: the decision kinds whose policy
is built in (sim/engine/seats.py) are played in C, the others (and every kind of a None
seat) stop the C game and come back as `decision`; a game of built-in seats never
leaves C. `sim.engine.play.play(game, players)` answers them through the strategies' view;
a built-in policy asked from Python (`Game.policy_choice`) answers as the C seat would.

`play_batch` plays a shard of seeded games of built-in seats in one C call into numpy
arrays; sim/tournament/records.py `players_table` turns them into the records' players table. The differential
harness (sim/games/differential.py) checks the C game against the reference engine
(sim/reference/).
"""

from __future__ import annotations

from sim import expansions
from sim.engine import scoring
from sim.core import RESULT_INTS, STATUS_INTS, check, ffi, lib, names, result_fields
from sim.engine.board import Board
from sim.engine.deal import FIGURE_KINDS, Decision, Rows, catalogue_for, dealt, tile_flags
from sim.errors import CoreError, IllegalMove, InputError
from sim.expansions.base import SOURCES
from sim.expansions.declaration import ROW_POINTS, ROW_RANK, ROW_SCORE, ROW_SUPPLY, where
from sim.engine.rng import Stream, derive
from sim.engine.rules import Rules
from sim.engine.seats import PAUSABLE, policy_struct, seat_policy
from sim.formats.tiles import KINDS

# cc_game_status's fields by name: (offset, width) in the row as C lays it out
_STATUS_FIELDS = result_fields(status=True)
_TURN, _SEAT, _TILES_LEFT, _OVER, _TILES, _EVENTS, _HISTORY, _DECISIONS = (
    _STATUS_FIELDS[k][0] for k in ("turn", "seat", "tiles_left", "over", "tiles", "events",
                                   "history", "decisions"))
EVENT_NAMES = names(lib.CC_NAMES_EVENT)  # by CC_EV_* code, as C names them


class _SeatStream(Stream):
    """A seat's stream whose state lives in the C game (sim/engine/rng.py Stream's methods)."""

    __slots__ = ("_game", "_seat")

    def __init__(self, game_ptr, seat: int):
        self._game, self._seat = game_ptr, seat

    @property
    def state(self) -> int:
        states = ffi.new("uint64_t[]", lib.CC_MAX_PLAYERS)
        check(lib.cc_game_streams(self._game, states, lib.CC_MAX_PLAYERS), "cc_game_streams")
        return states[self._seat]

    @state.setter
    def state(self, value: int) -> None:
        check(lib.cc_game_set_stream(self._game, self._seat, value), "cc_game_set_stream",
              seat=self._seat)

    def copy(self) -> Stream:
        return Stream(self.state)


class _BoardView(Board):
    """The C game's board, read-only, valid while the game lives (for queries such as
    where a segment is); it owns nothing."""

    def __init__(self, catalogue, ptr, owner):
        # no max_tiles: the C game sizes its board (game.h game_max_tiles)
        self.catalogue = catalogue
        self._ptr = ptr
        self._owner = owner  # the game's cdata: keeps this board's memory alive
        self._out()
        self._rows = self._values = None

    def _read_only(self, *args, **kwargs):
        raise TypeError("the C game's board is read-only: change the game through apply()")

    place = add_figure = set_figure = remove_figure = _read_only

    def clone(self) -> Board:
        raise TypeError("clone the Game, not its board")


def _seat_policies(rules: Rules, seats, built_in_only: bool = False):
    """cc_seat_policy[] for `seats` (None, or anything but a strategies.Player: every
    decision answered from Python; a Player: its built-in policies' kinds played in C,
    the others answered from Python).

    Raises InputError for a wrong seat count, or with `built_in_only` a seat not made
    of built-in policies only."""
    seats = [None] * rules.players if seats is None else list(seats)
    if len(seats) != rules.players:
        raise InputError(f"seats: {len(seats)} seats for a {rules.players}-player game")
    pol = ffi.new("cc_seat_policy[]", rules.players)
    for s, player in enumerate(seats):
        if getattr(player, "by_kind", None) is None:  # None, or not a strategies.Player
            for kind in PAUSABLE:
                setattr(pol[s], kind, lib.CC_POL_PYTHON)
        elif not seat_policy(player, expansions.policy_edition(rules), pol[s]) and built_in_only:
            raise InputError(f"seats: seat {s}: {player.name!r} is not made of built-in "
                             f"policies only; a batch plays built-in seats only")
    return pol


def profile_guided() -> bool:
    """Whether the loaded C core was built profile-guided (setup.py; `carcsim bench`
    says so beside its figures)."""
    return bool(lib.cc_profile_guided())


def play_batch(rules: Rules, seeds, players) -> dict:
    """A shard of seeded games of built-in seats in one C call (issue 13 item 4): the
    same games as Game(rules, seed, players), without events or history.

    Returns numpy arrays: "turns" (games), "winners" (games; bit per seat) and
    "results" (games × players × RESULT_INTS (sim.core), the rows of cc_game_result: score,
    points by source, figures, moves, live moves, per action drawn, taken, points,
    resolved — action codes as ACTION_NAMES[edition]).

    Raises InputError as Game does; every seat must be built in."""
    import numpy as np

    games, n = len(seeds := list(seeds)), rules.players
    out = {"turns": np.zeros(games, dtype=np.int32), "winners": np.zeros(games, dtype=np.int32),
           "results": np.zeros((games, n, RESULT_INTS), dtype=np.int32)}
    _batch(rules, seeds, players, *(ffi.from_buffer(a) for a in out.values()))
    return out


def play_batch_only(rules: Rules, seeds, players) -> int:
    """play_batch's games, their results into cffi buffers and dropped: no NumPy, for
    the build's training games (sim/games/training.py), which run where only the build
    requirements are. Returns the number of games played."""
    games = len(seeds := list(seeds))
    _batch(rules, seeds, players, ffi.new("int32_t[]", games or 1), ffi.new("int32_t[]", games or 1),
           ffi.new("int32_t[]", games * rules.players * RESULT_INTS or 1))
    return games


def _batch(rules: Rules, seeds: list, players, turns, winners, results) -> None:
    """cc_game_batch into three int32 buffers (games; games; games × players ×
    RESULT_INTS)."""
    if any(p is None for p in players):
        raise InputError("seats: a batch plays built-in seats only")
    pol = _seat_policies(rules, players, built_in_only=True)
    cfg, stack, nstack = dealt(rules, 0)
    n = rules.players
    purposes = ("tiles", "messages", *(f"seat{s}" for s in range(n)))
    # game i's streams at i * (2 + n) (one list handed to cffi: no index arithmetic per item)
    streams = ffi.new("uint64_t[]", [derive(seed, purpose) for seed in seeds for purpose in purposes] or 1)
    flags = tile_flags(rules)
    size = len(seeds) * n * RESULT_INTS
    check(lib.cc_game_batch(catalogue_for(rules)._ts, cfg, stack, nstack, flags, len(flags), pol,
                            len(seeds), streams, ffi.cast("int32_t *", turns),
                            ffi.cast("int32_t *", winners), ffi.cast("int32_t *", results), size),
          "cc_game_batch", rules=rules, games=len(seeds))


def _load(rules: Rules, seed: int, state: bytes, town_halls_at_end: bool = True,
          fixed_stack: tuple | None = None, policies: bytes | None = None) -> Game:
    """A Game from cc_game_save's bytes (unpickling). The state holds the seats'
    policies as they play now (paused or not); `policies`, the seats' own ones
    (cc_seat_policy[] bytes), are what its clones resume (Game.clone): without them a
    clone of a paused game would stop where the original's plays on in C."""
    g = Game.__new__(Game)
    g.town_halls_at_end, g._fixed_stack = town_halls_at_end, fixed_stack
    g.rules, g.seed, g.catalogue = rules, seed, catalogue_for(rules)
    g._policies = None
    if policies is not None:
        pol = ffi.new("cc_seat_policy[]", rules.players)
        if len(policies) != ffi.sizeof(pol):
            raise InputError(f"policies: {len(policies)} bytes for {rules.players} seats")
        ffi.memmove(pol, policies, len(policies))  # checked by cc_game_set_seat when used
        g._policies = pol
    out = ffi.new("cc_game **")
    check(lib.cc_game_load(g.catalogue._ts, state, len(state), out), "cc_game_load",
          rules=rules, seed=seed, size=len(state))
    g._own(out[0])
    _check_loaded(g, town_halls_at_end, fixed_stack)
    return g


# What a saved game's config must share with the rules it is loaded under (the rest is
# the state's own: streams, record bits, the stack)
_LOADED_AS_DEALT = ("nplayers", "followers", "expansions", "edition", "zmg_alone", "start_type",
                    "river_edge", "town_hall_type", "town_halls_at_end", "farm_points",
                    "two_points")


def _check_loaded(g: Game, town_halls_at_end: bool, fixed_stack) -> None:
    """Refuse a loaded game that is not a game of `g.rules`: a 4-player save under
    6-player rules would report 6 scores and decode its rows wrongly."""
    got = ffi.new("cc_game_config *")
    check(lib.cc_game_get_config(g._ptr, got), "cc_game_get_config")
    want, _, _ = dealt(g.rules, 0, None if fixed_stack is None else list(fixed_stack),
                       town_halls_at_end)
    for field in _LOADED_AS_DEALT:
        if getattr(got, field) != getattr(want, field):
            raise InputError(f"saved game: {field} = {getattr(got, field)}, but {g.rules!r} give "
                             f"{getattr(want, field)}: a save loads only under the rules it "
                             f"was played by")
    # what the C load does not read (the event log's words, the decision's choices) is
    # decoded once here, so that an accepted save is one every verb can read
    try:
        g.events, g.decision, g.result()
    except (IndexError, KeyError, ValueError, CoreError) as e:
        raise InputError(f"saved game: cannot be read back ({type(e).__name__}: "
                         f"{str(e)[:120]})") from None


class Game:
    """One game played by the C state machine. See the module docstring."""

    def __init__(self, rules: Rules, seed: int, seats=None, *, stack: list[str] | None = None,
                 record: bool | int = True, pause: tuple[str, ...] = (), town_halls_at_end: bool = True):
        """Set up (R-BASE-2): the start tile at (0, 0) rotation 0, the rest shuffled by
        the game's tile stream. `seats`: per seat a Player (its built-in policies play
        in C, its Python ones are asked through `decision`) or None (every decision
        comes back to the caller); None for all: every seat answered by the caller.
        `stack`: fixed tile ids in draw order, drawn first to last (scripted games);
        ids are checked against the tile sets. `record`: True keeps events and history, False
        neither, or CC_RECORD_* bits. `pause`: decision kinds ("messages",
        "scoring_figure", "place") that come back to the caller for every seat, built
        in or not, so it may fork the game there (sim/tournament/counterfactual.py);
        the clones of a paused game play every built-in seat in C again.
        `town_halls_at_end` as for Game (False: scripted games end with the script).

        Raises InputError for rules the C game does not play, a wrong number of seats,
        an unknown tile id or more copies than the sets hold.
        """
        self.rules, self.seed = rules, seed
        self._fixed_stack = None if stack is None else tuple(stack)
        self.catalogue = cat = catalogue_for(rules)
        self.town_halls_at_end = town_halls_at_end
        pol = self._policies = _seat_policies(rules, seats)
        if pause:
            if any(k not in PAUSABLE for k in pause):
                raise InputError(f"pause = {list(pause)!r}: expected decision kinds from "
                                 f"{', '.join(PAUSABLE)}")
            paused = ffi.new("cc_seat_policy[]", rules.players)
            ffi.memmove(paused, pol, ffi.sizeof(paused))
            for s in range(rules.players):
                for kind in pause:
                    setattr(paused[s], kind, lib.CC_POL_PYTHON)
            pol = paused
        cfg, tiles, ntiles = dealt(rules, (lib.CC_RECORD_HISTORY | lib.CC_RECORD_EVENTS)
                                    if record is True else int(record), stack, town_halls_at_end)
        cfg.tiles_stream, cfg.messages_stream = derive(seed, "tiles"), derive(seed, "messages")
        flags = tile_flags(rules)
        states = ffi.new("uint64_t[]", [derive(seed, f"seat{s}") for s in range(rules.players)])
        out = ffi.new("cc_game **")
        check(lib.cc_game_new(cat._ts, cfg, tiles, ntiles, flags, len(flags), states, pol, out),
              "cc_game_new", rules=rules, seed=seed)
        self._own(out[0])

    def _own(self, ptr) -> None:
        self._ptr = ffi.gc(ptr, lib.cc_game_free)
        self._board = None
        self._head = ffi.new("int32_t[]", lib.CC_HEAD_INTS)
        self._status = ffi.new("int32_t[]", STATUS_INTS)
        self._index = ffi.new("int32_t *")  # policy_choice's answer
        self._edition = expansions.policy_edition(self.rules)  # the built-in policies' (policy_choice)
        self._choices = None
        self._events: list[dict] = []
        self._decision = None
        self._decision_key = None

    # ------------------------------------------------------------ contract

    @property
    def board(self) -> Board:
        """The game's board, read-only."""
        if self._board is None:  # it keeps the C game alive, not this object: no cycle
            self._board = _BoardView(self.catalogue, lib.cc_game_board(self._ptr), self._ptr)
        return self._board

    def _state(self) -> list[int]:
        check(lib.cc_game_status(self._ptr, self._status, STATUS_INTS), "cc_game_status")
        return ffi.unpack(self._status, STATUS_INTS)

    @property
    def turn(self) -> int:
        return self._state()[_TURN]

    @property
    def seat(self) -> int:
        return self._state()[_SEAT]

    @property
    def tiles_left(self) -> int:
        return self._state()[_TILES_LEFT]

    @property
    def over(self) -> bool:
        return bool(self._state()[_OVER])

    def result_rows(self) -> list[list[int]]:
        """Every seat's cc_game_result row as it stands (the layout of
        sim/expansions/declaration.py ROW_*: what each part's decoders read)."""
        n, w = self.rules.players, RESULT_INTS
        buf = ffi.new("int32_t[]", n * w)
        check(lib.cc_game_result(self._ptr, buf, n * w), "cc_game_result")
        return [ffi.unpack(buf + s * w, w) for s in range(n)]

    def status_field(self, name: str) -> list[int]:
        """Field `name` of the C game's status row (cc_game_status, by C's names: an
        expansion's own slice, e.g. where the Courier stands)."""
        offset, width = _STATUS_FIELDS[name]
        return self._state()[offset:offset + width]

    @property
    def scores(self) -> list[int]:
        return [r[ROW_SCORE] for r in self.result_rows()]

    @property
    def points(self) -> list[dict]:
        """Per seat, points by source (sim/expansions/base.py SOURCES)."""
        return [dict(zip(SOURCES, r[ROW_POINTS])) for r in self.result_rows()]

    @property
    def supply(self) -> list[int]:
        """Per seat, followers in supply."""
        return [r[ROW_SUPPLY] for r in self.result_rows()]

    def __getattr__(self, name: str):
        """An expansion's state as its unit reads it from the C game (sim/expansions/
        `state`: Game.msg, Game.mm, Game.courier_at, Game.river_end), None when that
        part is not in play."""
        part = expansions.STATE.get(name)
        rules = self.__dict__.get("rules")
        if part is None or rules is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return part[1](self) if part[0].name in rules.expansions else None

    @property
    def placed_index(self) -> int:
        """Board index of the tile placed last (the figure decision's tile)."""
        return self._state()[_TILES] - 1

    MAX_SEGS = lib.CC_MAX_SEGS  # segment ids: tile index * MAX_SEGS + local, as Game's

    @property
    def decision(self) -> Decision | None:
        """The decision waiting for the caller, None once the game is over."""
        check(lib.cc_game_status(self._ptr, self._status, STATUS_INTS), "cc_game_status")
        key = self._status[_DECISIONS]  # decisions taken so far name the current one (read in
        if self._decision_key != key:  # place: a Python seat asks for it several times a decision)
            self._decision, self._decision_key = self._read_decision(), key
        return self._decision

    def _read_decision(self) -> Decision | None:
        while True:
            cap = 0 if self._choices is None else len(self._choices)
            n = lib.cc_game_decision(self._ptr, self._head, lib.CC_HEAD_INTS,
                                     self._choices if cap else ffi.NULL, cap)
            if n != lib.CC_ERR_FULL:
                break
            self._choices = ffi.new("int32_t[]", max(5 * 1024, 2 * cap))
        check(n, "cc_game_decision")
        kind, seat, tile, count, *info = ffi.unpack(self._head, lib.CC_HEAD_INTS)
        if kind == lib.CC_DEC_PLACE:
            # the rows as C wrote them, unpacked when asked (a Python seat's hot path)
            rows = Rows(ffi.buffer(self._choices, 4 * 5 * count)[:])
            return Decision("place", seat, self.catalogue.types[tile].id, rows)
        read = expansions.DECISIONS.get(kind)  # an expansion's decision, read by its unit
        if read is None:
            return None
        name, tile_id, choices, about = read(self, kind, tile, info,
                                             lambda width: ffi.unpack(self._choices, width * count))
        return Decision(name, seat, tile_id, choices, about)

    def apply(self, choice) -> None:
        """Take one of `decision.choices`. Raises IllegalMove otherwise."""
        d = self.decision
        if d is None:
            raise IllegalMove("the game is over")
        try:
            index = d.choices.index(choice)
        except ValueError:
            raise IllegalMove(f"turn {self.turn}: {choice!r} is not a legal {d.kind} choice") from None
        check(lib.cc_game_apply(self._ptr, index), "cc_game_apply", choice=choice)

    def stream(self, seat: int) -> Stream:
        """`seat`'s random stream, kept in C: a Python policy drawing from it advances
        the same state the built-in policies use."""
        if not 0 <= seat < self.rules.players:
            raise InputError(f"stream: seat {seat!r}: expected 0..{self.rules.players - 1}")
        return _SeatStream(self._ptr, seat)

    def _resume(self) -> None:
        """The seats' own policies answer every decision kind again (from the next
        apply on: a waiting decision is still the caller's)."""
        for s in range(self.rules.players):
            check(lib.cc_game_set_seat(self._ptr, s, self._policies + s), "cc_game_set_seat", seat=s)

    def reseed(self, key: str) -> None:
        """As Game.reseed: every seat's stream derived anew from (seed, key)."""
        for s in range(self.rules.players):
            check(lib.cc_game_set_stream(self._ptr, s, derive(self.seed, f"{key}/seat{s}")),
                  "cc_game_set_stream", seat=s)

    def clone(self) -> Game:
        """An independent copy (a C copy of the whole state)."""
        ptr = lib.cc_game_clone(self._ptr)
        if ptr == ffi.NULL:
            raise MemoryError("cc_game_clone failed")
        g = Game.__new__(Game)
        g.rules, g.seed, g.catalogue = self.rules, self.seed, self.catalogue
        g._policies = self._policies
        g.town_halls_at_end, g._fixed_stack = self.town_halls_at_end, self._fixed_stack
        g._own(ptr)
        if g._policies is not None:
            g._resume()  # a fork's branches are played out in C
        return g

    def determinised(self, key: int, seats) -> Game:
        """A private game at this very decision on a fresh deal, keyed by `key` (a
        64-bit int), of what the deciding seat has not seen: the tiles not yet drawn
        (river tiles still first, the lake last of them, R-RIV-1) and the messages not
        yet drawn (R-MSG-11), as the `search` policy deals (cc_game_determinised). It
        keeps no events or history; `seats` (per seat a strategies.Player, all built
        in) are paused at every decision kind, so its clones play on in C from wherever
        the caller applies a choice. This game does not change.

        Raises InputError for seats that are not all built in."""
        if any(getattr(p, "by_kind", None) is None for p in seats):
            raise InputError("seats: a determinised game plays built-in seats only")
        pol = _seat_policies(self.rules, seats, built_in_only=True)
        out = ffi.new("cc_game **")
        check(lib.cc_game_determinised(self._ptr, key & (2**64 - 1), out, ffi.NULL, 0),
              "cc_game_determinised")
        g = Game.__new__(Game)
        g.rules, g.seed, g.catalogue = self.rules, self.seed, self.catalogue
        g.town_halls_at_end, g._fixed_stack = self.town_halls_at_end, self._fixed_stack
        g._own(out[0])
        g._policies = pol
        paused = ffi.new("cc_seat_policy[]", self.rules.players)
        ffi.memmove(paused, pol, ffi.sizeof(paused))
        for s in range(self.rules.players):
            for kind in PAUSABLE:
                setattr(paused[s], kind, lib.CC_POL_PYTHON)
            check(lib.cc_game_set_seat(g._ptr, s, paused + s), "cc_game_set_seat", seat=s)
        return g

    def __reduce__(self):
        # through a C save of the whole state (cdata cannot be pickled), not a replay
        size = check(lib.cc_game_save(self._ptr, ffi.NULL, 0), "cc_game_save")
        buf = ffi.new("uint8_t[]", size)
        check(lib.cc_game_save(self._ptr, buf, size), "cc_game_save")
        policies = None if self._policies is None else bytes(ffi.buffer(self._policies))
        return _load, (self.rules, self.seed, bytes(ffi.buffer(buf, size)),
                       self.town_halls_at_end, self._fixed_stack, policies)

    def __deepcopy__(self, memo) -> Game:
        return self.clone()

    def replayed(self, turn: int) -> Game:
        """A fresh game replayed from (rules, seed) and this game's choices up to the end
        of `turn` (0: the start tile only): the board as it stood then."""
        g = Game(self.rules, self.seed, stack=None if self._fixed_stack is None else list(self._fixed_stack),
                 town_halls_at_end=self.town_halls_at_end)
        for choice in self.history:
            d = g.decision
            if d is None or (d.kind == "place" and g.turn > turn):
                break
            g.apply(choice)
        return g

    # ------------------------------------------------------------ position setup

    def set_scoreboard(self, seat: int, meeple: int, messenger: int) -> None:
        """Start `seat` from given scoreboard spaces, like a chess FEN (The Messages):
        its scoring meeple on total `meeple`, its messenger on `messenger`, its score
        their sum (R-MSG-C1). For studying a position play would not give, e.g. a
        figure one point before a dark space. Only while the seat has scored no point:
        the head start counts in no point source. Raises CoreArgumentError (a
        ValueError) quoting the values refused: no Messages, game over, seat or a
        position out of range (0..CC_SETUP_MAX_POSITION), points already scored."""
        check(lib.cc_game_set_scoreboard(self._ptr, seat, meeple, messenger), "cc_game_set_scoreboard",
              seat=seat, meeple=meeple, messenger=messenger)
        self._decision_key = None  # a scoring-figure decision shows the positions

    def set_supply(self, seat: int, kind: str, n: int) -> None:
        """Leave `n` figures of `kind` (FIGURE_KINDS: "follower"; with Messengers &
        Mayors "mayor", "messenger", "scarecrow") in `seat`'s supply, as if the rest
        stood elsewhere: a position setup, e.g. a seat with its followers used up.
        Raises CoreArgumentError quoting the values refused: game over, seat out of
        range, unknown kind, n below 0 or above the seat's complement less its figures
        on the board, or a decision waiting for that seat (its choices were worked
        out from its supply)."""
        code = FIGURE_KINDS.index(kind) if kind in FIGURE_KINDS else -1
        check(lib.cc_game_set_supply(self._ptr, seat, code, n), "cc_game_set_supply",
              seat=seat, kind=kind, n=n)

    # ------------------------------------------------------------ record

    @property
    def history(self) -> list:
        """Every choice taken, by built-in seats and the caller, in Game.history's form."""
        n = self._state()[_HISTORY]
        buf = ffi.new("int32_t[]", max(1, n * lib.CC_HISTORY_INTS))
        got = check(lib.cc_game_history(self._ptr, 0, buf, n * lib.CC_HISTORY_INTS), "cc_game_history")
        flat, w, out = ffi.unpack(buf, got * lib.CC_HISTORY_INTS), lib.CC_HISTORY_INTS, []
        for i in range(0, got * w, w):
            kind, v = flat[i], flat[i + 1:i + w]
            # a place row as it is; an expansion's choice as its unit reads it back
            out.append(tuple(v) if kind == lib.CC_DEC_PLACE
                       else expansions.CHOICES[kind](self, kind, v))
        return out

    @property
    def events(self) -> list[dict]:
        """The event log in sim/engine/game.py's vocabulary (read from C as it grows)."""
        total = self._state()[_EVENTS]
        have = len(self._events)
        if total > have:
            w = lib.CC_EVENT_INTS
            buf = ffi.new("int32_t[]", (total - have) * w)
            got = check(lib.cc_game_events(self._ptr, have, buf, (total - have) * w), "cc_game_events")
            flat = ffi.unpack(buf, got * w)
            for i in range(0, got * w, w):
                self._events.append(self._event(flat[i:i + w]))
        return self._events

    def _event(self, row) -> dict:
        kind, turn, seat, *v = row
        name = EVENT_NAMES[kind]
        e = {"e": name, "turn": turn}
        types = self.catalogue.types
        if name == "start":
            e.update(tile=types[v[0]].id, at=[v[1], v[2]], rot=v[3])
        elif name in ("draw", "discard"):
            e.update(seat=seat, tile=types[v[0]].id)
        elif name == "place":
            e.update(seat=seat, tile=types[v[0]].id, at=[v[1], v[2]], rot=v[3])
        elif name == "figure":
            at, place = where(self, v[1])
            e.update(seat=seat, figure=FIGURE_KINDS[v[0]], at=at, where=place)
        elif name == "score":
            at, place = where(self, v[1])
            e.update(feature=KINDS[v[0]], at=at, where=place, tiles=v[2], coats=v[3],
                     complete=bool(v[4]), final=bool(v[5]), points=v[6],
                     winners=[q for q in range(self.rules.players) if v[7] >> q & 1])
        elif name == "points":
            e.update(seat=seat, points=v[0], source=SOURCES[v[1]], total=v[2])
        elif (decode := expansions.event_decoder(name)) is not None:
            e.update(decode(self, seat, v))
        elif name == "end":
            result = self.result()
            e.update(scores=[p["score"] for p in result["players"]], winners=result["winners"])
        return e

    def result(self) -> dict:
        """As Game.result(): scores, points by source, ranks and winners (R-BASE-9),
        and each part in play's keys per player (The Messages' figures and message
        statistics, Messengers & Mayors' figures, favours and rides: sim/expansions/)."""
        rows = self.result_rows()
        out = scoring.result([(r[ROW_SCORE], r[ROW_RANK], dict(zip(SOURCES, r[ROW_POINTS])))
                              for r in rows])
        for e in expansions.in_play(self.rules.expansions):
            if e.read_result is not None:
                for p, r in zip(out["players"], rows):
                    p.update(e.read_result(self.rules, r))
        return out

    # ------------------------------------------------------------ built-in policies and branches

    def policy_choice(self, policy, decision=None):
        """The current decision (`decision`, if given, must be it) answered by the
        built-in `policy` as the C game answers it for a seat playing `policy`
        (cc_game_policy_choice): the same C functions and parameters, and the deciding
        seat's own policy stream in this game (a clone's own), which a random policy
        advances as in play. strategies.BuiltIn.choose asks this through the view.

        Raises IllegalMove once the game is over, ValueError for a decision other than
        the game's current one, and CoreArgumentError for a policy that is not built in
        for the decision's kind."""
        d = self.decision
        if d is None:
            raise IllegalMove("the game is over")
        if decision is not None and decision is not d and (
                decision.kind != d.kind or decision.seat != d.seat or decision.tile != d.tile
                or len(decision.choices) != len(d.choices)):
            name = getattr(policy, "name", type(policy).__name__)
            raise ValueError(f"{name}: a built-in policy answers the game's current decision "
                             f"({d.kind} of seat {d.seat}), not a {decision.kind} of seat {decision.seat}")
        index = self._index
        rc = lib.cc_game_policy_choice(self._ptr, policy_struct(policy, self._edition), index)
        if rc < 0:  # named only on failure: this is every Python seat's hot path
            check(rc, "cc_game_policy_choice", policy=getattr(policy, "name", type(policy).__name__),
                  decision=d.kind)
        return d.choices[index[0]]

    def policy_values(self, greedy) -> list[float]:
        """The value built-in `greedy` gives each choice of the current place decision
        (cc_game_policy_values: its valuation before the courier bonus and road_figure)."""
        d = self.decision
        n = 0 if d is None else len(d.choices)
        values = ffi.new("double[]", max(1, n))
        struct = policy_struct(greedy, expansions.policy_edition(self.rules))
        got = check(lib.cc_game_policy_values(self._ptr, struct, values, n), "cc_game_policy_values",
                    policy=getattr(greedy, "name", type(greedy).__name__),
                    decision=None if d is None else d.kind)
        return ffi.unpack(values, got)

    @property
    def seats_built_in(self) -> bool:
        """Whether every seat plays every decision kind in C (a pause aside): the game's
        clones then never come back to Python, and `branches` plays them in one call."""
        pol = self._policies
        return pol is not None and all(getattr(pol[s], kind) != lib.CC_POL_PYTHON
                                       for s in range(self.rules.players) for kind in PAUSABLE)

    def branches(self, branches) -> list[list[int]]:
        """Final scores of each (choice, reseed key, rotate) branch from the current
        decision, all played in one C call (cc_branch_play): as clone, reseed(key),
        apply(choice) and play to the end, on the tiles left rotated by one (the next
        to the bottom) when `rotate`. The game does not change.

        Raises IllegalMove for a choice that is not legal, CoreArgumentError when a
        seat is not built in (`seats_built_in`)."""
        d, n, k = self.decision, self.rules.players, len(branches)
        try:
            index = [d.choices.index(choice) for choice, _, _ in branches]
        except (ValueError, AttributeError):
            raise IllegalMove(f"turn {self.turn}: a branch's choice is not a legal "
                              f"{getattr(d, 'kind', 'decision')} choice") from None
        streams = ffi.new("uint64_t[]", [derive(self.seed, f"{key}/seat{s}")
                                         for _, key, _ in branches for s in range(n)] or [0])
        out = ffi.new("int32_t[]", max(1, k * n))
        check(lib.cc_branch_play(self._ptr, self._policies, k, ffi.new("int32_t[]", index or [0]),
                                 ffi.new("int32_t[]", [int(r) for _, _, r in branches] or [0]),
                                 streams, out, k * n), "cc_branch_play", branches=k)
        flat = ffi.unpack(out, k * n)
        return [flat[b * n:(b + 1) * n] for b in range(k)]

    def streams(self) -> list[int]:
        """Every seat's policy stream state, in seat order."""
        states = ffi.new("uint64_t[]", lib.CC_MAX_PLAYERS)
        check(lib.cc_game_streams(self._ptr, states, lib.CC_MAX_PLAYERS), "cc_game_streams")
        return ffi.unpack(states, self.rules.players)

    @property
    def rotatable(self) -> bool:
        """Whether a branch may rotate the tiles left (`branches`' rotate): not while
        tiles of a first stack are still to be drawn (the River's, R-RIV-1), which a
        rotation would move (cc_branch_river_left)."""
        return not lib.cc_branch_river_left(self._ptr)
