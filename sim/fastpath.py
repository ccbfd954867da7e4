"""The fast path: a whole base game with built-in policies played by the C core.

`cc_play_base` runs the same rules as sim/game.py, which stays the reference: the
tests play hundreds of seeds both ways and require the same moves and points. The
tile order and every seat's random stream come from the same derivations as Game,
so a fast game can be replayed move by move with the engine (and its events).
"""

from __future__ import annotations

from sim import scoring
from sim._core import check, ffi, lib
from sim.game import catalogue_for, tile_order
from sim.rng import derive
from sim.rules import Rules

POLICY_CODES = {"first": 0, "random": 1, "greedy": 2}


def supports(rules: Rules, players) -> bool:
    """True when the C path can play this game: base rules only, and every seat a
    single built-in policy with no per-decision overrides."""
    return not rules.expansions and all(
        not p.by_kind and getattr(p.default, "name", None) in POLICY_CODES for p in players)


def play_fast(rules: Rules, seed: int, players) -> dict:
    """Play one game in C. Returns Game.result()'s dict plus "history" (the turn
    choices) and "turns". Raises ValueError if `supports` is false."""
    if not supports(rules, players) or len(players) != rules.players:
        raise ValueError("the fast path plays base games of built-in policies only")
    cat = catalogue_for(rules)
    start, order = tile_order(rules, seed)
    n = rules.players
    stack = ffi.new("int32_t[]", [cat.index[t] for t in order])
    policy = ffi.new("int32_t[]", [POLICY_CODES[p.default.name] for p in players])
    params = ffi.new("cc_greedy_params[]", n)
    for s, p in enumerate(players):
        if p.default.name == "greedy":
            for k in range(4):
                params[s].open_weight[k] = p.default.open_weight[k]
            params[s].opponent_weight = p.default.opponent
            params[s].follower_value = p.default.follower
    states = ffi.new("uint64_t[]", [derive(seed, f"seat{s}") for s in range(n)])
    points = ffi.new("int32_t[]", 4 * n)
    moves = ffi.new("int32_t[]", 5 * len(order))
    turns = check(lib.cc_play_base(cat._ts, stack, len(order), cat.index[start.id], n,
                                   rules.followers, policy, params, states, points, moves,
                                   5 * len(order)), "cc_play_base")
    flat = ffi.unpack(points, 4 * n)
    by_source = []
    for s in range(n):
        d = dict.fromkeys(scoring.SOURCES, 0)
        d.update(zip(("road", "city", "monastery", "field"), flat[4 * s:4 * s + 4]))
        by_source.append(d)
    out = scoring.result([sum(d.values()) for d in by_source], by_source)
    m = ffi.unpack(moves, 5 * turns)
    out["history"] = list(zip(m[0::5], m[1::5], m[2::5], m[3::5], m[4::5]))
    out["turns"] = turns
    return out
