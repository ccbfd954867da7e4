"""The differential harness: the production engine against the reference engine,
action by action (issue 12).

A seeded game is played by the production engine (sim/game.py) with built-in
strategies; every decision it reaches is compared with the reference engine's
(sim/reference/, fed the same tile stack and message deck), the chosen move is applied
to both, and at each decision these must be equal:
    the decision     kind, seat, tile, info
    the choices      the same set in the same order
    the events       everything emitted since the previous decision
    the scores       every seat's score and points by source (and, with The Messages,
                     both scoring figures)
and at the end the events of final scoring and the result.

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

from dataclasses import dataclass, field
from pathlib import Path

from sim.errors import InputError
from sim.game import Game, tile_order
from sim.log import format_log
from sim.messages import MessagesOptions
from sim.reference import RefGame
from sim.rules import IMPLEMENTED_EXPANSIONS, Rules
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
    "crisis": "R-MM-11", "favour": "R-MM-2", "scarecrow": "R-MM-8", "ride": "R-MM-6, R-COU-4",
    "figure_lost": "RULES.md 6, R-MM-2, R-MM-8", "final": "R-BASE-8", "end": "R-BASE-9",
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
        return (f"divergence: seed {self.seed}, {self.rules.players} players "
                f"({', '.join(self.strategies)}), expansions {exp}, edition "
                f"{self.rules.messages.edition}, zmg {self.rules.messages.zmg_alone}, turn {self.turn}\n"
                f"{self.what}\nrulings: {self.rulings}\n--- production turn log ---\n{self.log}")


@dataclass
class Summary:
    games: int = 0
    decisions: int = 0
    divergence: Divergence | None = None
    script_path: str | None = None
    per_combo: dict = field(default_factory=dict)

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


def _event_diff(pe: list[dict], re_: list[dict]) -> tuple[str, str] | None:
    for a, b in zip(pe, re_):
        if a != b:
            return f"event differs:\n  {_differs(a, b)}", RULINGS.get(a["e"], "") or RULINGS.get(b["e"], "")
    if len(pe) != len(re_):
        extra = pe[len(re_):] or re_[len(pe):]
        who = "production" if len(pe) > len(re_) else "reference"
        return (f"only the {who} emits {extra[0]!r}" + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""),
                RULINGS.get(extra[0]["e"], ""))
    return None


def _standings(game) -> list:
    out = []
    for s in range(game.rules.players):
        figs = None
        if game.msg is not None:
            figs = tuple(game.msg.players[s].position) if isinstance(game, Game) else tuple(game.msg.figures[s])
        out.append((game.scores[s], dict(game.points[s]), figs))
    return out


def _result_core(res: dict) -> dict:
    keys = ("seat", "score", "rank", "points", "scoring_meeple", "messenger")
    return {"winners": res["winners"],
            "players": [{k: p[k] for k in keys if k in p} for p in res["players"]]}


def check_game(rules: Rules, seed: int, strategies: list[str]) -> tuple[int, Divergence | None, Game]:
    """Play one seeded game in both engines; (decisions compared, first divergence or
    None, the production game)."""
    g = Game(rules, seed)
    _, order = tile_order(rules, seed)
    r = RefGame(rules, order, None if g.msg is None else list(g.msg.deck))
    seats = [player(s, "strategies") for s in strategies]
    seen_p = seen_r = 0
    compared = 0

    def diverged(what: str, rulings: str) -> tuple[int, Divergence, Game]:
        return compared, Divergence(rules, seed, list(strategies), g.turn, what, rulings,
                                    format_log(g.events)), g

    while True:
        pd, rd = g.decision, r.decision
        pe = _production_events(g, g.events[seen_p:])
        re_ = list(r.events[seen_r:])
        seen_p, seen_r = len(g.events), len(r.events)
        if pd is None or rd is None:
            break
        ev = _event_diff(pe, re_)
        if ev:
            return diverged(*ev)
        choices, info, mapping = _production_decision(g, pd)
        rchoices, rinfo = _reference_decision(r, rd)
        if (pd.kind, pd.seat, pd.tile) != (rd.kind, rd.seat, rd.tile):
            return diverged("decision differs (kind, seat, tile):\n  " + _differs(
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
            return diverged(what, RULINGS.get(pd.kind, ""))
        if info != rinfo:
            return diverged(f"{pd.kind} info differs:\n  " + _differs(info, rinfo), RULINGS.get(pd.kind, ""))
        if _standings(g) != _standings(r):
            return diverged("scores differ (score, points by source, scoring figures per seat):\n  "
                            + _differs(_standings(g), _standings(r)), "R-BASE-6..9")
        compared += 1
        choice = seats[pd.seat].choose(g, pd)
        g.apply(choice)
        r.apply(mapping.get(choice, choice))
    if pd is not None or rd is not None:
        who, d = ("production", pd) if pd is not None else ("reference", rd)
        ev = _event_diff(pe, re_)
        if ev:
            return diverged(*ev)
        return diverged(f"only the {who} goes on, with a {d.kind} decision for seat {d.seat}",
                        RULINGS.get(d.kind, ""))
    ev = _event_diff(_final_groups(pe), _final_groups(re_))
    if ev:
        return diverged(*ev)
    pres, rres = _result_core(g.result()), _result_core(r.result())
    if pres != rres:
        return diverged("result differs:\n  " + _differs(pres, rres), "R-BASE-8, R-BASE-9")
    return compared, None, g


# ---------------------------------------------------------------- many games

COMBOS = tuple(tuple(e for k, e in enumerate(IMPLEMENTED_EXPANSIONS) if i >> k & 1)
               for i in range(1 << len(IMPLEMENTED_EXPANSIONS)))


def plan(games: int, expansions=None, players=None, editions=("c3.1",), strategies=DEFAULT_STRATEGIES,
         seed: int = 0, zmg: bool = False):
    """(rules, seed, seat strategies) for `games` games: each parameter left None
    cycles (expansions through all 16 combinations, players 2..6), editions and
    strategies cycle, seeds count up from `seed`. With `zmg`, every other classic
    game uses the ZMG switch (R-MSG-C4)."""
    for i in range(games):
        exp = COMBOS[i % len(COMBOS)] if expansions is None else tuple(expansions)
        n = 2 + (i // len(COMBOS)) % 5 if players is None else players
        edition = editions[(i // 3) % len(editions)]
        options = MessagesOptions(edition=edition,
                                  zmg_alone=zmg and edition == "classic" and (i // 7) % 2 == 1)
        seats = [strategies[(i + s) % len(strategies)] for s in range(n)]
        yield Rules(players=n, expansions=exp, messages=options), seed + i, seats


def check_many(games, *, progress=None) -> Summary:
    """Check every (rules, seed, strategies) of `games`; stops at the first divergence."""
    summary = Summary()
    for rules, seed, seats in games:
        compared, div, g = check_game(rules, seed, seats)
        summary.games += 1
        summary.decisions += compared
        combo = ",".join(rules.expansions) or "base"
        summary.per_combo[combo] = summary.per_combo.get(combo, 0) + 1
        if div is not None:
            div.script = scripted_game(g, div.turn)
            summary.divergence = div
            break
        if progress is not None:
            progress(summary)
    return summary
