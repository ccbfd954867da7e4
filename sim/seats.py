"""A seat's policies as the C game plays them: strategies' built-in policies turned into
cc_seat_policy (core.h), and a built-in policy asked from Python.

`seat_policy` fills a seat's cc_seat_policy from a strategies.Player: each decision
kind (PAUSABLE, the struct's decision fields) whose policy is built in gets its C code
and parameters, every other kind CC_POL_PYTHON (the C game stops and asks Python).
`built_in` says whether a game of seats never leaves C. `policy_choice` and
`policy_values` answer a game's current decision as a C seat playing the policy would
(cc_game_policy_choice, cc_game_policy_values): strategies.BuiltIn.choose and
Greedy.values go through them, so a built-in policy's answer exists once, in C.
"""

from __future__ import annotations

import weakref

from sim._core import check, ffi, lib
from sim.errors import IllegalMove
from sim.expansions import ACTION_NAMES
from sim.rules import Rules
from strategies import REGISTRY

PLACE_POLICIES = {"first": lib.CC_POL_FIRST, "random": lib.CC_POL_RANDOM, "greedy": lib.CC_POL_GREEDY}
FIGURE_POLICIES = {"first": lib.CC_POL_FIRST, "random": lib.CC_POL_RANDOM, "greedy": lib.CC_POL_GREEDY,
                   "meeple_only": lib.CC_POL_MEEPLE_ONLY, "alternate": lib.CC_POL_ALTERNATE,
                   "dark_seeker": lib.CC_POL_DARK_SEEKER, "spread": lib.CC_POL_SPREAD,
                   "coverage": lib.CC_POL_COVERAGE}
MESSAGE_POLICIES = {"first": lib.CC_POL_FIRST, "random": lib.CC_POL_RANDOM, "greedy": lib.CC_POL_GREEDY,
                    "always_action": lib.CC_POL_ALWAYS_ACTION, "always_2": lib.CC_POL_ALWAYS_2}
OVERRIDES = {"2": lib.CC_OVERRIDE_TWO, "action": lib.CC_OVERRIDE_ACTION}
MM_POLICIES = {"first": lib.CC_POL_FIRST, "random": lib.CC_POL_RANDOM, "greedy": lib.CC_POL_GREEDY}
MM_KINDS = ("figure", "town_hall", "favour", "scarecrow", "ride")  # Messengers & Mayors decisions
PAUSABLE = ("place", "scoring_figure", "messages", *MM_KINDS)  # cc_seat_policy's decision fields
# the C codes of the built-in policies by cc_seat_policy decision field (PAUSABLE)
POLICY_CODES = {"place": PLACE_POLICIES, "scoring_figure": FIGURE_POLICIES,
                "messages": MESSAGE_POLICIES, **dict.fromkeys(MM_KINDS, MM_POLICIES)}


def built_in(rules: Rules, players) -> bool:
    """Whether a game of these rules and players is played in C unaided: every seat's
    every policy built in."""
    if len(players) != rules.players:
        return False
    scratch = ffi.new("cc_seat_policy *")
    return all(seat_policy(p, rules.messages.edition, scratch) for p in players)


def _builtin(policy, table: dict, exact: bool = True):
    """The C code of a registered built-in policy, or None (a Python policy). Not
    `exact`: the built-in class a subclass inherits its `choose` from (for policy_choice,
    which plays that built-in's choose)."""
    for cls in (type(policy),) if exact else type(policy).__mro__:
        name = getattr(cls, "name", None)
        if name in table and REGISTRY.get(name) is cls:
            return table[name]
    return None


def _set_kind(out, kind: str, policy, edition: str, exact: bool = True) -> bool:
    """Set cc_seat_policy `out`'s policy for decision `kind` to `policy` with its
    parameters: its C code if it is built in (`exact` as for _builtin), else
    CC_POL_PYTHON. True if built in."""
    code = _builtin(policy, POLICY_CODES[kind], exact)
    setattr(out, kind, lib.CC_POL_PYTHON if code is None else code)
    if code == lib.CC_POL_GREEDY and kind == "place":
        out.open_weight = policy.open_weight
        out.opponent, out.follower, out.courier = policy.opponent, policy.follower, policy.courier
        out.road_figure[0] = _road_figure(policy)
    elif code == lib.CC_POL_GREEDY and kind == "figure":  # the figure decision after activations
        out.figure_weight = policy.open_weight
        out.figure_opponent, out.figure_follower = policy.opponent, policy.follower
        out.road_figure[1] = _road_figure(policy)
    elif code is not None and kind == "messages":
        if code == lib.CC_POL_GREEDY:
            out.extra = policy.extra
        for action, how in getattr(policy, "overrides", ()):
            if action in ACTION_NAMES[edition]:  # the other edition's names never match
                out.overrides[ACTION_NAMES[edition].index(action)] = OVERRIDES[how]
    return code is not None


def _road_figure(greedy) -> int:
    """cc_seat_policy.road_figure of a greedy policy: 0 none, else 1 + the figure kind."""
    return 0 if greedy.road_figure is None else 1 + greedy.road_figure


def seat_policy(player, edition: str, out) -> bool:
    """Fill cc_seat_policy `out` for `player`: each decision kind whose policy is built
    in is played in C, every other kind is CC_POL_PYTHON (returned to the caller).
    True when every kind is built in (the seat never leaves C)."""
    return all([_set_kind(out, kind, player.by_kind.get(kind, player.default), edition)
                for kind in PAUSABLE])


_POLICY_STRUCTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _policy_struct(policy, edition: str):
    """cc_seat_policy playing `policy` (or the built-in it inherits `choose` from) for
    every decision kind it is built in for (the others CC_POL_PYTHON), per edition (the
    overrides name actions by edition). Built once per policy object: a built-in
    policy's parameters cannot change after it is built (strategies.BuiltIn)."""
    by_edition = _POLICY_STRUCTS.setdefault(policy, {})
    if edition not in by_edition:
        out = ffi.new("cc_seat_policy *")
        for kind in PAUSABLE:
            _set_kind(out, kind, policy, edition, exact=False)
        by_edition[edition] = out
    return by_edition[edition]


def _c_game(game, policy):
    from sim.game import Game  # sim.game builds its seats with this module

    if not isinstance(game, Game):
        raise TypeError(f"{getattr(policy, 'name', policy)!r} is a built-in policy, played by the "
                        f"C game (sim.game.Game): got {type(game).__module__}.{type(game).__qualname__}")
    return game


def policy_choice(game, policy, decision):
    """`decision`, the current decision of `game` (a sim.game.Game), answered by the
    built-in `policy` as the C game answers it for a seat playing `policy`
    (cc_game_policy_choice): the same C functions and parameters, and the deciding
    seat's own policy stream in `game` (a clone's own), which a random policy advances
    as in play.

    Raises TypeError for anything but a C game, IllegalMove once the game is over,
    ValueError for a decision other than the game's current one, and CoreArgumentError
    for a policy that is not built in for the decision's kind."""
    game = _c_game(game, policy)
    d = game.decision
    if d is None:
        raise IllegalMove("the game is over")
    if decision is not d and (decision.kind, decision.seat, decision.tile, len(decision.choices)) != (
            d.kind, d.seat, d.tile, len(d.choices)):
        raise ValueError(f"{policy.name}: a built-in policy answers the game's current decision "
                         f"({d.kind} of seat {d.seat}), not a {decision.kind} of seat {decision.seat}")
    index = ffi.new("int32_t *")
    check(lib.cc_game_policy_choice(game._ptr, _policy_struct(policy, game.rules.messages.edition),
                                    index), "cc_game_policy_choice", policy=policy.name,
          decision=d.kind)
    return d.choices[index[0]]


def policy_values(game, greedy) -> list[float]:
    """The value built-in `greedy` gives each choice of `game`'s current place decision
    (cc_game_policy_values: its valuation before the courier bonus and road_figure)."""
    game = _c_game(game, greedy)
    d = game.decision
    n = 0 if d is None else len(d.choices)
    values = ffi.new("double[]", max(1, n))
    got = check(lib.cc_game_policy_values(game._ptr, _policy_struct(greedy, game.rules.messages.edition),
                                          values, n), "cc_game_policy_values", policy=greedy.name,
                decision=None if d is None else d.kind)
    return ffi.unpack(values, got)
