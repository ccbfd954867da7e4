"""The Messages (Mini #2), both rule editions (RULES.md section 2).

Every player has two scoring figures, the scoring meeple and the messenger, whose sum
is the player's score. A figure that ends a round of scoring on a dark space
(R-BASE-10) makes its owner, if active, draw a message tile and resolve it: the
action or 2 points (R-MSG-8).

This module is the expansion's one Python unit: its declaration (MESSAGES), options,
the action names of each edition, the deck order, the dark spaces, the decoders of its
slice of the C result row, of its events and decisions, its log lines, view snapshot
(view.messages), its policies' overrides, its scripted turns' keys and answers, its
record columns and its scoreboard figures; the C game plays the rules
(sim/csrc/messages.c).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from sim.core import lib
from sim.errors import InputError, quote
from sim.expansions import base
from sim.expansions.declaration import (ROW_DRAWN, ROW_FIGURES, ROW_LIVE_MOVES, ROW_MESSAGE_POINTS,
                                        ROW_MOVES, ROW_RESOLVED, ROW_TAKEN, DecisionKind, Expansion,
                                        Knob, Options, Scripting, Shape, where)
from sim.formats.notation import MAX_COORD
from sim.text import text_list

FIGURES = ("meeple", "messenger")  # the two scoring figures
# the decision kind of resolving a drawn message (R-MSG-8), which names the
# counterfactual fork at it too (sim/tournament/counterfactual.py)
KIND = "messages"
EDITIONS = ("classic", "c3.1")
# Rulebook order, which is also each edition's numbering (1-based).
ACTIONS = {
    "classic": ("smallest_road", "smallest_city", "smallest_monastery", "extra_tile",
                "coats_of_arms", "per_knight", "per_farmer", "score_and_return"),
    "c3.1": ("smallest_city", "smallest_road", "smallest_monastery", "extra_turn",
             "coats_of_arms", "per_knight", "per_farmer", "score_and_retrieve"),
}
ALL_ACTIONS = tuple(sorted(set(ACTIONS["classic"]) | set(ACTIONS["c3.1"])))
TWO_POINTS = "2"  # the resolution that scores 2 points instead of the action
SCORE_AND_RETURN = ("score_and_return", "score_and_retrieve")  # message 8 in each edition


@dataclass(frozen=True)
class MessagesOptions:
    """edition: "classic" or "c3.1" (default); zmg_alone: R-MSG-C4 switch; deck: the
    message stack from the top by action name, the rest following in rulebook order."""

    edition: str = "c3.1"
    zmg_alone: bool = False
    deck: tuple[str, ...] = ()

    def validate(self, where: str) -> None:
        if self.edition not in EDITIONS:
            raise InputError(f"{where}.edition = {self.edition!r}: expected one of {', '.join(EDITIONS)}")
        if not isinstance(self.zmg_alone, bool):
            raise InputError(f"{where}.zmg_alone = {self.zmg_alone!r}: expected true or false")
        if self.zmg_alone and self.edition != "classic":
            raise InputError(f"{where}.zmg_alone: the ZMG variant (R-MSG-C4) is a classic-edition switch")
        names = ACTIONS[self.edition]
        if not isinstance(self.deck, tuple) or any(a not in names for a in self.deck):
            bad = next((a for a in self.deck if a not in names), self.deck)
            raise InputError(f"{where}.deck: {bad!r} is not a {self.edition} message: expected "
                             f"names from {', '.join(names)}")


def deck_tiles(rules) -> list[str]:
    """R-MSG-11: the deck's tiles in rulebook order, each action once, or as often as
    its deck_<code> knob says (the deck as a multiset, [rules.variant])."""
    edition = rules.messages.edition
    codes = ACTION_NAMES[edition]
    return [a for a in ACTIONS[edition] for _ in range(rules.knob(DECK_KNOBS[codes.index(a)].name))]


def deck_order(rules, stream) -> list[str]:
    """The message tiles (deck_tiles), shuffled by the game's message stream; a fixed
    `deck` puts its tiles on top and the rest follow in rulebook order."""
    tiles = deck_tiles(rules)
    fixed = rules.messages.deck
    if fixed:
        for a in fixed:
            tiles.remove(a)  # check_rules: a fixed deck lists no tile the deck lacks
        return list(fixed) + tiles
    stream.shuffle(tiles)
    return tiles


# message action names per edition, indexed by the C core's action code (CC_MSG_*):
# what the message does, whatever number its edition gives it
ACTION_NAMES = {
    "classic": ACTIONS["classic"],
    "c3.1": ("smallest_road", "smallest_city", "smallest_monastery", "extra_turn",
             "coats_of_arms", "per_knight", "per_farmer", "score_and_retrieve"),
}
EDITION_CODES = {"classic": lib.CC_EDITION_CLASSIC, "c3.1": lib.CC_EDITION_C31}

MESSAGES_COLUMNS = (("scoring_meeple", "messenger", "messages_drawn", "messages_taken",
                     "moves_meeple", "moves_messenger", "moves_live")
                    + tuple(f"{what}_{a}" for a in ALL_ACTIONS for what in ("drawn", "taken", "points")))


ACTION = "<action>"  # in a column name of COLUMN_DOCS: one column per message action
COLUMN_DOCS = (
    (("scoring_meeple", "messenger"), "points", "The Messages: the points each scoring "
     "figure carries at the end of play (their sum is the score before final scoring, "
     "R-MSG-9, whose points come on top)"),
    (("messages_drawn", "messages_taken"), "message tiles", "message tiles drawn, and "
     "resolved by their action rather than 2 points"),
    (("moves_meeple", "moves_messenger"), "scorings", "how often each scoring figure "
     "took points"),
    (("moves_live",), "choices", "scoring-figure choices where only one of the two "
     "figures would have landed on a dark space"),
    ((f"drawn_{ACTION}",), "message tiles", "message tiles of this action drawn (both "
     "editions' names; the other edition's stay 0)"),
    ((f"taken_{ACTION}",), "message tiles", "message tiles of this action resolved by "
     "the action rather than 2 points"),
    ((f"points_{ACTION}",), "points", "points this action gave"),
)


def _messages_row(p: dict) -> dict:
    m = p["messages"]
    row = {"scoring_meeple": p["scoring_meeple"], "messenger": p["messenger"],
           "messages_drawn": sum(m["drawn"].values()), "messages_taken": sum(m["taken"].values()),
           "moves_meeple": m["figure_moves"]["meeple"],
           "moves_messenger": m["figure_moves"]["messenger"], "moves_live": m["live_moves"]}
    for a in ALL_ACTIONS:
        for what in ("drawn", "taken", "points"):
            row[f"{what}_{a}"] = m[what].get(a, 0)
    return row


# the state Game.msg gives (read by sim/engine/view.py and the differential harness)
class _MessagesSeat(NamedTuple):
    position: tuple[int, int]  # scoring meeple, messenger
    moves: tuple[int, int]


class _Messages(NamedTuple):
    players: list  # per seat _MessagesSeat, as Game.msg.players


# The Messages' rule variants ([rules.variant]; sim/csrc/messages.c plays them, the
# reference engine too): the 2 points, the dark spaces' spacing, the deck's tiles
TWO_POINTS_KNOB = Knob("two_points", "R-MSG-8", 2, 0, 10,
                       "points for a message resolved without its action")
DARK_EVERY_KNOB = Knob("dark_every", "R-BASE-10", 5, 2, 10,
                       "the dark spaces' spacing: spaces 0, d, 2d, ... below 50")
# one knob per action, by its C code (ACTION_NAMES' order, the same in both editions)
DECK_CODES = ("road", "city", "monastery", "extra", "coats", "knight", "farmer", "score")
DECK_KNOBS = tuple(
    Knob(f"deck_{code}", "R-MSG-11", 1, 0, lib.CC_MAX_COPIES,
         f"copies of the {ACTION_NAMES['classic'][k]} / {ACTION_NAMES['c3.1'][k]} message in the deck")
    for k, code in enumerate(DECK_CODES))


def _messages_rules(rules, where: str) -> None:
    """What the knobs must meet together (one line naming the knob): a deck of at least
    one tile, holding every tile a fixed deck lists; under classic no chain without end."""
    tiles = deck_tiles(rules)
    if not tiles:
        raise InputError(f"{where}.variant.deck_*: every copy count is 0: expected "
                         f"a deck of at least one message tile")
    for a in set(rules.messages.deck):
        if rules.messages.deck.count(a) > tiles.count(a):
            code = DECK_CODES[ACTION_NAMES[rules.messages.edition].index(a)]
            raise InputError(f"{where}.messages.deck lists {a!r} {rules.messages.deck.count(a)} "
                             f"times, but the deck holds {tiles.count(a)} (rules.variant.deck_{code})")
    points, every = rules.knob(TWO_POINTS_KNOB.name), rules.knob(DARK_EVERY_KNOB.name)
    # R-MSG-C3: under classic a message's points are a round of their own; a positive
    # multiple of a spacing that divides the 50 spaces lands from every dark space on a
    # dark space again, drawing messages for ever (another spacing ends at the wrap)
    if rules.messages.edition == "classic" and points > 0 and base.SPACES % every == 0 and points % every == 0:
        raise InputError(
            f"{where}.variant.two_points = {points}: under the classic edition a "
            f"multiple of the dark spaces' spacing (dark_every = {every}) lands on a dark space "
            f"again and draws messages without end (R-MSG-C3): expected two_points not "
            f"divisible by {every}")


def _messages_config(rules, cfg, catalogue, town_halls_at_end) -> None:
    options, names = rules.messages, ACTION_NAMES[rules.messages.edition]
    cfg.two_points = rules.knob(TWO_POINTS_KNOB.name)
    cfg.dark_every = rules.knob(DARK_EVERY_KNOB.name)
    cfg.edition = EDITION_CODES[options.edition]
    cfg.zmg_alone = int(options.zmg_alone)  # R-MSG-C4
    # R-MSG-11: a fixed deck as it is, else the rulebook order, shuffled in C
    deck = deck_order(rules, None) if options.deck else deck_tiles(rules)
    cfg.shuffle_deck = int(not options.deck)
    cfg.deck_n = len(deck)
    for i, name in enumerate(deck):
        cfg.deck[i] = names.index(name)


def _messages_result(rules, r: list[int]) -> dict:
    names = ACTION_NAMES[rules.messages.edition]
    drawn, taken, points, resolved = r[ROW_DRAWN], r[ROW_TAKEN], r[ROW_MESSAGE_POINTS], r[ROW_RESOLVED]
    meeple, messenger = r[ROW_FIGURES]
    return {"scoring_meeple": meeple, "messenger": messenger,
            "messages": {"drawn": {names[a]: c for a, c in enumerate(drawn) if c},
                         "taken": {names[a]: c for a, c in enumerate(taken) if c},
                         "points": {names[a]: points[a] for a in range(len(names)) if resolved[a]},
                         "figure_moves": dict(zip(FIGURES, r[ROW_MOVES])),
                         "live_moves": r[ROW_LIVE_MOVES]}}


def _messages_state(game) -> _Messages:
    """Game.msg: per seat the two scoring figures' positions and moves."""
    return _Messages([_MessagesSeat(tuple(r[ROW_FIGURES]), tuple(r[ROW_MOVES]))
                      for r in game.result_rows()])


# ---------------------------------------------------------------- the view's snapshot

@dataclass(frozen=True)
class MessagesSeat:
    position: tuple[int, int]  # scoring meeple, messenger (R-MSG: the score is their sum)
    moves: tuple[int, int]  # how often each has moved


@dataclass(frozen=True)
class MessagesView:
    """view.messages: per seat the two scoring figures; the deck's size and the message
    in hand (drawn, not yet resolved)."""

    seats: tuple[MessagesSeat, ...]
    deck_size: int  # message tiles in the deck (the one in hand not included)
    in_hand: str | None  # the action drawn and not yet resolved


def _meeple_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The scoring meeple on the scoreboard strip: a small circle."""
    return f"<circle cx='{x:.1f}' cy='{y:.1f}' r='4' fill='{colour}'/>"


def _messenger_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The messenger on the scoreboard strip: a small square."""
    return f"<rect x='{x - 4:.1f}' y='{y - 4:.1f}' width='8' height='8' fill='{colour}'/>"


SHAPES = {"scoring meeple": Shape(_meeple_shape, (("scoring meeple (strip)", False),)),
          "strip messenger": Shape(_messenger_shape, (("messenger (strip)", False),))}


def _scoreboard(view: MessagesView) -> tuple:
    """Per seat its two scoring figures on the scoreboard (R-MSG-C1): (shape, name, total)."""
    return tuple(tuple(zip(SHAPES, ("scoring meeple", "messenger"), p.position)) for p in view.seats)


def _view(game) -> MessagesView:
    d = game.decision
    in_hand = d.info["action"] if d is not None and d.kind == KIND else None
    seats = tuple(MessagesSeat(tuple(p.position), tuple(p.moves)) for p in game.msg.players)
    # R-MSG-11: the deck cycles, so it holds every message but the one in hand
    size = len(deck_tiles(game.rules)) - (in_hand is not None)
    return MessagesView(seats, size, in_hand)


def _messages_batch(rules, res) -> dict:
    names = ACTION_NAMES[rules.messages.edition]
    drawn, taken, points = res[:, :, ROW_DRAWN], res[:, :, ROW_TAKEN], res[:, :, ROW_MESSAGE_POINTS]
    meeple, messenger = ROW_FIGURES.start, ROW_FIGURES.start + 1
    cols = {"scoring_meeple": res[:, :, meeple].ravel(), "messenger": res[:, :, messenger].ravel(),
            "messages_drawn": drawn.sum(axis=2).ravel(), "messages_taken": taken.sum(axis=2).ravel(),
            "moves_meeple": res[:, :, ROW_MOVES.start].ravel(),
            "moves_messenger": res[:, :, ROW_MOVES.start + 1].ravel(),
            "moves_live": res[:, :, ROW_LIVE_MOVES].ravel()}
    for k, a in enumerate(names):  # the other edition's actions stay 0
        for what, arr in (("drawn", drawn), ("taken", taken), ("points", points)):
            cols[f"{what}_{a}"] = arr[:, :, k].ravel()
    return cols


# ---------------------------------------------------------------- decisions and policies

def _message_choice(names, action: int, target: int) -> tuple:
    if action == lib.CC_MSG_TWO:
        return (TWO_POINTS, None)
    return (names[action], None if target < 0 else target)


def _scoring_figure(game, kind: int, tile: int, info, rows) -> tuple:
    """R-MSG-C1, R-MSG-N1: which scoring figure takes `points` from `source`."""
    return ("scoring_figure", "", FIGURES,
            {"points": info[0], "source": base.SOURCES[info[1]], "positions": (info[2], info[3])})


def _message(game, kind: int, tile: int, info, rows) -> tuple:
    """R-MSG-8: how the drawn message is resolved, with each choice's immediate points
    (None for an extra tile or turn)."""
    names, w = ACTION_NAMES[game.rules.messages.edition], lib.CC_MSG_CHOICE_INTS
    flat = rows(w)
    choices = tuple(_message_choice(names, flat[i], flat[i + 1]) for i in range(0, len(flat), w))
    points = tuple(None if p < 0 else p for p in flat[2::w])
    return KIND, "", choices, {"action": names[info[0]], "number": info[1], "points": points}


def _figure_choice(game, kind: int, v) -> str:
    return FIGURES[v[0]]


def _taken_message(game, kind: int, v) -> tuple:
    return _message_choice(ACTION_NAMES[game.rules.messages.edition], v[0], v[1])


OVERRIDES = {"2": lib.CC_OVERRIDE_TWO, "action": lib.CC_OVERRIDE_ACTION}


def _policy(out, kind: str, code: int, policy, edition: str) -> None:
    """A message policy's per-action overrides (named by `edition`), and greedy's value
    of an extra tile or turn."""
    if kind != KIND:
        return
    if code == lib.CC_POL_GREEDY:
        out.extra = policy.extra
    for action, how in getattr(policy, "overrides", ()):
        if action in ACTION_NAMES[edition]:  # the other edition's names never match
            out.overrides[ACTION_NAMES[edition].index(action)] = OVERRIDES[how]


# ---------------------------------------------------------------- events and their log lines

def _move_event(game, seat: int, v: list[int]) -> dict:
    """A scoring figure moves (R-MSG-C1, R-MSG-N1): {seat, figure, points, source,
    before, after, dark, other_dark}."""
    return {"seat": seat, "figure": FIGURES[v[0]], "points": v[1], "source": base.SOURCES[v[2]],
            "before": v[3], "after": v[4], "dark": bool(v[5]), "other_dark": bool(v[6])}


def _draw_event(game, seat: int, v: list[int]) -> dict:
    """A message is drawn (R-MSG-8): {seat, action, number}."""
    return {"seat": seat, "action": ACTION_NAMES[game.rules.messages.edition][v[0]], "number": v[1]}


def _message_event(game, seat: int, v: list[int]) -> dict:
    """A message is resolved (R-MSG-8, R-MSG-10): {seat, action, number, resolved
    ("action" or "2"), points, target ("x,y <where>", "x,y follower <where>" or None),
    extra}."""
    target = None
    if v[4]:
        (x, y), name = where(game, v[5])
        target = f"{x},{y} {name}" if v[4] == 1 else f"{x},{y} follower {name}"
    return {"seat": seat, "action": ACTION_NAMES[game.rules.messages.edition][v[0]], "number": v[1],
            "resolved": "action" if v[2] else "2", "points": v[3], "target": target,
            "extra": bool(v[6])}


def _move_line(e: dict, turn: str) -> str:
    dark = ", dark space" if e["dark"] else ""
    return (f"{turn}  seat {e['seat']}  {e['figure']} {e['before']} -> {e['after']} "
            f"(+{e['points']} {e['source']}{dark})")


def _draw_line(e: dict, turn: str) -> str:
    return f"{turn}  seat {e['seat']}  draws message {e['number']} {e['action']}"


def _message_line(e: dict, turn: str) -> str:
    how = f"takes {e['action']}" if e["resolved"] == "action" else "takes 2 points"
    target = f" on {e['target']}" if e["target"] else ""
    extra = ", plays another tile" if e["extra"] else ""
    return f"{turn}  seat {e['seat']}  {how}{target}: {e['points']} points{extra}"


# ---------------------------------------------------------------- scripted games

def _figure_answers(value, key: str, where: str, rules):
    """One seat's scoring-figure answers of a turn (R-MSG-C1/N1): "meeple" or "messenger",
    or under the classic edition a table from sources to one of them (every points of
    that source this turn) or to a list of them (the source's points in the order they
    come)."""
    by_source = isinstance(value, dict)
    if by_source and rules.messages.edition != "classic":
        raise InputError(f"{where}: {key}: a table by source needs the classic edition "
                         f"(c3.1 moves one figure per turn, R-MSG-N1)")
    values = [value] if not by_source else [
        w for v in value.values() for w in (v if isinstance(v, list) and v else [v])]
    bad = next((k for k in value if k not in base.SOURCES), None) if by_source else None
    if bad is not None:
        raise InputError(f"{where}: {key}.{bad}: not a source of points: expected one of "
                         f"{', '.join(base.SOURCES)}")
    if any(v not in FIGURES for v in values):
        shown = (next((f"{k} = {v!r}" for k, v in value.items() if not (
                     v in FIGURES or isinstance(v, list) and v and all(w in FIGURES for w in v))), "")
                 if by_source else "a list" if isinstance(value, list) else repr(value))
        table = (", or a table from sources to them (one, or a list in the order the points "
                 "come)" if rules.messages.edition == "classic" else " (c3.1: one figure a turn, R-MSG-N1)")
        raise InputError(f"{where}: {key}: {shown}: expected \"meeple\" or \"messenger\"{table}")
    return value


def _script_read(t: dict, where: str, rules) -> dict:
    """score_on and score_on_others (R-MSG-C1/N1), message and message_target of one
    scripted turn."""
    score_on = t.get("score_on")
    if score_on is not None:
        _figure_answers(score_on, "score_on", where, rules)
    others = t.get("score_on_others", {})
    if not isinstance(others, dict):
        raise InputError(f"{where}: score_on_others = {others!r}: expected a table from seats "
                         f"(seat1, seat2, ...) to scoring-figure answers")
    by_seat = {}
    for name, value in others.items():
        m = re.fullmatch(r"seat(0|[1-9][0-9]?)", name)
        if not m or int(m[1]) >= rules.players:
            raise InputError(f"{where}: score_on_others.{name}: expected a seat, seat0 .. "
                             f"seat{rules.players - 1}")
        by_seat[int(m[1])] = _figure_answers(value, f"score_on_others.{name}", where, rules)
    return {"score_on": score_on, "score_on_others": by_seat,
            "message": text_list(t, "message", where, ("action", TWO_POINTS)),
            "message_target": text_list(t, "message_target", where, None)}


def _script_figure(player, game, d):
    """score_on answers the active seat's points of this turn, score_on_others another
    seat's; the rest is policy. A list by source answers that source's points in turn."""
    keys = player.turn(game).keys
    active = d.seat == game.seat
    on = keys["score_on"] if active else keys["score_on_others"].get(d.seat)
    source = d.info.get("source", "")
    n = player.next(game, f"scoring_figure {'active' if active else f'seat{d.seat}'} {source}")
    if isinstance(on, dict):
        on = on.get(source)
        if isinstance(on, list):
            on = on[n] if n < len(on) else None
    return on if on is not None else player.policies.choose(game, d)


def _script_message(player, game, d):
    """message = "action" | "2", message_target = "x,y <feature> [<where>]", one per
    message of the turn in the order they are drawn."""
    turn = player.turn(game).keys
    n = player.next(game, KIND)
    head = f"{player.where(game)}: message {n + 1} ({d.info['action']})"
    if n >= len(turn["message"]):
        return player.policies.choose(game, d)
    if turn["message"][n] == TWO_POINTS:
        return (TWO_POINTS, None)
    actions = [c for c in d.choices if c[0] != TWO_POINTS]
    if not actions:
        raise InputError(f"{head}: the action is not possible (R-MSG-8)")
    if n >= len(turn["message_target"]):
        return actions[0]
    text = turn["message_target"][n]
    if text.strip() == "-":  # no target: a message answered "2", or an action choosing none
        if len(actions) == 1 and actions[0][1] is None:
            return actions[0]
        raise InputError(f"{head}: message_target = '-' names no target, and this action "
                         f"chooses one of {len(actions)}: expected 'x,y <feature> [<where>]'")
    try:
        xy, _, name = text.strip().partition(" ")
        x, y = (int(v) for v in xy.split(","))
        if max(abs(x), abs(y)) > MAX_COORD:
            raise ValueError(f"no tile at {quote(xy, 40)}")
        name = name.removeprefix("follower ").strip()
        index = game.board.tile_at(x, y)
        if index is None:
            raise ValueError(f"no tile at {x},{y}")
        root = game.board.find(index * lib.CC_MAX_SEGS + game.board.variant_at(index).segment_at(name))
    except ValueError as e:
        raise InputError(f"{head}: message_target = {quote(text)}: expected 'x,y <feature> "
                         f"[<where>]' naming a feature on the board ({e})") from None
    for c in actions:
        target = c[1]
        if c[0] in SCORE_AND_RETURN:
            target = game.board.find(game.board.figure(target).segment)
        if target == root:
            return c
    raise InputError(f"{head}: message_target = {quote(text)} is not among the legal targets "
                     f"(R-MSG-10)")


def _script_unused(keys: dict, asked: dict) -> str | None:
    """A message answer past the messages the turn drew, a target for a message that is
    not an action taken from the script, or a list of scoring figures longer than the
    points its source gave the seat, would do nothing. (A scoring figure given as one
    word, for a seat or a source, stands for whatever points come, if any: SCRIPTS.md's
    `score_on` has always read so.)"""
    answers = [("score_on", "active", keys["score_on"])] + [
        (f"score_on_others.seat{seat}", f"seat{seat}", on) for seat, on in keys["score_on_others"].items()]
    for key, who, on in answers:
        got = {k.rsplit(" ", 1)[1]: c for k, c in asked.items() if k.startswith(f"scoring_figure {who} ")}
        for source, answer in (on.items() if isinstance(on, dict) else ()):
            n = got.get(source, 0)
            if isinstance(answer, list) and len(answer) > n:
                return (f"{key}.{source}: {len(answer)} answer{'s' * (len(answer) != 1)}, but the "
                        f"seat received points from "
                        f"{n} {source} source{'s' * (n != 1)} this turn: expected a list of at most "
                        f"one answer per points received (or one word for all of them)")
    drawn, answers, targets = asked.get(KIND, 0), keys["message"], keys["message_target"]
    if len(answers) > drawn:
        return (f"message: {len(answers)} answer{'' if len(answers) == 1 else 's'}, but the turn drew {drawn} message"
                f"{'' if drawn == 1 else 's'}: expected one answer per message drawn")
    for i, text in enumerate(targets):  # "-": a message answered "2", or a target-less action
        if i >= len(answers) or (answers[i] == TWO_POINTS and text.strip() != "-"):
            given = "no answer" if i >= len(answers) else '"2"'
            return (f"message_target {i + 1} = {quote(text)}: message {i + 1} has {given}: "
                    f"expected a target only for a message answered \"action\" (\"-\" holds "
                    f"the place of one answered \"2\")")
    return None


SCRIPTING = Scripting(_script_read, {"scoring_figure": _script_figure, KIND: _script_message},
                      unused=_script_unused)


def _messages_options(t: dict) -> MessagesOptions:
    deck = t.get("deck", [])
    if not isinstance(deck, list):
        raise InputError(f"rules.messages.deck = {deck!r}: expected a list of action names")
    return MessagesOptions(t.get("edition", "c3.1"), t.get("zmg_alone", False), tuple(deck))


def _messages_plain(o: MessagesOptions) -> dict:
    return {"edition": o.edition, "zmg_alone": o.zmg_alone, "deck": list(o.deck)}


class Resolution(NamedTuple):
    """A drawn message's resolution (R-MSG-8): `action` (its name, or "2" for the 2
    points) on `target` (a feature's or figure's segment, None for none). Equal to the
    raw pair."""

    action: str
    target: int | None


MESSAGES = Expansion(
    "messages", "The Messages", ("R-MSG",),
    figures=("scoring meeple", "messenger"),  # on the scoreboard, not the board
    decisions=(DecisionKind("scoring_figure", "dark_seeker", "meeple_only"),
               DecisionKind(KIND, "greedy", "always_2", typed=Resolution._make)),
    options=Options("messages", frozenset({"edition", "zmg_alone", "deck"}), _messages_options,
                    _messages_plain),
    knobs=(TWO_POINTS_KNOB, DARK_EVERY_KNOB) + DECK_KNOBS, check_rules=_messages_rules,
    forks=(KIND, "scoring_figure"),
    result_keys=("scoring_meeple", "messenger", "messages"), columns=MESSAGES_COLUMNS,
    column_docs=COLUMN_DOCS, column_sets={ACTION: ALL_ACTIONS},
    row=_messages_row, analyses=("naive_messages",), design_keys=("editions",),
    script_keys=("score_on", "score_on_others", "message", "message_target"), scripting=SCRIPTING, snapshot="messages",
    view=_view,
    editions=EDITIONS, deck=True, bit=lib.CC_X_MESSAGES,
    fill_config=_messages_config, read_result=_messages_result, read_batch=_messages_batch,
    state={"msg": _messages_state}, shapes=SHAPES, scoreboard=_scoreboard,
    read_decision={lib.CC_DEC_SCORING_FIGURE: _scoring_figure, lib.CC_DEC_MESSAGES: _message},
    read_choice={lib.CC_DEC_SCORING_FIGURE: _figure_choice, lib.CC_DEC_MESSAGES: _taken_message},
    fill_policy=_policy,
    events={"move": _move_event, "message_draw": _draw_event, "message": _message_event},
    lines={"move": _move_line, "message_draw": _draw_line, "message": _message_line})
