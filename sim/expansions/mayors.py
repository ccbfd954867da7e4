"""Messengers & Mayors (C3.1, 2025): RULES.md section 3, tiles R-MM-0 (TILES.md 4.2).

Each player gets a mayor, a messenger meeple, a scarecrow and a town hall.

R-MM-1   A mayor goes on a city segment of the tile just placed, occupied or not.
R-MM-2   Knight's favour: when a placement leaves a mayor's tile surrounded on its four
         sides, its owner may replace one opponent's standard follower in that city
         with one of theirs from supply; the mayor then goes home either way.
R-MM-3/4 A mayor has strength 0; it scores (and shares) only when nobody present has
         more; it goes home after its city is scored and takes part in final scoring.
R-MM-5/6 The messenger meeple goes on a free road (strength 1). After its road is
         scored its owner returns it or lets it ride on from an end of that road, to an
         incomplete road ending at the same junction of the same tile, or into the
         incomplete city the road ends in, on any tile of it.
R-MM-7/8 A scarecrow goes on a field segment, occupied or not; a field holding one is
         occupied for farmers. Surrounded, its owner puts a follower there as a farmer
         (if one is in supply) and takes the scarecrow back, lays it down (a farmer of
         strength 1 for good), or takes it back.
R-MM-9   A standing scarecrow never scores and never holds a majority.
R-MM-10  Instead of drawing, a town hall may be placed next to any tile, fitting every
         neighbour; no figure ever stands on it; it closes what it touches, joins no
         field, is part of no road or city, and surrounds a monastery without adding to
         its points (a monastery completed with a town hall scores 8).
R-MM-11  Crisis meeting: placing a town hall sends the mayors on the four tiles next to
         it home without acting.
R-MM-12  With the stack empty, a player still holding the town hall must place it on
         their turn, the others pass; the game ends when every town hall is placed.
R-MM-13  What a town hall completes scores in that turn's phase 3.

The C game plays these rules (sim/csrc/mayors.c; the figures' placement rules are
its mayors_rule); this module is the expansion's one Python unit: its declaration, the
figure kinds (as C names them), the decoders of its slice of the result row, of its
events and decisions, its log lines, view snapshot (view.mayors), greedy's parameters
for its decisions, its scripted turns' keys and answers, its record columns and its
pictures (figure shapes, the town hall). The rule queries Python needs are C's:
Board.activating_cells (scripted games, sim/games/script.py) and Board.ride_targets
(the counterfactual road forks' statistics, sim/tournament/counterfactual.py). Turn order (RULES.md 6 with R-MM-2/8): favours and scarecrow activations happen in
step 1, right after the tile is placed, and the figure options of step 2 are computed
after them. A placement that surrounds a mayor's or a standing scarecrow's tile
(Board.activating_cells) is therefore offered without a figure, and after the activations
the active seat answers a "figure" decision of its own; every other placement keeps
its figure rows, as nothing can change between choosing and placing them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sim.core import lib, names
from sim.errors import InputError, quote
from sim.expansions.declaration import (ROW_MAYORS, ROW_MM_SUPPLY, ROW_TOWN_HALL, DecisionKind, Expansion,
                                        Mark, Scripting, Shape, where)
from sim.formats.tiles import ANY_EDGE, Tile
from sim.text import text_list

# figure kind codes in the C core (CC_FIG_*) and their names as C gives them
FOLLOWER, MAYOR, MESSENGER, SCARECROW = (lib.CC_FIG_FOLLOWER, lib.CC_FIG_MAYOR, lib.CC_FIG_MESSENGER,
                                         lib.CC_FIG_SCARECROW)
KIND_NAMES = names(lib.CC_NAMES_FIGURE)
TOWN_HALL_ID = "townhall"


# R-MM-10: fits every neighbour, holds no segment (no figure, no road, city or field)
TOWN_HALL = Tile(TOWN_HALL_ID, 1, ANY_EDGE * 4, (), ("townhall",), "built-in")
SCARECROW_CHOICES = names(lib.CC_NAMES_SCARECROW)  # R-MM-8, in the C core's order (MM_SC_*)

MAYORS_COLUMNS = ("placed_mayor", "placed_messenger", "placed_scarecrow", "favours",
                  "scarecrow_farmer", "scarecrow_lie", "scarecrow_return", "rides", "ride_points",
                  "town_hall_turn")


COLUMN_DOCS = (
    (("placed_mayor", "placed_messenger", "placed_scarecrow"), "placements",
     "Messengers & Mayors: how often each figure was placed"),
    (("favours",), "favours", "knight's favours used (R-MM-2)"),
    (("scarecrow_farmer", "scarecrow_lie", "scarecrow_return"), "choices",
     "surrounded-scarecrow choices of each kind (R-MM-8)"),
    (("rides",), "rides", "messenger-meeple rides (R-MM-6)"),
    (("ride_points",), "points", "points the seat won with features a ridden "
     "messenger meeple stood in"),
    (("town_hall_turn",), "turn number", "the turn the seat placed its town hall; 0 = "
     "never (turn 0 is the start tile)"),
)


def _mayors_row(p: dict) -> dict:
    mm = p["mayors"]
    row = {f"placed_{k}": v for k, v in mm["placed"].items()}
    row.update({f"scarecrow_{k}": v for k, v in mm["scarecrows"].items()})
    row.update({k: mm[k] for k in ("favours", "rides", "ride_points", "town_hall_turn")})
    return row


# the state Game.mm gives (read by sim/engine/view.py and the differential harness)
class _MayorsSeat(NamedTuple):
    supply: dict  # figure kind code -> in supply (mayor, messenger, scarecrow)
    town_hall: bool  # still in hand


class _Mayors(NamedTuple):
    players: list  # per seat _MayorsSeat, as Game.mm.players


def _mayors_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    cfg.town_hall_type = catalogue.index[TOWN_HALL_ID]  # R-MM-10
    cfg.town_halls_at_end = int(town_halls_at_end)  # R-MM-12 (False: a script ends the game)


def _mayors_result(rules, r: list[int]) -> dict:
    mm = r[ROW_MAYORS]  # MAYORS_COLUMNS' order
    return {"mayors": {"placed": dict(zip(KIND_NAMES[1:], mm[0:3])), "favours": mm[3],
                       "scarecrows": dict(zip(SCARECROW_CHOICES, mm[4:7])), "rides": mm[7],
                       "ride_points": mm[8], "town_hall_turn": mm[9]}}


def _mayors_state(game) -> _Mayors:
    """Game.mm: per seat the figures in supply and the town hall in hand."""
    return _Mayors([_MayorsSeat(dict(enumerate(r[ROW_MM_SUPPLY], 1)), bool(r[ROW_TOWN_HALL]))
                    for r in game.result_rows()])


# ---------------------------------------------------------------- the view's snapshot

@dataclass(frozen=True)
class MayorsSeat:
    mayor: int  # figures in supply
    messenger: int
    scarecrow: int
    town_hall: bool  # still in hand (R-MM-10/12)


@dataclass(frozen=True)
class MayorsView:
    """view.mayors: per seat mayor, messenger meeple and scarecrow in supply, town hall
    in hand."""

    seats: tuple[MayorsSeat, ...]


def _view(game) -> MayorsView:
    return MayorsView(tuple(MayorsSeat(p.supply[MAYOR], p.supply[MESSENGER], p.supply[SCARECROW],
                                       bool(p.town_hall)) for p in game.mm.players))


def _mayors_batch(rules, res) -> dict:
    return {c: res[:, :, ROW_MAYORS.start + i].ravel() for i, c in enumerate(MAYORS_COLUMNS)}


# ---------------------------------------------------------------- decisions and policies

# its decisions by cc_game_decision kind (C's names), and the words of their rows (C's
# names of CC_MM_*; a cell and a target are read as values instead)
MM_DECISIONS = {k: names(lib.CC_NAMES_DECISION)[k]
                for k in (lib.CC_DEC_TOWN_HALL, lib.CC_DEC_FAVOUR, lib.CC_DEC_SCARECROW,
                          lib.CC_DEC_RIDE, lib.CC_DEC_FIGURE)}
MM_WORDS = {code: word for code, word in enumerate(names(lib.CC_NAMES_MM_WORD))
            if code not in (lib.CC_MM_CELL, lib.CC_MM_TARGET)}


class FigureChoice(NamedTuple):
    """The figure decision's choice after step-1 activations (RULES.md 6): a figure of
    kind `figure` on local segment `segment` of the tile just placed, (-1, -1) none, or
    an action (segment below -1, R-ABB-5). Equal to the raw pair."""

    figure: int
    segment: int


class Cell(NamedTuple):
    """A town hall's cell (R-MM-10). Equal to the raw (x, y)."""

    x: int
    y: int


def _cell(choice):
    return Cell._make(choice) if isinstance(choice, tuple) else choice


def _choice(game, kind: int, v) -> object:
    """A choice in Game's words (core.h CC_MM_*) from its code and values: a figure
    decision's (figure, segment), a cell (x, y), a target (a figure id for a favour, a
    segment for a ride) or a word."""
    code, a, b = v[0], v[1], v[2]
    if kind == lib.CC_DEC_FIGURE:
        return (code, a)
    if code == lib.CC_MM_CELL:
        return (a, b)
    if code == lib.CC_MM_TARGET:
        return a
    return MM_WORDS[code]


def _decision(game, kind: int, tile: int, info, rows) -> tuple:
    """RULES.md 6, R-MM-2/6/8/10: the figure decision after step-1 activations (on the
    tile just placed), town hall, favour, scarecrow and ride: rows of 5 ints."""
    flat = rows(5)
    codes, a, b = flat[0::5], flat[1::5], flat[2::5]  # a town hall's ~40 cells: one pass
    if kind == lib.CC_DEC_FIGURE:
        choices = tuple(zip(codes, a))
    elif codes.count(lib.CC_MM_CELL) == len(codes):  # a town hall's cells
        choices = tuple(zip(a, b))
    else:
        cell, target = lib.CC_MM_CELL, lib.CC_MM_TARGET
        choices = tuple((x, y) if c == cell else x if c == target else MM_WORDS[c]
                        for c, x, y in zip(codes, a, b))
    return MM_DECISIONS[kind], "" if tile < 0 else game.catalogue.types[tile].id, choices, None


def _road_figure(greedy) -> int:
    """cc_seat_policy.road_figure of a greedy policy: 0 none, else 1 + the figure kind."""
    return 0 if greedy.road_figure is None else 1 + greedy.road_figure


def _policy(out, kind: str, code: int, policy, edition: str) -> None:
    """Greedy's road_figure swap (the messenger-or-meeple question) in place and figure
    decisions, and its weights for the figure decision after activations."""
    if code == lib.CC_POL_GREEDY and kind == "place":
        out.road_figure[0] = _road_figure(policy)
    elif code == lib.CC_POL_GREEDY and kind == "figure":
        out.figure_weight = policy.open_weight
        out.figure_opponent, out.figure_follower = policy.opponent, policy.follower
        out.road_figure[1] = _road_figure(policy)


# ---------------------------------------------------------------- events and their log lines

def _cell_event(game, seat: int, v: list[int]) -> dict:
    """A town hall is placed (R-MM-10), or a mayor goes home from a crisis meeting
    (R-MM-11): {seat, at}."""
    return {"seat": seat, "at": [v[0], v[1]]}


def _favour_event(game, seat: int, v: list[int]) -> dict:
    """A knight's favour (R-MM-2): {seat, target}: the replaced follower's tile, None
    when unused."""
    return {"seat": seat, "target": where(game, v[1])[0] if v[0] else None}


def _scarecrow_event(game, seat: int, v: list[int]) -> dict:
    """A surrounded scarecrow (R-MM-8): {seat, choice, at}."""
    return {"seat": seat, "choice": SCARECROW_CHOICES[v[0]], "at": where(game, v[1])[0]}


def _ride_event(game, seat: int, v: list[int]) -> dict:
    """The messenger meeple rides on (R-MM-6): {seat, to, where}; to None: it goes home."""
    if v[0]:
        at, name = where(game, v[1])
        return {"seat": seat, "to": at, "where": name}
    return {"seat": seat, "to": None}


def _town_hall_line(e: dict, turn: str) -> str:
    x, y = e["at"]
    return f"{turn}  seat {e['seat']}  town hall @{x},{y}"


def _crisis_line(e: dict, turn: str) -> str:
    x, y = e["at"]
    return f"{turn}  seat {e['seat']}  mayor @{x},{y} goes home: crisis meeting"


def _favour_line(e: dict, turn: str) -> str:
    what = f"replaces the follower @{e['target'][0]},{e['target'][1]}" if e["target"] else "unused"
    return f"{turn}  seat {e['seat']}  mayor's favour {what}; the mayor goes home"


def _scarecrow_line(e: dict, turn: str) -> str:
    x, y = e["at"]
    return f"{turn}  seat {e['seat']}  scarecrow @{x},{y}: {e['choice']}"


def _ride_line(e: dict, turn: str) -> str:
    if e["to"] is None:
        return f"{turn}  seat {e['seat']}  messenger goes home"
    return f"{turn}  seat {e['seat']}  messenger rides to {e['where']} @{e['to'][0]},{e['to'][1]}"


# ---------------------------------------------------------------- pictures

def _mayor_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The mayor: a diamond."""
    return (f"<path d='M{x:.1f},{y - 9:.1f} l8,9 l-8,9 l-8,-9 Z' fill='{colour}' stroke='#fff' "
            f"stroke-width='1.5'/>")


def _messenger_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The messenger meeple: a triangle."""
    return (f"<path d='M{x:.1f},{y - 8:.1f} l8,14 h-16 Z' fill='{colour}' stroke='#fff' "
            f"stroke-width='1.5'/>")


def _scarecrow_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The scarecrow: a cross standing, a bar lying down (R-MM-8)."""
    if lying:
        return f"<rect x='{x - 9:.1f}' y='{y - 3:.1f}' width='18' height='6' fill='{colour}' stroke='#fff'/>"
    return (f"<path d='M{x - 6:.1f},{y - 6:.1f} l12,12 M{x + 6:.1f},{y - 6:.1f} l-12,12' "
            f"stroke='{colour}' stroke-width='4'/>")


def _town_hall_mark(tile, size: float) -> str:
    return (f"<rect x='8' y='8' width='{size - 16}' height='{size - 16}' fill='#888' stroke='#333'/>"
            f"<text x='{size / 2}' y='{size / 2 + 4}' font-size='12' text-anchor='middle' "
            f"fill='#fff'>TH</text>")


SHAPES = {"mayor": Shape(_mayor_shape, (("mayor", False),)),
          "messenger": Shape(_messenger_shape, (("messenger meeple", False),)),
          "scarecrow": Shape(_scarecrow_shape, (("scarecrow", False), ("scarecrow lying", True)),
                             lies=True)}
TOWN_HALL_MARK = Mark(lambda t: t.id == TOWN_HALL_ID, _town_hall_mark,
                      "<rect x='2' y='2' width='24' height='24' fill='#888' stroke='#333'/><text x='14' "
                      "y='18' font-size='10' text-anchor='middle' fill='#fff'>TH</text>", "TH: a town hall",
                      layer="alone")


# ---------------------------------------------------------------- scripted games

def _script_read(t: dict, where: str, rules) -> dict:
    """favour, ride and scarecrow of one scripted turn; a town hall turn takes only `at`."""
    keys = {k: text_list(t, k, where, allowed) for k, allowed in
            (("favour", None), ("ride", None), ("scarecrow", ("farmer", "lie", "return")))}
    if t.get("tile") == TOWN_HALL_ID and (t.get("figure") or t.get("discarded") or t.get("rotation")):
        raise InputError(f"{where}: a town hall turn takes only `at` (no rotation, figure or "
                         f"discarded tiles)")
    return keys


def _script_town_hall(player, game, d):
    """Before a turn's draw (R-MM-10): the scripted turn says town hall or tile."""
    n = game.turn  # the turn about to start is number n + 1
    if n >= len(player.script.turns):
        return "end"  # the script is over: town halls in hand stay there
    turn = player.script.turns[n]
    head = f"{player.script.path}: turn {n + 1}"
    if turn.tile != TOWN_HALL_ID:
        if "draw" not in d.choices:
            raise InputError(f"{head}: tile {turn.tile}: no tile is left to draw; only a "
                             f"town hall can be placed now")
        return "draw"
    if turn.at not in d.choices:
        raise InputError(f"{head}: town hall at {turn.at}: expected a cell next to a placed "
                         f"tile (R-MM-10)")
    return turn.at


def _script_decision(player, game, d):
    """favour = "x,y" | "none"; ride = "return" | "road S @x,y" | "city @x,y";
    scarecrow = "farmer" | "lie" | "return"; lists in the order they resolve."""
    given = player.turn(game).keys[d.kind]
    n = player.next(game, d.kind)
    if n >= len(given):
        return player.policies.choose(game, d)
    text = given[n].strip()
    head = f"{player.where(game)}: {d.kind} = {quote(text)}"
    if d.kind == "scarecrow":
        if text not in d.choices:
            raise InputError(f"{head}: expected one of {', '.join(d.choices)} (R-MM-8)")
        return text
    if text in ("none", "return"):
        if text not in d.choices:
            raise InputError(f"{head}: expected {d.choices[0]!r} or a target")
        return text
    try:
        if d.kind == "favour":
            x, y = (int(v) for v in text.split(","))
            name = None
        else:
            name, _, xy = text.partition("@")
            x, y = (int(v) for v in xy.split(","))
            name = name.strip()
    except ValueError:
        raise InputError(f"{head}: expected " + ('"x,y" or "none"' if d.kind == "favour" else
                         '"return", "road S @x,y" or "city @x,y"')) from None
    for c in d.choices[1:]:
        seg = game.board.figure(c).segment if d.kind == "favour" else c
        cx, cy, cwhere = game.board.segment_place(seg)
        if (cx, cy) == (x, y) and (name is None or cwhere == name or cwhere.split()[0] == name):
            return c
    raise InputError(f"{head}: not among the legal targets (R-MM-2/R-MM-6)")


def _script_unused(keys: dict, asked: dict) -> str | None:
    """An answer past the favour, ride or scarecrow decisions the turn asked would do
    nothing."""
    for kind in ("favour", "ride", "scarecrow"):
        if len(keys[kind]) > asked.get(kind, 0):
            n = asked.get(kind, 0)
            return (f"{kind}: {len(keys[kind])} answer{'' if len(keys[kind]) == 1 else 's'}, but the turn asked {n} {kind} "
                    f"decision{'' if n == 1 else 's'}: expected one answer per decision")
    return None


SCRIPTING = Scripting(_script_read, {"town_hall": _script_town_hall, "favour": _script_decision,
                                     "ride": _script_decision, "scarecrow": _script_decision},
                      unused=_script_unused)


MAYORS = Expansion(
    "mayors", "Messengers & Mayors", ("R-MM",), tile_sets=("mayors",),
    figures=("mayor", "messenger meeple", "scarecrow"),
    decisions=(DecisionKind("figure", "greedy", typed=FigureChoice._make),
               DecisionKind("town_hall", "greedy", "first", typed=_cell),
               *(DecisionKind(k, "greedy", "greedy") for k in ("favour", "scarecrow", "ride"))),
    forks=("road_figure",), result_keys=("mayors",), columns=MAYORS_COLUMNS, row=_mayors_row,
    column_docs=COLUMN_DOCS,
    script_keys=("favour", "ride", "scarecrow"), scripting=SCRIPTING, snapshot="mayors", view=_view,
    bit=lib.CC_X_MAYORS, tiles=(TOWN_HALL,),
    fill_config=_mayors_config, read_result=_mayors_result, read_batch=_mayors_batch,
    state={"mm": _mayors_state}, shapes=SHAPES, marks=(TOWN_HALL_MARK,),
    read_decision=dict.fromkeys(MM_DECISIONS, _decision), read_choice=dict.fromkeys(MM_DECISIONS, _choice),
    fill_policy=_policy, policy_params=("road_figure",),
    events={"townhall": _cell_event, "crisis": _cell_event, "favour": _favour_event,
            "scarecrow": _scarecrow_event, "ride": _ride_event},
    lines={"townhall": _town_hall_line, "crisis": _crisis_line, "favour": _favour_line,
           "scarecrow": _scarecrow_line, "ride": _ride_line})
