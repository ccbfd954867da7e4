"""The game contract (STYLE.md rule 1): state, decisions, apply, clone, result.

A game is a value built from (rules, seed). It advances by itself until a player must
decide; `decision` then says who decides what, with the legal choices in a fixed order,
and `apply(choice)` takes one of them. Runner, CLI and scripts use only (strategies get
the game's read-only view instead, sim/view.py):

    game.decision        -> Decision | None (None once the game is over)
    game.apply(choice)   -> None; raises IllegalMove for a choice not offered
    game.over, game.result(), game.events, game.clone(), game.stream(seat)

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
                      Messengers & Mayors: sim/mayors.py.
    "scoring_figure"  The Messages: which of the seat's two scoring figures takes
                      `info["points"]` from `info["source"]`; choices ("meeple",
                      "messenger") (R-MSG-C1, R-MSG-N1).
    "messages"        The Messages: how the active seat resolves the drawn message
                      `info["action"]`: ("2", None) for 2 points, or (action, target)
                      for each legal way to take the action; `info["points"]` gives
                      each choice's immediate points (None for an extra tile or turn).

`game.turn` counts tile placements (a classic message-4 extra tile is a turn of its
own number, played by the same seat). Random streams are split by purpose (tiles,
messages, each seat's strategy), so swapping a strategy never changes the tiles;
`clone()` copies all of them.
"""

from __future__ import annotations

from typing import NamedTuple

from sim import courier, mayors, message_actions, messages, scoring
from sim.board import MAX_SEGS, Board, Catalogue, TurnOptions
from sim.errors import IllegalMove, InputError
from sim.rng import Stream, derive
from sim.rules import Rules
from sim.river import RiverState, is_river_tile, start_state
from sim.tiles import ANY_EDGE, Tile, tile_set

FIGURE_KINDS = mayors.KIND_NAMES  # index = the kind code stored in the C core
# How each figure kind may be placed (core.h cc_figure_rule): kind, segment kinds
# (bits city, road, field, monastery), only on a free feature, strength, scores.
FOLLOWER_RULE = (0, 0b1111, 1, 1, 1)  # R-BASE-4: any free feature


class Decision(NamedTuple):
    kind: str  # "place" | "scoring_figure" | "messages"
    seat: int
    tile: str  # the tile being placed ("" for other decisions)
    choices: tuple
    info: dict | None = None


_catalogues: dict[tuple[str, ...], Catalogue] = {}


def catalogue_for(rules: Rules) -> Catalogue:
    """The tile catalogue of a rules' tile sets (built once per process and set list),
    with the town hall when Messengers & Mayors is in play."""
    key = rules.tile_sets
    if key not in _catalogues:
        extra = [TOWN_HALL] if "mayors" in key else []
        _catalogues[key] = Catalogue([t for name in key for t in tile_set(name)] + extra)
    return _catalogues[key]


# R-MM-10: fits every neighbour, holds no segment (no figure, no road, city or field)
TOWN_HALL = Tile(mayors.TOWN_HALL_ID, 1, ANY_EDGE * 4, (), ("townhall",), "built-in")


def stack_plan(rules: Rules) -> tuple[Tile, list[str], list[str], list[str]]:
    """(start tile, river tiles, lake, land tiles) as ids with repeats.

    R-BASE-2: the start tile is the one marked `start`, one copy of it leaves the
    stack. R-RIV-1: with the River the spring starts instead, every land tile (the
    usual start tile's copies too) is a land tile, and the lake ends the river stack.
    """
    tiles = [t for name in rules.tile_sets for t in tile_set(name)]
    if "river" not in rules.expansions:  # MMR joins only with the River (R-MM-0)
        tiles = [t for t in tiles if not is_river_tile(t)]
    river = [t for t in tiles if is_river_tile(t)]
    land = [t for t in tiles if not is_river_tile(t)]
    mark = "spring" if river else "start"
    starts = [t for t in tiles if t.has(mark)]
    if len(starts) != 1:
        raise InputError(f"tile sets {', '.join(rules.tile_sets)}: expected exactly one {mark} tile")
    start = starts[0]
    lake = [t.id for t in river if t.has("lake")]
    flowing = [t.id for t in river if t is not start and not t.has("lake") for _ in range(t.count)]
    land_ids = [t.id for t in land for _ in range(t.count - (t is start))]
    return start, flowing, lake, land_ids


def tile_order(rules: Rules, seed: int) -> tuple[Tile, list[str]]:
    """R-BASE-2 (and R-RIV-1): the start tile and every other tile in draw order."""
    start, river, lake, land = stack_plan(rules)
    stream = Stream(derive(seed, "tiles"))
    stream.shuffle(river)
    stream.shuffle(land)
    return start, river + lake + land


def stack_tiles(rules: Rules) -> tuple[Tile, list[str]]:
    """(start tile, every tile a stack may hold, as ids with repeats)."""
    start, river, lake, land = stack_plan(rules)
    return start, river + lake + land


class Game:
    """One game of Carcassonne. See the module docstring for the contract."""

    Decision = Decision  # for the expansion modules' steps
    MAX_SEGS = MAX_SEGS

    def __init__(self, rules: Rules, seed: int, *, stack: list[str] | None = None,
                 town_halls_at_end: bool = True):
        """Set up (R-BASE-2): start tile at (0, 0) rotation 0, the rest shuffled by the
        game's tile stream. `stack` replaces the shuffled order with fixed tile ids,
        drawn first to last (scripted games); ids are checked against the tile sets.

        `town_halls_at_end` = False skips R-MM-12's last town halls (scripted games end
        after their last scripted turn, SCRIPTS.md).

        Raises InputError for an unknown tile id or more copies than the sets hold.
        """
        self.town_halls_at_end = town_halls_at_end
        self.rules = rules
        self.seed = seed
        self.catalogue = catalogue_for(rules)
        self._seat_streams = [Stream(derive(seed, f"seat{s}")) for s in range(rules.players)]
        if stack is None:
            start, order = tile_order(rules, seed)
        else:
            start, ids = stack_tiles(rules)
            order = list(stack)
            _check_stack(order, ids)
        self._fixed_stack = None if stack is None else tuple(stack)
        self._stack = [self.catalogue.index[i] for i in reversed(order)]  # draw from the end
        town_halls = rules.players if "mayors" in rules.expansions else 0
        self.board = Board(self.catalogue, len(order) + 1 + town_halls)
        self.supply = [rules.followers] * rules.players
        self.scores = [0] * rules.players
        self.points = [dict.fromkeys(scoring.SOURCES, 0) for _ in range(rules.players)]
        self.msg = None
        if "messages" in rules.expansions:
            deck = messages.deck_order(rules.messages, Stream(derive(seed, "messages")))
            self.msg = messages.MessagesState(rules.messages, rules.players, deck)
        self.mm = (mayors.MayorsState([mayors.PlayerMM() for _ in range(rules.players)])
                   if "mayors" in rules.expansions else None)
        # R-COU-2: the Courier starts off the board
        self.courier = courier.CourierState() if "courier" in rules.expansions else None
        # R-RIV-1/2: the river's open end, while river tiles are being placed
        self.river: RiverState | None = start_state(start) if "river" in rules.expansions else None
        self.events: list[dict] = []
        self.history: list = []
        self.turn = 0
        self.seat = rules.players - 1  # the first turn goes to seat 0
        self.over = False
        self.decision: Decision | None = None
        self.agenda: list[tuple] = []  # steps still to run in this turn, in order
        self.pending: tuple | None = None  # the step waiting on `decision`
        self._extra_turn = False  # c3.1 message 4: this seat plays again
        self._drawn = ""  # id of the tile drawn for the current placement
        self._drawn_type = -1
        self.placed_index = -1  # board index of the tile placed last
        s = self.catalogue.index[start.id]
        self.board.place(s, 0, 0, 0)
        self.emit("start", tile=start.id, at=[0, 0], rot=0)
        self._run()

    # ------------------------------------------------------------ contract

    def stream(self, seat: int) -> Stream:
        """The random stream of the strategy playing `seat` (owned by the game so a
        clone copies it)."""
        return self._seat_streams[seat]

    def reseed(self, key: str) -> None:
        """Give every seat a fresh strategy stream derived from (seed, key): two clones
        reseeded with the same key make the same random choices from here on (common
        random numbers for counterfactual branches)."""
        for s, stream in enumerate(self._seat_streams):
            stream.state = derive(self.seed, f"{key}/seat{s}")

    @property
    def courier_at(self) -> tuple[int, int] | None:
        """Where the Courier stands (None off the board or without the Courier)."""
        return None if self.courier is None else self.courier.at

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
        if d.kind == "place":
            self._apply_place(*choice)
        elif d.kind in MM_DECISIONS:
            MM_DECISIONS[d.kind](self, choice)
        elif d.kind == "scoring_figure":
            seat, points, source = self.pending
            self.pending = None
            self._move_figure(seat, messages.FIGURES.index(choice), points, source)
        else:
            self._apply_message(choice)
        self._run()

    def result(self) -> dict:
        """Scores, points by source, ranks and winners (R-BASE-9); with The Messages,
        each player's figures at the end of play and message statistics."""
        out = scoring.result(self.scores, self.points)
        if self.msg is not None:
            for s, p in enumerate(out["players"]):
                m = self.msg.players[s]
                p["scoring_meeple"], p["messenger"] = m.position
                p["messages"] = {"drawn": dict(m.drawn), "taken": dict(m.taken),
                                 "points": dict(m.points),
                                 "figure_moves": dict(zip(messages.FIGURES, m.moves)),
                                 "live_moves": m.live}
        if self.mm is not None:
            for s, p in enumerate(out["players"]):
                m = self.mm.players[s]
                p["mayors"] = {"placed": {mayors.KIND_NAMES[k]: v for k, v in m.placed.items()},
                               "favours": m.favours, "scarecrows": dict(m.scarecrows),
                               "rides": m.rides, "ride_points": m.ride_points,
                               "town_hall_turn": m.town_hall_turn}
        return out

    def clone(self) -> Game:
        """An independent copy: board, supplies, stacks and every random stream."""
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.board = self.board.clone()
        if self.decision is not None and self.decision.kind == "place":
            g.decision = self.decision._replace(choices=self.decision.choices.rebound(g.board))
        g._seat_streams = [s.copy() for s in self._seat_streams]
        g._stack = list(self._stack)
        g.supply = list(self.supply)
        g.scores = list(self.scores)
        g.points = [dict(p) for p in self.points]
        g.msg = None if self.msg is None else self.msg.copy()
        g.river = None if self.river is None else self.river.copy()
        g.courier = None if self.courier is None else self.courier.copy()
        g.mm = None if self.mm is None else self.mm.copy()
        g.events = list(self.events)  # events are never mutated once emitted
        g.history = list(self.history)
        g.agenda = list(self.agenda)
        return g

    def replayed(self, turn: int) -> Game:
        """A fresh game replayed from (rules, seed) and this game's choices up to the end
        of `turn` (0: the start tile only): the board as it stood then."""
        return _replay(self.rules, self.seed, self._fixed_stack, self.town_halls_at_end,
                       self.history, turn)

    def __deepcopy__(self, memo) -> Game:
        return self.clone()

    def __reduce__(self):
        # C memory cannot be pickled: rebuild from (rules, seed) and replay the choices
        return _rebuild, (self.rules, self.seed, self._fixed_stack, tuple(self.history),
                          tuple(s.state for s in self._seat_streams), self.town_halls_at_end)

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.state_key() == other.state_key()

    def state_key(self) -> tuple:
        """Everything that determines the game's future, as plain values."""
        figures = tuple((f, i) for f, i in self.board.figures())
        msg = None if self.msg is None else (
            tuple(self.msg.deck), self.msg.in_hand, tuple(sorted(self.msg.round_moved)),
            tuple((tuple(p.position), p.turn_figure) for p in self.msg.players))
        return (self.rules, self.seed, tuple(self.board.tiles()), figures, tuple(self._stack),
                tuple(self.supply), tuple(self.scores), self.turn, self.seat, self.over,
                self.decision, tuple(s.state for s in self._seat_streams), len(self.events),
                tuple(self.agenda), self.pending, self._extra_turn, msg,
                None if self.river is None else (self.river.end, self.river.last_turn),
                None if self.courier is None else (self.courier.at, tuple(self.courier.moved_this_turn)),
                None if self.mm is None else (tuple(
                    (tuple(p.supply.items()), p.town_hall) for p in self.mm.players),
                    tuple(self.mm.rides_due)))

    # ------------------------------------------------------------ the turn

    def emit(self, kind: str, turn: int | None = None, **data) -> None:
        self.events.append({"e": kind, "turn": self.turn if turn is None else turn, **data})

    def _run(self) -> None:
        """Run the agenda until a decision is needed or the game is over."""
        while self.decision is None and not self.over:
            if self.agenda:
                step = self.agenda.pop(0)
                handler = MM_STEPS.get(step[0])
                if handler is not None:
                    handler(self, *step[1:])
                else:
                    getattr(self, "_step_" + step[0])(*step[1:])
            else:
                self._next_turn()

    def _next_turn(self) -> None:
        """The next seat's turn (the same seat after a c3.1 extra turn)."""
        if self._extra_turn:
            self._extra_turn = False
        else:
            self.seat = (self.seat + 1) % self.rules.players
        if self.msg is not None:
            for p in self.msg.players:
                p.turn_figure = -1  # R-MSG-N1: every player chooses anew each turn
            self.msg.turn_messages = 0
        if self.courier is not None:
            self.courier.moved_this_turn = []
            self.agenda = [("courier",)]  # R-COU-3: phase 4 closes the turn
        if self.mm is not None and mayors.offer_town_hall(self):
            return
        if not self.draw_for_turn():
            self.end_or_force()

    def end_or_force(self) -> None:
        """Nothing left to draw: R-MM-12 town halls still to place, else the end."""
        if self.mm is not None and mayors.forced_town_hall(self, can_end=not self.town_halls_at_end):
            return
        self.final_scoring()

    def draw_for_turn(self) -> bool:
        """Draw for the active seat (R-BASE-3), discarding unplaceable tiles; sets the
        place decision. False when the stack is empty."""
        while self._stack:
            t = self._stack.pop()
            tile = self.catalogue.types[t].id
            options = self._options(t)
            if options is not None:
                self.turn += 1
                self._drawn, self._drawn_type = tile, t
                self.emit("draw", seat=self.seat, tile=tile)
                self.decision = Decision("place", self.seat, tile, options)
                return True
            # R-BASE-3: a tile that fits nowhere leaves the game; draw again
            self.emit("discard", turn=self.turn + 1, seat=self.seat, tile=tile)
        return False

    def figure_rules(self, seat: int) -> tuple:
        """The figure rules `seat` may use on the tile it places (R-BASE-4: a follower
        only from supply; R-MM-1/5/7)."""
        rules = (FOLLOWER_RULE,) if self.supply[seat] > 0 else ()
        if self.mm is not None:
            rules += mayors.placement_rules(self, seat)
        return rules

    def _options(self, t: int) -> TurnOptions | None:
        """The place decision's choices for tile type t, None if it fits nowhere."""
        rules = self.figure_rules(self.seat)
        tile = self.catalogue.types[t]
        rows = None
        if self.river is not None and is_river_tile(tile):
            # R-RIV-2: only placements that carry the river on, without a U-turn
            rows = tuple(r for r in self.board.turn_options(t, rules)[0]
                         if self.river.allows(self.catalogue.variant(t, r[2]), r[0], r[1]))
        cells = mayors.activating_cells(self) if self.mm is not None else ()
        if cells:  # RULES.md 6: the figure comes after step-1 activations there
            if rows is None:
                rows = tuple(self.board.turn_options(t, rules)[0])
            rows = tuple(r for r in rows if r[3] < 0 or (r[0], r[1]) not in cells)
        if rows is not None:
            return TurnOptions(self.board, t, rules, rows) if rows else None
        return TurnOptions(self.board, t, rules) if self.board.has_placement(t) else None

    def _apply_place(self, x: int, y: int, rot: int, figure: int, local: int) -> None:
        completed = self.board.place(self._drawn_type, x, y, rot)
        variant = self.catalogue.variant(self._drawn_type, rot)
        if self.river is not None and is_river_tile(variant):
            self.river.placed(variant, x, y)
        self.placed_index = len(self.board) - 1
        self.emit("place", seat=self.seat, tile=self._drawn, at=[x, y], rot=rot)
        if self.mm is not None:  # phase 1 activations come before the figure
            mayors.after_tile(self, x, y, completed, figure, local)
            return
        if figure >= 0:
            self.put_figure(self.seat, figure, self.placed_index * MAX_SEGS + local)
        # R-BASE-6: what this placement completed scores now, as one round of scoring
        self.agenda[0:0] = [("score", root) for root in completed] + [("end_round", "turn")]

    def put_figure(self, seat: int, kind: int, seg: int) -> int:
        """A figure from `seat`'s supply onto segment `seg` (placed this turn)."""
        fig = self.board.add_figure(seat, kind, mayors.STRENGTH[kind], seg, mayors.SCORES[kind])
        if kind == mayors.FOLLOWER:
            self.supply[seat] -= 1
        else:
            self.mm.players[seat].supply[kind] -= 1
            self.mm.players[seat].placed[kind] += 1
        x, y, where = self.board.segment_place(seg)
        self.emit("figure", seat=seat, figure=FIGURE_KINDS[kind], at=[x, y], where=where)
        if self.courier is not None and seat == self.seat:
            self.courier.moved_this_turn.append((fig, seg))
        return fig

    def return_figure(self, fig: int) -> None:
        """A figure off the board, back to its owner's supply."""
        info = self.board.figure(fig)
        self.board.remove_figure(fig)
        if self.courier is not None:
            self.courier.forget(fig)  # R-COU-4: its id may be reused by a figure placed later
        if info.kind == mayors.FOLLOWER:
            self.supply[info.player] += 1
        else:
            self.mm.players[info.player].supply[info.kind] += 1
            self.mm.riders.discard(fig)

    # ------------------------------------------------------------ scoring

    def _step_score(self, root: int) -> None:
        """Score one completed feature: majority (R-BASE-7) takes the full value; its
        figures then go back to supply."""
        winners, value, kind = self._score(root, final=False)
        for fig in self.board.figures_on(root):
            info = self.board.figure(fig)
            if info.kind == mayors.MESSENGER and kind == "road":
                self.mm.rides_due.append((info.player, fig, root))  # R-MM-6: may ride on
            else:
                self.return_figure(fig)
        self.agenda[0:0] = [("award", w, value, kind) for w in winners]

    def _score(self, root: int, final: bool) -> tuple[list[int], int, str]:
        f = self.board.feature(root)
        value = scoring.feature_value(self.board, f, final)
        counts, strengths = self.board.strength(root)
        winners = scoring.majority(counts[:self.rules.players], strengths[:self.rules.players])
        x, y, where = self.board.segment_place(root)
        if self.mm is not None:
            for fig in self.board.figures_on(root):
                info = self.board.figure(fig)
                if fig in self.mm.riders and info.player in winners:
                    self.mm.players[info.player].ride_points += value
        self.emit("score", feature=f.kind, at=[x, y], where=where, tiles=f.tiles, coats=f.coats,
                   complete=f.complete, final=final, points=value, winners=winners)
        return winners, value, f.kind

    def _step_award(self, seat: int, points: int, source: str) -> None:
        """Points from one source to one player (R-MSG-C1: one source, one figure)."""
        if points == 0:
            return  # R-BASE-10: a figure moves only by more than 0 points
        if self.msg is None:
            self._add_points(seat, points, source)
            return
        m = self.msg.players[seat]
        if self.msg.edition == "c3.1" and m.turn_figure >= 0:
            self._move_figure(seat, m.turn_figure, points, source)  # R-MSG-N1
            return
        self.pending = (seat, points, source)
        self.decision = Decision("scoring_figure", seat, "", messages.FIGURES,
                                 {"points": points, "source": source,
                                  "positions": tuple(m.position)})

    def _add_points(self, seat: int, points: int, source: str) -> None:
        self.scores[seat] += points
        self.points[seat][source] += points
        self.emit("points", seat=seat, points=points, source=source, total=self.scores[seat])

    def _move_figure(self, seat: int, figure: int, points: int, source: str) -> None:
        """Move one scoring figure (The Messages); the score is the figures' sum."""
        m = self.msg.players[seat]
        before = m.position[figure]
        m.position[figure] += points
        m.moves[figure] += 1
        if self.msg.edition == "c3.1":
            m.turn_figure = figure
        if seat == self.seat:
            self.msg.round_moved.add(figure)
        dark = messages.on_dark(m.position[figure])
        other_dark = messages.on_dark(m.position[1 - figure] + points)
        m.live += dark != other_dark  # the choice of figure decided a dark space
        self.emit("move", seat=seat, figure=messages.FIGURES[figure], points=points,
                   source=source, before=before, after=m.position[figure], dark=dark,
                   other_dark=other_dark)
        self._add_points(seat, points, source)

    def _step_end_round(self, kind: str) -> None:
        """End of a round of scoring: does the active seat draw a message?"""
        if self.msg is None:
            return
        moved, self.msg.round_moved = self.msg.round_moved, set()
        m = self.msg.players[self.seat]
        if self.msg.edition == "classic":
            # R-MSG-C2: only final positions count; one message even if both are dark.
            # R-MSG-C3: message points are a round of their own, so chains follow.
            hit = any(messages.would_trigger(self.msg, self.seat, m.position[f]) for f in moved)
        else:
            # R-MSG-N2: after the turn's scoring phase only; R-MSG-N3: once per turn
            hit = (kind == "turn" and self.msg.turn_messages == 0 and m.turn_figure >= 0
                   and messages.on_dark(m.position[m.turn_figure]))
        if hit:
            self.agenda.insert(0, ("draw_message",))

    # ------------------------------------------------------------ messages

    def _step_draw_message(self) -> None:
        """The active seat draws the top message (R-MSG-11: the deck cycles)."""
        action = self.msg.deck.pop(0)
        self.msg.in_hand = action
        self.msg.turn_messages += 1
        m = self.msg.players[self.seat]
        m.drawn[action] = m.drawn.get(action, 0) + 1
        self.emit("message_draw", seat=self.seat, action=action, number=self.msg.number(action))
        choices = message_actions.choices(self, self.seat, action)
        self.decision = Decision("messages", self.seat, "", tuple(c for c, _ in choices),
                                 {"action": action, "number": self.msg.number(action),
                                  "points": tuple(p for _, p in choices)})

    def _apply_message(self, choice) -> None:
        """R-MSG-8: the action or 2 points; the tile goes to the bottom of the deck."""
        action = self.msg.in_hand
        seat = self.seat
        points, target, extra = message_actions.resolve(self, seat, choice)
        self.msg.deck.append(action)
        self.msg.in_hand = None
        m = self.msg.players[seat]
        taken = choice[0] != messages.TWO_POINTS
        if taken:
            m.taken[action] = m.taken.get(action, 0) + 1
        m.points[action] = m.points.get(action, 0) + points
        self.emit("message", seat=seat, action=action, number=self.msg.number(action),
                   resolved="action" if taken else "2", points=points, target=target,
                   extra=extra)
        steps = [("award", seat, points, "message")]
        if self.msg.edition == "classic":
            steps.append(("end_round", "message"))  # R-MSG-C3
        if extra and self.msg.edition == "classic":
            steps.append(("extra_tile",))  # message 4: a turn part inside this turn
        elif extra:
            self._extra_turn = True  # c3.1 message 4: a whole turn after this one
        self.agenda[0:0] = steps

    def _step_courier(self) -> None:
        """R-COU-3/4: the thank-you message, at most once a turn."""
        hit = courier.qualifying(self.board, self.courier)
        if hit is None:
            return
        seat, seg, x, y = hit
        points = courier.thank_you_points(self.board, seg)
        _, _, where = self.board.segment_place(seg)
        self.emit("courier", seat=seat, at=[x, y], where=where, points=points,
                   came_from=None if self.courier.at is None else list(self.courier.at))
        self.courier.at = (x, y)
        # R-COU-5: a round of scoring of its own (classic: may bring a message)
        self.agenda[0:0] = [("award", seat, points, "courier"), ("end_round", "courier")]

    def _step_extra_tile(self) -> None:
        """Classic message 4: draw and place a tile as a full turn part, or instead place
        the town hall (R-MM-10)."""
        if self.mm is not None and mayors.offer_town_hall(self, extra_tile=True):
            return
        self.draw_for_turn()

    # ------------------------------------------------------------ end

    def final_scoring(self) -> None:
        """R-BASE-8: every feature still holding figures scores its final value.
        R-MSG-9: the two figures are added together first; no message is drawn."""
        self.turn += 1
        self.over = True
        self.emit("final")
        for root in self.board.occupied_features():
            winners, value, kind = self._score(root, final=True)
            for w in winners:
                if value:
                    self._add_points(w, value, kind)
        self.decision = None
        self.emit("end", scores=list(self.scores), winners=self.result()["winners"])


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


def _replay(rules, seed, stack, town_halls_at_end, history, upto_turn=None) -> Game:
    """A game rebuilt from (rules, seed) and its choices, all of them or up to the end
    of turn `upto_turn`."""
    g = Game(rules, seed, stack=None if stack is None else list(stack),
             town_halls_at_end=town_halls_at_end)
    for choice in history:
        if upto_turn is not None and (
                g.decision is None or (g.decision.kind == "place" and g.turn > upto_turn)):
            break
        g.apply(choice)
    return g


def _rebuild(rules, seed, stack, history, seat_states, town_halls_at_end=True):
    g = _replay(rules, seed, stack, town_halls_at_end, history)
    for s, state in zip(g._seat_streams, seat_states):
        s.state = state
    return g


MM_STEPS = {"activate": mayors.step_activate, "place_figure": mayors.step_place_figure,
            "figure_options": mayors.step_figure_options, "rides": mayors.step_rides,
            "ride": mayors.step_ride}
MM_DECISIONS = {"town_hall": mayors.apply_town_hall, "favour": mayors.apply_favour,
                "scarecrow": mayors.apply_scarecrow, "ride": mayors.apply_ride,
                "figure": mayors.apply_figure}
