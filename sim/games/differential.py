"""The differential harness: the production engine against the reference engine,
action by action (issue 12).

A seeded game is played by the production engine (sim/engine/game.py) with built-in
strategies; every decision it reaches is compared with the reference engine's
(sim/reference/, fed the same tile stack and message deck), the chosen move is applied
to both, and at each decision these must be equal:
    the decision     kind, seat, tile, info
    the choices      the same set in the same order
    the events       everything emitted since the previous decision
    the standings    every seat's score and points by source, both scoring figures
                     (The Messages), followers in supply, and the other figures and
                     the town hall in hand (Messengers & Mayors)
and at the end the events of final scoring and the whole result (statistics
included).

Features are named by segments, and the production engine names a feature by the
root of its union-find tree, which is an implementation detail. The harness therefore
renames production features by their lowest segment, as the reference does, where a
feature (not a segment) is named: score events, the targets of messages 1-3 (choices
and the message event). Two orders follow the production roots too and are compared
as sorted by that name: ties of messages 1-3, and the features of final scoring.

At the first divergence the harness reports what differs (production says X,
reference says Y, the rulings involved), the production turn log up to that point,
and writes a scripted game (docs/SCRIPTS.md) that replays the game to that turn.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sim import expansions
from sim.expansions import tile_sets
from sim.engine.deal import FIGURE_KINDS, deck_order, tile_order
from sim.errors import CarcsimError, InputError
from sim.engine.game import Game
from sim.formats.log import event_line, format_log
from sim.expansions.mayors import MAYOR, MESSENGER, SCARECROW
from sim.expansions.messages import MessagesOptions
from sim.reference import RefGame
from sim.reference.game import stack_problem
from sim.reference.messages import NUMBERS as REF_ACTIONS
from sim.engine.rules import IMPLEMENTED_EXPANSIONS, Rules
from sim.safe_files import write_file
from sim.text import split_top
from sim.engine.view import view_of
from strategies import player

SMALLEST = ("smallest_road", "smallest_city", "smallest_monastery")
# which rulings a difference in an event or decision kind concerns
RULINGS = {
    "place": "R-BASE-3, R-BASE-4 (R-RIV-2, R-MM-1/5/7, RULES.md 6)", "discard": "R-BASE-3",
    "draw": "R-BASE-3, R-MM-10", "figure": "R-BASE-4, RULES.md 6, R-MM-2, R-MM-8",
    "score": "R-BASE-5..8, R-MM-4, R-MM-9, R-MM-10", "points": "R-BASE-6..8",
    "move": "R-MSG-C1, R-MSG-N1", "scoring_figure": "R-MSG-C1, R-MSG-N1",
    "message_draw": "R-MSG-C2..C4, R-MSG-N2, R-MSG-N3", "messages": "R-MSG-8, R-MSG-10, R-MM-10",
    "message": "R-MSG-8, R-MSG-10, R-MM-10", "courier": "R-COU-3, R-COU-4, R-MM-10",
    "town_hall": "R-MM-10, R-MM-12, R-RIV-2", "townhall": "R-MM-10, R-MM-12",
    "crisis": "R-MM-11", "favour": "R-MM-2", "scarecrow": "R-MM-8", "ride": "R-MM-6, R-COU-4", "recall": "R-ABB-5",
    "final": "R-BASE-8", "end": "R-BASE-9",
}
DEFAULT_STRATEGIES = ("greedy", "random", "first", "random+messages=always_action+scoring_figure=spread",
                      "greedy+messages=always_2+scoring_figure=coverage",
                      "first+scoring_figure=alternate", "greedy+scoring_figure=meeple_only")


@dataclass
class Divergence:
    rules: Rules
    seed: int
    strategies: list
    turn: int
    what: str  # one line: what differs, production says X, reference says Y
    rulings: str
    log: str  # the production turn log up to the divergence
    script: str = ""  # a scripted game replaying the game to that turn (TOML)

    def report(self) -> str:
        exp = ",".join(self.rules.expansions) or "base"
        game = f"seed {self.seed}" if self.strategies else "a scripted game"
        return (f"divergence: {game}, {self.rules.players} players "
                f"({', '.join(self.strategies) or 'scripted moves'}), expansions {exp}, edition "
                f"{self.rules.messages.edition}, zmg {self.rules.messages.zmg_alone}, turn {self.turn}\n"
                f"{self.what}\nrulings: {self.rulings}\n--- production turn log ---\n{self.log}")


@dataclass
class Summary:
    games: int = 0
    decisions: int = 0
    divergence: Divergence | None = None

    def line(self) -> str:
        return (f"{self.games} games, {0 if self.divergence is None else 1} divergences, "
                f"{self.decisions} decisions compared")


# ---------------------------------------------------------------- naming features alike


def _canonical(g: Game, seg: int) -> int:
    """A production feature renamed by its lowest segment (the reference's name)."""
    return g.board.feature_segments(seg)[0]


def _segment(g: Game, x: int, y: int, where: str) -> int:
    index = g.board.tile_at(x, y)
    return index * g.MAX_SEGS + g.board.variant_at(index).segment_at(where)


def _canonical_place(g: Game, x: int, y: int, where: str) -> tuple[list, str]:
    cx, cy, cw = g.board.segment_place(_canonical(g, _segment(g, x, y, where)))
    return [cx, cy], cw


def _production_events(g: Game, events: list[dict]) -> list[dict]:
    out = []
    for e in events:
        e = dict(e)
        if e["e"] == "score":
            e["at"], e["where"] = _canonical_place(g, *e["at"], e["where"])
        elif e["e"] == "message" and e["action"] in SMALLEST and e["target"]:
            xy, _, where = e["target"].partition(" ")
            x, y = (int(v) for v in xy.split(","))
            (cx, cy), cw = _canonical_place(g, x, y, where)
            e["target"] = f"{cx},{cy} {cw}"
        out.append(e)
    return out


def _final_groups(events: list[dict]) -> list[dict]:
    """Final scoring's score events (with their points) sorted by feature place; the
    running totals of its points events depend on that order and are left out (the
    end event and the result carry the totals)."""
    if not events or not any(e["e"] == "final" for e in events):
        return events
    i = next(k for k, e in enumerate(events) if e["e"] == "final")
    head, tail = events[:i + 1], events[i + 1:]
    groups, end = [], [e for e in tail if e["e"] == "end"]
    for e in tail:
        if e["e"] == "score":
            groups.append([e])
        elif e["e"] == "points":
            groups[-1].append({k: v for k, v in e.items() if k != "total"})
    groups.sort(key=lambda grp: (grp[0]["at"][1], grp[0]["at"][0], grp[0]["where"]))
    return head + [e for grp in groups for e in grp] + end


def _key(seg_place: tuple[int, int, str]) -> tuple:
    x, y, where = seg_place
    return (y, x, where)


def _production_decision(g: Game, d) -> tuple[tuple, dict | None, dict]:
    """(choices, info, production choice -> reference choice) with features renamed."""
    choices, info = tuple(d.choices), d.info
    if d.kind == "messages" and d.info["action"] in SMALLEST:
        pairs = list(zip(choices, d.info["points"]))
        head = [p for p in pairs if p[0][0] == "2"]
        ways = [((c[0], _canonical(g, c[1])), pts, c) for c, pts in pairs if c[0] != "2"]
        ways.sort(key=lambda w: _key(g.board.segment_place(w[0][1])))
        mapping = {c: c for c, _ in head} | {orig: new for new, _, orig in ways}
        choices = tuple(c for c, _ in head) + tuple(new for new, _, _ in ways)
        info = dict(d.info, points=tuple(p for _, p in head) + tuple(p for _, p, _ in ways))
        return choices, info, mapping
    return choices, info, {}


def _reference_decision(r: RefGame, d) -> tuple[tuple, dict | None]:
    if d.kind == "messages" and d.info["action"] in SMALLEST:
        pairs = list(zip(d.choices, d.info["points"]))
        head = [p for p in pairs if p[0][0] == "2"]
        ways = sorted((p for p in pairs if p[0][0] != "2"),
                      key=lambda p: _key(r.board.place_of(p[0][1])))
        return (tuple(c for c, _ in head + ways),
                dict(d.info, points=tuple(p for _, p in head + ways)))
    return tuple(d.choices), d.info


# ---------------------------------------------------------------- one game


def _differs(a, b) -> str:
    return f"production says {a!r}\n  reference says {b!r}"


def _readable(a: dict, b: dict) -> str:
    """The two events as log lines (sim/formats/log.py), when the log shows them."""
    lines = [event_line(a), event_line(b)]
    if None in lines or lines[0] == lines[1]:
        return ""
    return f"\n  in the log: production  {lines[0]}\n              reference   {lines[1]}"


def _event_diff(pe: list[dict], re_: list[dict]) -> tuple[str, str] | None:
    for a, b in zip(pe, re_):
        if a != b:
            return (f"event differs:\n  {_differs(a, b)}{_readable(a, b)}",
                    RULINGS.get(a["e"], "") or RULINGS.get(b["e"], ""))
    if len(pe) != len(re_):
        extra = pe[len(re_):] or re_[len(pe):]
        who = "production" if len(pe) > len(re_) else "reference"
        return (f"only the {who} emits {extra[0]!r}" + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""),
                RULINGS.get(extra[0]["e"], ""))
    return None


def _standings(game) -> list:
    """Per seat: score, points by source, the two scoring figures (The Messages), the
    followers in supply and (Messengers & Mayors) the other figures and the town hall
    in hand, and (the Abbot) the abbot in supply."""
    out = []
    if isinstance(game, RefGame):
        for s in range(game.rules.players):
            figs = None if game.msg is None else tuple(game.msg.figures[s])
            mm = None if game.mm is None else (dict(game.mm.supply[s]), game.mm.town_hall[s])
            abbot = None if game.abbot is None else game.abbot.supply[s]
            out.append((game.scores[s], dict(game.points[s]), figs, game.supply[s], mm, abbot))
        return out
    players = game.result()["players"] if "abbot" in game.rules.expansions else None
    view = view_of(game)  # production: what the contract shows a strategy
    messages, mayors = view.messages, view.mayors
    for s in range(game.rules.players):
        figs = None if messages is None else messages.seats[s].position
        mm = None
        if mayors is not None:
            m = mayors.seats[s]
            mm = ({MAYOR: m.mayor, MESSENGER: m.messenger, SCARECROW: m.scarecrow}, m.town_hall)
        abbot = None if players is None else players[s]["abbot"]["supply"]
        out.append((game.scores[s], dict(game.points[s]), figs, game.supply[s], mm, abbot))
    return out




class _Recorder:
    """What each production decision chose, in script terms (docs/SCRIPTS.md), by turn."""

    def __init__(self, deck: list[str]):
        self.deck = deck  # the message deck at the start, top first
        self.turns: dict[int, dict] = {}

    def _turn(self, n: int) -> dict:
        return self.turns.setdefault(n, {})

    def note(self, g: Game, d, choice) -> None:
        """Record `choice` for decision `d`, read on the production board before it
        is applied."""
        t = self._turn(g.turn)
        if d.kind == "place":
            x, y, rot, fig, local = choice
            t.update(tile=d.tile, at=[x, y], rotation=rot)
            if fig >= 0 and local < 0:  # a step-2 action (R-ABB-5: "abbot recall")
                t["figure"] = f"{FIGURE_KINDS[fig]} {expansions.action_name(fig, local)}"
            elif fig >= 0:
                where = g.catalogue.variant(g.catalogue.index[d.tile], rot).segments[local].where()
                t["figure"] = f"{FIGURE_KINDS[fig]} {where}"
        elif d.kind == "figure" and choice[0] >= 0 and choice[1] < 0:
            t["figure"] = f"{FIGURE_KINDS[choice[0]]} {expansions.action_name(*choice)}"
        elif d.kind == "figure" and choice[0] >= 0:
            where = g.board.variant_at(g.placed_index).segments[choice[1]].where()
            t["figure"] = f"{FIGURE_KINDS[choice[0]]} {where}"
        elif d.kind == "town_hall" and isinstance(choice, tuple):
            self._turn(g.turn + 1).update(tile="townhall", at=list(choice))
        elif d.kind == "scoring_figure":  # every seat's, by source in the order asked
            seat = "active" if d.seat == g.seat else d.seat
            by_source = t.setdefault("score_on", {}).setdefault(seat, {})
            by_source.setdefault(d.info.get("source", ""), []).append(choice)
        elif d.kind == "messages":
            t.setdefault("message", []).append("2" if choice[0] == "2" else "action")
            targets = t.setdefault("message_target", [])
            if choice[0] in SMALLEST:
                x, y, where = g.board.segment_place(choice[1])
                targets.append(f"{x},{y} {where}")
            elif choice[0] in ("score_and_return", "score_and_retrieve"):
                x, y, where = g.board.segment_place(g.board.figure(choice[1]).segment)
                targets.append(f"{x},{y} follower {where}")
            elif choice[0] == "2":
                targets.append("-")  # never read: the message took 2 points
            else:
                targets.append("-")  # an action without a target: nothing to name
        elif d.kind == "favour":
            t.setdefault("favour", []).append(
                "none" if choice == "none" else "{},{}".format(*g.board.segment_place(g.board.figure(choice).segment)[:2]))
        elif d.kind == "ride":
            if choice == "return":
                t.setdefault("ride", []).append("return")
            else:
                x, y, where = g.board.segment_place(choice)
                t.setdefault("ride", []).append(f"{where} @{x},{y}")
        elif d.kind == "scarecrow":
            t.setdefault("scarecrow", []).append(choice)

    def script(self, g: Game, upto: int) -> str:
        """TOML of turns 1..upto (the production game's own tiles, discards and moves)."""
        o = g.rules.messages
        lines = ["# Written by `carcsim check` at a divergence (sim/games/differential.py): the",
                 "# production game's tiles and moves up to that turn; decisions not listed",
                 "# follow [policies]. Replay: carcsim check --script THIS_FILE", "",
                 "[rules]", f"players = {g.rules.players}",
                 "expansions = [" + ", ".join(f'"{e}"' for e in g.rules.expansions) + "]"]
        if g.msg is not None:
            deck = ", ".join(f'"{a}"' for a in self.deck)
            lines += ["", "[rules.messages]", f'edition = "{o.edition}"',
                      f"zmg_alone = {str(o.zmg_alone).lower()}", f"deck = [{deck}]"]
        discards: dict[int, list[str]] = {}
        for e in g.events:
            if e["e"] == "discard":
                discards.setdefault(e["turn"], []).append(e["tile"])
        for n in range(1, upto + 1):
            t = self.turns.get(n)
            if not t or "tile" not in t:
                break
            lines += ["", "[[turns]]", f'tile = "{t["tile"]}"', f"at = [{t['at'][0]}, {t['at'][1]}]"]
            if t["tile"] != "townhall":
                lines.append(f"rotation = {t['rotation']}")
                if discards.get(n):
                    lines.append("discarded = [" + ", ".join(f'"{d}"' for d in discards[n]) + "]")
            if "figure" in t:
                lines.append(f'figure = "{t["figure"]}"')
            on = t.get("score_on", {})
            classic = o.edition == "classic"
            if "active" in on:
                lines.append(f"score_on = {_scoring_figures_toml(on['active'], classic)}")
            others = [f"seat{seat} = {_scoring_figures_toml(a, classic)}" for seat, a in sorted(
                (k, v) for k, v in on.items() if k != "active")]
            if others:
                lines.append("score_on_others = { " + ", ".join(others) + " }")
            if t.get("message"):
                lines.append("message = [" + ", ".join(f'"{m}"' for m in t["message"]) + "]")
                targets = list(t["message_target"])
                while targets and targets[-1] == "-":
                    targets.pop()
                if targets:
                    lines.append("message_target = [" + ", ".join(f'"{m}"' for m in targets) + "]")
            for key in ("favour", "ride", "scarecrow"):
                if t.get(key):
                    lines.append(f"{key} = [" + ", ".join(f'"{v}"' for v in t[key]) + "]")
        return "\n".join(lines) + "\n"


def _scoring_figures_toml(by_source: dict, classic: bool) -> str:
    """One seat's scoring-figure answers of a turn in script TOML (docs/SCRIPTS.md): the
    figure (c3.1: one a turn, R-MSG-N1), or under classic a table by source, each the
    figure or, where a source's points went to both, the list in their order."""
    if not classic:
        return f'"{next(iter(by_source.values()))[0]}"'
    return "{ " + ", ".join(
        f'{k} = "{v[0]}"' if len(set(v)) == 1 else f"{k} = [" + ", ".join(f'"{x}"' for x in v) + "]"
        for k, v in by_source.items()) + " }"


def _compare(g: Game, r: RefGame, choose, on_choice=None) -> tuple[int, tuple[str, str] | None]:
    """Advance both engines with `choose(g, decision)` (production's decision) and
    compare them at every decision; (decisions compared, (what, rulings) of the first
    divergence or None)."""
    seen_p = seen_r = compared = 0
    while True:
        pd, rd = g.decision, r.decision
        pe = _production_events(g, g.events[seen_p:])
        re_ = list(r.events[seen_r:])
        seen_p, seen_r = len(g.events), len(r.events)
        if pd is None or rd is None:
            break
        ev = _event_diff(pe, re_)
        if ev:
            return compared, ev
        choices, info, mapping = _production_decision(g, pd)
        rchoices, rinfo = _reference_decision(r, rd)
        if (pd.kind, pd.seat, pd.tile) != (rd.kind, rd.seat, rd.tile):
            return compared, ("decision differs (kind, seat, tile):\n  " + _differs(
                (pd.kind, pd.seat, pd.tile), (rd.kind, rd.seat, rd.tile)),
                RULINGS.get(pd.kind, "") + " / " + RULINGS.get(rd.kind, ""))
        if choices != rchoices:
            only_p = [c for c in choices if c not in rchoices]
            only_r = [c for c in rchoices if c not in choices]
            what = (f"{pd.kind} choices differ ({len(choices)} in production, {len(rchoices)} in "
                    f"the reference):\n  only in production: {only_p[:12]}\n  only in the "
                    f"reference: {only_r[:12]}")
            if not only_p and not only_r:
                what += "\n  (the same choices in another order)"
            return compared, (what, RULINGS.get(pd.kind, ""))
        if info != rinfo:
            return compared, (f"{pd.kind} info differs:\n  " + _differs(info, rinfo),
                              RULINGS.get(pd.kind, ""))
        if _standings(g) != _standings(r):
            return compared, ("standings differ (per seat: score, points by source, scoring "
                              "figures, supply):\n  "
                              + _differs(_standings(g), _standings(r)), "R-BASE-6..9")
        compared += 1
        choice = choose(g, pd)
        if on_choice is not None:
            on_choice(g, pd, choice)
        g.apply(choice)
        r.apply(mapping.get(choice, choice))
    if pd is not None or rd is not None:
        who, d = ("production", pd) if pd is not None else ("reference", rd)
        return compared, _event_diff(pe, re_) or (
            f"only the {who} goes on, with a {d.kind} decision for seat {d.seat}", RULINGS.get(d.kind, ""))
    ev = _event_diff(_final_groups(pe), _final_groups(re_))
    if ev:
        return compared, ev
    pres, rres = g.result(), r.result()
    if pres != rres:
        return compared, ("result differs:\n  " + _differs(pres, rres), "R-BASE-8, R-BASE-9")
    return compared, None


# the message actions by the word of their [rules.variant] deck_<word> copies knob, read
# here from the knob's name, not from the production declaration
_DECK_WORDS = {"smallest_road": "road", "smallest_city": "city", "smallest_monastery": "monastery",
               "extra_tile": "extra", "extra_turn": "extra", "coats_of_arms": "coats",
               "per_knight": "knight", "per_farmer": "farmer", "score_and_return": "score",
               "score_and_retrieve": "score"}


def _ref_deck(rules: Rules) -> list[str]:
    """R-MSG-11: the 8 actions once each, or as many copies as the variant gives."""
    variant = dict(rules.variant)
    return [a for a in REF_ACTIONS[rules.messages.edition]
            for _ in range(variant.get(f"deck_{_DECK_WORDS[a]}", 1))]


def check_game(rules: Rules, seed: int, strategies: list[str]) -> tuple[int, Divergence | None]:
    """Play one seeded game in both engines; (decisions compared, the first divergence
    or None). A divergence carries a scripted game of the production game up to the
    end of the turn it happened in."""
    g = Game(rules, seed)
    _, order = tile_order(rules, seed)
    deck = deck_order(rules, seed)
    # the setup is the one thing the reference takes from production: check it first
    problem = stack_problem(rules, order)
    if problem is None and deck and sorted(deck) != sorted(_ref_deck(rules)):
        problem = f"message deck {deck}: expected {sorted(_ref_deck(rules))} (R-MSG-11)"
    if problem is not None:
        return 0, Divergence(rules, seed, list(strategies), 0, problem, "setup", "")
    recorder = _Recorder(deck)
    r = RefGame(rules, order, deck or None)
    seats = [player(s, "strategies") for s in strategies]

    def choose(game, d):
        return seats[d.seat].choose(game, d)

    compared, diff = _compare(g, r, choose, recorder.note)
    if diff is None:
        return compared, None
    turn, log = g.turn, format_log(g.events)
    last = finish_turn(g, choose, recorder)
    return compared, Divergence(rules, seed, list(strategies), turn, diff[0], diff[1], log,
                                recorder.script(g, last))


def finish_turn(g: Game, choose, recorder: _Recorder) -> int:
    """Play production game `g` to the end of its turn, recording every choice, and on
    through the extra tiles or turns its messages gave (message 4: a script ending
    before them would find the action impossible, with no tile left to draw); the last
    turn played, which a script of the game may end with."""
    last = g.turn
    while True:
        while g.decision is not None and not (g.turn > last and g.decision.kind in ("place", "town_hall")):
            d = g.decision
            recorder.note(g, d, choice := choose(g, d))
            g.apply(choice)
        if g.decision is None or not any(e["e"] == "message" and e["turn"] == last and e["extra"]
                                         for e in g.events):
            return last
        last += 1


def check_script(path: str | Path) -> tuple[int, Divergence | None]:
    """Play a scripted game (docs/SCRIPTS.md) in both engines and compare them."""
    from sim.games.script import _ScriptPlayer, check_answers_used, load_script

    script = load_script(path)
    tiles = [t for turn in script.turns for t in (*turn.discarded, turn.tile) if t != "townhall"]
    g = Game(script.rules, 0, stack=tiles, town_halls_at_end=False)
    r = RefGame(script.rules, tiles, deck_order(script.rules, 0) or None, town_halls_at_end=False)
    answer = _ScriptPlayer(script)
    compared, diff = _compare(g, r, answer.choose)
    if diff is None:
        check_answers_used(script, answer)  # as `play --script` refuses them
        return compared, None
    return compared, Divergence(script.rules, 0, [], g.turn, diff[0], diff[1], format_log(g.events))


# ---------------------------------------------------------------- many games

COMBOS = tuple(tuple(e for k, e in enumerate(IMPLEMENTED_EXPANSIONS) if i >> k & 1)
               for i in range(1 << len(IMPLEMENTED_EXPANSIONS)))


def plan(games: int, expansions=None, players=None, editions=("c3.1",), strategies=DEFAULT_STRATEGIES,
         seed: int = 0, zmg: bool = False, tiles=None):
    """(rules, seed, seat strategies) for `games` games: expansions left None cycle
    through all 32 combinations; players (a count, or an inclusive (low, high) range;
    None: 2..6) cycle through the range, each count over all 32 combinations in turn
    when the expansions cycle too, game by game otherwise; editions and strategies
    cycle, seeds count up from `seed`. With `zmg`, every other classic game uses the
    ZMG switch (R-MSG-C4). `tiles` (tile set -> the text of a tile list replacing it)
    replaces the sets of each game's rules that are in play."""
    tiles = tiles or {}
    low, high = (2, 6) if players is None else (players, players) if isinstance(players, int) else players
    for i in range(games):
        exp = COMBOS[i % len(COMBOS)] if expansions is None else tuple(expansions)
        turn = i // len(COMBOS) if expansions is None else i
        n = low + turn % (high - low + 1)
        edition = editions[(i // 3) % len(editions)]
        options = MessagesOptions(edition=edition,
                                  zmg_alone=zmg and edition == "classic" and (i // 7) % 2 == 1)
        seats = [strategies[(i + s) % len(strategies)] for s in range(n)]
        sets = tile_sets(exp)
        yield (Rules(players=n, expansions=exp, messages=options,
                     tiles={k: v for k, v in tiles.items() if k in sets}), seed + i, seats)


def check_many(games, progress=None) -> Summary:
    """Check every (rules, seed, strategies) of `games`; stops at the first divergence.
    `progress(summary)` is called after each game."""
    summary = Summary()
    for rules, seed, seats in games:
        compared, div = check_game(rules, seed, seats)
        summary.games += 1
        summary.decisions += compared
        if div is not None:
            summary.divergence = div
            break
        if progress is not None:
            progress(summary)
    return summary


def progress_lines(total: int, say, every: int | None = None):
    """A `check_many` progress callback: a line to `say` every `every` games (about 20
    lines a run): games done and left, decisions compared, and the time left at the
    rate so far."""
    import time

    every = every or max(1, total // 20)
    start = time.monotonic()

    def report(summary: Summary) -> None:
        if summary.games % every and summary.games != total:
            return
        rate = summary.games / max(1e-9, time.monotonic() - start)
        left = (total - summary.games) / rate if rate else 0.0
        say(f"check: {summary.games} / {total} games, {summary.decisions:,} decisions compared, "
            f"no divergence" + (f"; about {left:.0f} s left" if summary.games < total else ""))

    return report


def _parse_options(games, expansions, players, edition, strategies, tiles=()) -> dict:
    """The `check` command's options as plan() arguments. Raises InputError."""
    if games < 1:
        raise InputError(f"--games {games}: expected a whole number of at least 1")
    exp = None
    if expansions.strip() != "all":
        exp = tuple(e.strip() for e in expansions.split(",") if e.strip() not in ("", "base"))
        try:
            Rules(expansions=exp)
        except InputError as e:
            raise InputError(f"--expansions {expansions!r}: {str(e).removeprefix('rules.expansions: ')}") from None
    low, sep, high = players.strip().partition("-")
    if not (low.isdigit() and (high.isdigit() if sep else True)
            and 2 <= int(low) <= int(high or low) <= 6):
        raise InputError(f"--players {players!r}: expected a whole number 2..6, or a range such as 2-6")
    seats = (int(low), int(high or low))
    editions = {"both": ("c3.1", "classic"), "c3.1": ("c3.1",), "classic": ("classic",)}
    if edition not in editions:
        raise InputError(f"--edition {edition!r}: expected c3.1, classic or both")
    if edition != "both" and exp is not None and "messages" not in exp:
        raise InputError(f"--edition {edition}: does nothing without messages in --expansions")
    specs = DEFAULT_STRATEGIES
    if strategies.strip():
        specs = tuple(s.strip() for s in split_top(strategies, ","))
    for s in specs:
        player(s, "--strategies")  # an unknown name fails here, before any game
    return {"expansions": exp, "players": seats, "editions": editions[edition], "strategies": specs,
            "tiles": _tile_lists(tiles, exp)}


def _tile_lists(given, exp) -> dict[str, str]:
    """--tiles SET=FILE (repeatable): {set: the file's text}, each checked by the
    production reader and, with every combination of expansions the check plays that
    holds the set, by the production deal (deal.check_tiles). Raises InputError."""
    from sim.engine.deal import check_tiles
    from sim.formats.tiles import SETS, parse_tiles
    from sim.text import read_input

    out = {}
    for item in given:
        name, eq, file = item.partition("=")
        if not eq or name.strip() not in SETS or not file.strip():
            raise InputError(f"--tiles {item!r}: expected SET=FILE with SET one of {', '.join(SETS)}")
        if name.strip() in out:
            raise InputError(f"--tiles {item!r}: tile set {name.strip()} given twice")
        try:
            text = read_input(file.strip(), "tile file")
            parse_tiles(text, file.strip())
        except InputError as e:
            raise InputError(f"--tiles {name.strip()}: {e}") from None
        out[name.strip()] = text
    combos = COMBOS if exp is None else (exp,)
    for name in out:
        playing = [c for c in combos if name in tile_sets(c)]
        if not playing:
            raise InputError(f"--tiles {name}: the tile set is not in play with --expansions "
                             f"{','.join(exp) or 'base'}")
        for c in playing:
            sets = tile_sets(c)
            try:
                check_tiles(Rules(expansions=c, tiles={k: v for k, v in out.items() if k in sets}))
            except InputError as e:
                raise InputError(f"--tiles (with {','.join(c) or 'base'}): {e}") from None
    return out


def run_check(games, expansions, players, edition, zmg, strategies, seed, out, script, echo,
              progress=None, tiles=()) -> Summary:
    """The `carcsim check` command: check games or one script, print the outcome and,
    at a divergence, write its scripted game to `out`; `progress` (a line printer, e.g.
    to stderr) hears how far the check is."""
    # a divergence's script goes there: refused now, not after the games that find one
    if not Path(out).is_dir():
        raise InputError(f"--out {out}: expected an existing directory")
    if not os.access(out, os.W_OK | os.X_OK):
        raise InputError(f"--out {out}: directory is not writable")
    if script is not None:
        compared, div = check_script(script)
        summary = Summary(games=1, decisions=compared, divergence=div)
    else:
        options = _parse_options(games, expansions, players, edition, strategies, tiles)
        if zmg and "classic" not in options["editions"]:
            raise InputError(f"--zmg: does nothing with --edition {edition} (R-MSG-C4 is a classic-edition "
                             f"switch): expected --edition classic or both")
        summary = check_many(plan(games, seed=seed, zmg=zmg, **options),
                             progress_lines(games, progress or (lambda line: None)))
    div = summary.divergence
    if div is not None:
        echo(div.report())
        if div.script:
            path = Path(out) / f"divergence-seed{div.seed}.toml"
            text = div.script
            if div.rules.tiles:  # the game's tile lists beside it, which its [rules.tiles] names
                named = []
                for name, tiles_text in div.rules.tiles:
                    file = Path(out) / f"divergence-seed{div.seed}-{name}.tiles"
                    write_file(file, tiles_text, f"--out {out}: {file.name}")
                    named.append(f'{name} = "{file.as_posix()}"')
                text = text.replace("\n\n[[turns]]", "\n\n[rules.tiles]\n" + "\n".join(named)
                                    + "\n\n[[turns]]", 1)
            write_file(path, text, f"--out {out}: {path.name}")  # whole or untouched
            try:
                _, again = check_script(path)
                how = ("replays the divergence" if again is not None else
                       "replays without a divergence: decisions a script cannot name follow its policies")
            except CarcsimError as e:  # the script is written, whatever its replay says
                how = f"does not replay: {e}"
            echo(f"scripted game: {path} ({how})")
    echo(summary.line())
    return summary
