"""The reference turn machine: a whole game written as one generator.

The game is plain code from the first turn to final scoring; where a player decides,
it yields a Decision and is resumed with the choice. Decisions, choices and events
use the production engine's vocabulary (sim/engine/game.py's module docstring), so that the
two engines can be compared action by action (sim/games/differential.py). The caller gives
the tile stack and the message deck in draw order: this engine has no random numbers.

A turn (RULES.md section 6):
1. with Messengers & Mayors the town hall instead of drawing (R-MM-10), else draw
   until a tile fits (R-BASE-3); crisis meetings (R-MM-11), then the activations of
   mayors and standing scarecrows the tile surrounded (R-MM-2, R-MM-8);
2. one figure on the tile just placed (R-BASE-4, R-MM-1/5/7, R-ABB-3), or the abbot
   taken back (R-ABB-5), chosen with the tile unless step 1 had activations, then
   chosen after them ("figure" decision);
3. completed features score (R-BASE-6/7), messenger rides (R-MM-6), messages
   (R-MSG-C2/C3, R-MSG-N2/N3);
4. the Courier's thank-you (R-COU-3).
"""

from __future__ import annotations

import copy
from typing import NamedTuple

from sim.errors import IllegalMove, InputError
from sim.reference import abbot, courier, mayors, messages, scoring
from sim.reference.board import ABBOT, FIGURE_KINDS, FOLLOWER, MAYOR, SCARECROW, Board
from sim.reference.river import River
from sim.reference.tiles import SEGMENTS_PER_TILE as STRIDE
from sim.reference.tiles import TOWN_HALL, sets_for, tile_types

PLACING = {**mayors.PLACING, **abbot.PLACING}  # kind -> (segment kinds, free feature only)
STRENGTH = {**mayors.STRENGTH, **abbot.STRENGTH}


class Decision(NamedTuple):
    kind: str  # place, figure, scoring_figure, messages, town_hall, favour, scarecrow, ride
    seat: int
    tile: str
    choices: tuple
    info: dict | None = None


def stack_problem(rules, stack: list[str]) -> str | None:
    """What is wrong with a seeded game's tile stack (draw order, start tile excluded),
    by the setup rulings, or None: R-BASE-2 every tile of the sets once, but one copy
    of the start tile; R-RIV-1 with the River the spring starts instead, the river tiles
    come first and the lake last among them; R-MM-0 the Messengers & Mayors river tile
    only with the River; R-COU-1 the letter tiles shuffled in; R-ABB-1 the garden
    tiles each instead of one copy of their base tile. The message deck is
    checked by sorted contents (R-MSG-11: all 8 actions once)."""
    exp = rules.expansions
    by_id = tile_types(sets_for(exp), dict(getattr(rules, "tiles", ())))
    types = [t for t in by_id.values() if t.id != TOWN_HALL]
    if "river" not in exp:
        types = [t for t in types if not t.river]
    start = next(t for t in types if t.has("spring" if "river" in exp else "start"))
    want = {t.id: t.count - (t is start) for t in types}
    got: dict[str, int] = {}
    for tid in stack:
        got[tid] = got.get(tid, 0) + 1
    if got != {k: v for k, v in want.items() if v}:
        diff = sorted(k for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0))
        return (f"tile stack: counts differ for {', '.join(diff)} "
                "(R-BASE-2, R-RIV-1, R-MM-0, R-COU-1, R-ABB-1)")
    rivers = sum(v for k, v in want.items() if next(t for t in types if t.id == k).river)
    head = [by_id[tid] for tid in stack[:rivers]]
    if not all(t.river for t in head) or (head and not head[-1].has("lake")):
        return "tile stack: the river tiles do not come first with the lake last (R-RIV-1)"
    return None


class RefGame:
    def __init__(self, rules, stack: list[str], deck: list[str] | None = None, *,
                 town_halls_at_end: bool = True):
        """`rules`: a sim.engine.rules.Rules; `stack`: tile ids in draw order; `deck`: the
        message deck from the top (with The Messages). `town_halls_at_end` False: a
        scripted game (SCRIPTS.md), whose forced town halls (R-MM-12) may be declined
        with "end", which ends the game."""
        self.rules = rules
        self.players = n = rules.players  # R-BASE-1: 2-6
        exp = rules.expansions
        self.types = tile_types(sets_for(exp), dict(getattr(rules, "tiles", ())))
        for i, tid in enumerate(stack, 1):
            if tid not in self.types:
                raise InputError(f"tile {i} of the stack: unknown tile id {tid!r}")
        self.stack = list(stack)  # top first
        # R-BASE-8: 3 points per completed city, unless the rules' variant says otherwise
        variant = dict(getattr(rules, "variant", ()))
        self.board = Board(variant.get("farm_points", 3))
        self.supply = [rules.followers] * n
        self.scores = [0] * n
        self.points = [dict.fromkeys(scoring.SOURCES, 0) for _ in range(n)]
        self.msg = None
        if "messages" in exp:
            o = rules.messages
            # R-MSG-8's 2 points and R-BASE-10's spacing of 5, unless the variant says otherwise
            self.msg = messages.MessageState(o.edition, o.zmg_alone, n, deck or [],
                                             variant.get("two_points", 2), variant.get("dark_every", 5))
        self.mm = mayors.MayorState(n) if "mayors" in exp else None
        self.courier = courier.CourierState() if "courier" in exp else None
        self.abbot = abbot.AbbotState(n) if "abbot" in exp else None
        # R-BASE-2 / R-RIV-1: the start tile, or the spring with the River
        mark = "spring" if "river" in exp else "start"
        self.start = next(t for t in self.types.values() if t.has(mark))
        self.river = River(self.start) if "river" in exp else None
        self.events: list[dict] = []
        self.turn = 0
        self.seat = n - 1
        self.extra_turn = False
        self.town_halls_at_end = town_halls_at_end
        self.ended = False  # a scripted game's "end"
        self.over = False
        self.decision: Decision | None = None
        self._flow = self._game()
        self._resume(None)

    # ------------------------------------------------------------ contract

    def apply(self, choice) -> None:
        if self.decision is None or choice not in self.decision.choices:
            raise IllegalMove(f"turn {self.turn}: {choice!r} is not a legal choice")
        self._resume(choice)

    def _resume(self, choice) -> None:
        try:
            self.decision = self._flow.send(choice)
        except StopIteration:
            self.decision = None

    def ask(self, kind: str, seat: int, tile: str, choices, info=None) -> Decision:
        return Decision(kind, seat, tile, tuple(choices), info)

    def emit(self, kind: str, turn: int | None = None, **data) -> None:
        self.events.append({"e": kind, "turn": self.turn if turn is None else turn, **data})

    def result(self) -> dict:
        """R-BASE-9: scores, ranks (1 + players strictly ahead), points by source, all
        tied leaders win; with The Messages the figures at the end of play; the
        statistics of The Messages, Messengers & Mayors and the Abbot (copies)."""
        top = max(self.scores)
        out = {"players": [], "winners": [s for s, v in enumerate(self.scores) if v == top]}
        for s, v in enumerate(self.scores):
            p = {"seat": s, "score": v, "rank": 1 + sum(o > v for o in self.scores),
                 "points": dict(self.points[s])}
            if self.msg is not None:
                p["scoring_meeple"], p["messenger"] = self.msg.figures[s]
                p["messages"] = copy.deepcopy(self.msg.stats[s])
            if self.mm is not None:
                p["mayors"] = copy.deepcopy(self.mm.stats[s])
            if self.abbot is not None:
                p["abbot"] = {"supply": self.abbot.supply[s], **self.abbot.stats[s]}
            out["players"].append(p)
        return out

    # ------------------------------------------------------------ the game

    def _game(self):
        self.board.place(self.start, 0, 0, 0)
        self.emit("start", tile=self.start.id, at=[0, 0], rot=0)
        while True:
            if self.extra_turn:  # c3.1 message 4: the same seat again
                self.extra_turn = False
            else:
                self.seat = (self.seat + 1) % self.players
            if self.msg is not None:
                self.msg.new_turn()  # R-MSG-N1: each turn a new choice of figure
            if self.courier is not None:
                self.courier.moved = []
            if not (yield from self.turn_part(extra=False)):
                holder = self._town_hall_holder()
                if holder is None:
                    break  # R-BASE-8 / R-MM-12: nobody can place anything
                self.seat = holder  # R-MM-12: the others pass
                yield from self._forced_town_hall()
            if self.ended:
                break
            if self.courier is not None:
                yield from courier.thank_you(self)  # phase 4
        self._final_scoring()

    def _town_hall_holder(self) -> int | None:
        """R-MM-12: with the stack empty, the next seat from the active one that still
        holds its town hall (never while the river flows, R-RIV-2)."""
        if self.mm is None or (self.river is not None and self.river.flowing):
            return None
        for k in range(self.players):
            seat = (self.seat + k) % self.players
            if self.mm.town_hall[seat]:
                return seat
        return None

    def _forced_town_hall(self):
        """R-MM-12: the town hall now; a scripted game may end instead."""
        cell = yield self.ask("town_hall", self.seat, "townhall",
                              (() if self.town_halls_at_end else ("end",)) + mayors.town_hall_cells(self))
        if cell == "end":
            self.ended = True
        else:
            yield from mayors.place_town_hall(self, *cell)

    def turn_part(self, extra: bool):
        """Place one tile: the town hall, or the next tile that fits. False if there
        was nothing to place."""
        if self.mm is not None and mayors.may_offer_town_hall(self, extra):
            cells = mayors.town_hall_cells(self)
            choice = yield self.ask("town_hall", self.seat, "townhall",
                                    (("draw",) if self.stack else ()) + cells)
            if choice == "draw":
                drawn = self._draw()
                if drawn is not None:
                    yield from self._place_drawn(*drawn)
                    return True
                if extra:
                    return False  # a classic extra tile: the turn goes on
                yield from self._forced_town_hall()  # R-MM-12: nothing else was left
                return True
            yield from mayors.place_town_hall(self, *choice)
            return True
        drawn = self._draw()
        if drawn is None:
            return False
        yield from self._place_drawn(*drawn)
        return True

    def _draw(self):
        """R-BASE-3: draw until a tile fits somewhere; unplaceable ones leave the game."""
        while self.stack:
            tile = self.types[self.stack.pop(0)]
            rows = self._place_rows(tile)
            if rows:
                self.turn += 1
                self.emit("draw", seat=self.seat, tile=tile.id)
                return tile, rows
            self.emit("discard", turn=self.turn + 1, seat=self.seat, tile=tile.id)
        return None

    def _kinds_in_supply(self) -> list[int]:
        kinds = [FOLLOWER] if self.supply[self.seat] > 0 else []  # R-BASE-4: from supply
        if self.mm is not None:
            kinds += [k for k in (MAYOR, mayors.MESSENGER, SCARECROW) if self.mm.supply[self.seat][k] > 0]
        if self.abbot is not None and self.abbot.supply[self.seat] > 0:
            kinds.append(ABBOT)  # R-ABB-3
        return kinds

    def _may_recall(self) -> bool:
        """R-ABB-5: the active seat's abbot stands on the board."""
        return self.abbot is not None and abbot.on_board(self, self.seat) is not None

    def _fits_figure(self, kind: int, seg_kind: str, free: bool) -> bool:
        kinds, needs_free = PLACING[kind]
        return seg_kind in kinds and (free or not needs_free)

    def _place_rows(self, tile) -> list[tuple]:
        """(x, y, rotation, figure, segment) rows: every placement (R-BASE-3; R-RIV-2
        for a river tile), its no-figure row first, then per segment and figure kind
        the figures allowed on it (R-BASE-4: a free feature where the kind needs one);
        after all of them, the abbot taken back with each placement whose figure is
        chosen with the tile (R-ABB-5)."""
        rows, recalls = [], []
        kinds = self._kinds_in_supply()
        busy = self.board.busy_features()
        wait = mayors.activating_cells(self) if self.mm is not None else set()
        for x, y, r in self.board.placements(tile):
            turned = tile.turned(r)
            if self.river is not None and turned.river and not self.river.allows(turned, x, y):
                continue
            rows.append((x, y, r, -1, -1))
            if (x, y) in wait:
                continue  # step 1 first: the figure is chosen after the activations
            recalls.append((x, y, r, ABBOT, abbot.RECALL))
            for local, (s, joins) in enumerate(zip(turned.segs, self.board.would_join(turned, x, y))):
                free = not (joins & busy)
                rows += [(x, y, r, kind, local) for kind in kinds if self._fits_figure(kind, s.kind, free)]
        return rows + (recalls if self._may_recall() else [])

    def _figure_options(self, index: int) -> tuple:
        """Step 2 after activations: (figure, segment) pairs on the tile as the board
        now stands, (-1, -1) first, taking the abbot back last (R-ABB-5)."""
        out = [(-1, -1)]
        for local, s in enumerate(self.board.placed[index].tile.segs):
            free = not self.board.occupied(index * STRIDE + local)
            out += [(kind, local) for kind in self._kinds_in_supply()
                    if self._fits_figure(kind, s.kind, free)]
        if self._may_recall():
            out.append((ABBOT, abbot.RECALL))
        return tuple(out)

    def _place_drawn(self, tile, rows):
        x, y, r, kind, local = yield self.ask("place", self.seat, tile.id, rows)
        index = self.board.place(tile, x, y, r)
        turned = self.board.placed[index].tile
        if self.river is not None and turned.river:
            self.river.follow(turned, x, y)
        self.emit("place", seat=self.seat, tile=tile.id, at=[x, y], rot=r)
        completed = self.board.completed_by(index)
        if self.mm is not None:
            surrounded = mayors.activating(self, x, y)
            for fid in surrounded:  # step 1
                yield from mayors.activate(self, fid)
            if surrounded:  # step 2, on the board step 1 left
                options = self._figure_options(index)
                kind, local = (yield self.ask("figure", self.seat, tile.id, options)) \
                    if len(options) > 1 else (-1, -1)
        if (kind, local) == (ABBOT, abbot.RECALL):
            yield from abbot.recall(self)  # R-ABB-5, instead of placing a figure
        elif kind >= 0:
            fid = self.put_figure(self.seat, kind, index * STRIDE + local)
            if kind in (MAYOR, SCARECROW) and self.board.sides(x, y) == 4:
                yield from mayors.activate(self, fid)  # R-MM-2/8: at once on a surrounded tile
        yield from self.scoring_phase(completed)

    # ------------------------------------------------------------ figures and points

    def put_figure(self, seat: int, kind: int, seg: int) -> int:
        fid = self.board.put(seat, kind, STRENGTH[kind], kind != SCARECROW, seg)
        if kind == FOLLOWER:
            self.supply[seat] -= 1
        elif kind == ABBOT:
            self.abbot.supply[seat] -= 1
            self.abbot.stats[seat]["placed"] += 1
        else:
            self.mm.supply[seat][kind] -= 1
            self.mm.stats[seat]["placed"][FIGURE_KINDS[kind]] += 1
        x, y, where = self.board.place_of(seg)
        self.emit("figure", seat=seat, figure=FIGURE_KINDS[kind], at=[x, y], where=where)
        self.moved(fid, seg)
        return fid

    def moved(self, fid: int, seg: int) -> None:
        if self.courier is not None:
            self.courier.moved.append((fid, seg))  # R-COU-4: in the order placed or moved

    def forget(self, fid: int) -> None:
        """R-COU-4: a figure that left the board no longer counts as placed or moved (a
        figure put down later may get its id)."""
        if self.courier is not None:
            self.courier.moved = [(f, s) for f, s in self.courier.moved if f != fid]

    def return_figure(self, fid: int) -> None:
        self.forget(fid)
        fig = self.board.take(fid)
        if fig.kind == FOLLOWER:
            self.supply[fig.player] += 1
        elif fig.kind == ABBOT:
            self.abbot.supply[fig.player] += 1
        else:
            self.mm.supply[fig.player][fig.kind] += 1
            self.mm.riders.discard(fid)

    def add_points(self, seat: int, points: int, source: str) -> None:
        self.scores[seat] += points
        self.points[seat][source] += points
        self.emit("points", seat=seat, points=points, source=source, total=self.scores[seat])

    def _score(self, f, final: bool) -> tuple[list[int], int]:
        value = scoring.value(self.board, f, final)
        winners = scoring.majority(self.board, f, self.players)
        if self.mm is not None:  # statistics: points won by messengers that rode here
            for fid in self.board.figures_on(f.name):
                if fid in self.mm.riders and self.board.figures[fid].player in winners:
                    self.mm.stats[self.board.figures[fid].player]["ride_points"] += value
        x, y, where = self.board.place_of(f.name)
        self.emit("score", feature=f.kind, at=[x, y], where=where, tiles=f.tiles, coats=f.coats,
                  complete=f.complete, final=final, points=value, winners=winners)
        return winners, value

    def scoring_phase(self, completed: list[int]):
        """Phase 3: every completed feature scores and its figures go home (R-BASE-6/7),
        a messenger on a road stays for its ride (R-MM-6); then the rides, clockwise
        from the active player; then the end of the round (messages)."""
        rides = []
        for name in completed:
            f = self.board.feature(name)
            winners, value = self._score(f, final=False)
            for fid in self.board.figures_on(name):
                fig = self.board.figures[fid]
                if fig.kind == mayors.MESSENGER and f.kind == "road":
                    rides.append((fig.player, fid, list(f.segs)))
                else:
                    self.return_figure(fid)
            for w in winners:
                yield from messages.award(self, w, value, f.kind)
        for seat in mayors.clockwise({p for p, _, _ in rides}, self.seat, self.players):
            for p, fid, segs in rides:
                if p == seat:
                    yield from mayors.ride(self, fid, segs)
        yield from messages.end_of_round(self, "turn")

    def _final_scoring(self):
        """R-BASE-8, R-MSG-9: every occupied feature at its final value; no message."""
        self.turn += 1
        self.over = True
        self.emit("final")
        for name in self.board.occupied_features():
            f = self.board.feature(name)
            winners, value = self._score(f, final=True)
            for w in winners:
                if value:
                    self.add_points(w, value, f.kind)
        self.emit("end", scores=list(self.scores), winners=self.result()["winners"])
