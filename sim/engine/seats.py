"""A seat's policies as the C game plays them: built-in policies turned into
cc_seat_policy (core.h).

The engine knows no strategy module. A policy object is played in C when its class
declares, in its own body, `c_policy = "<name>"` with a name the C core plays for that
decision kind (strategies.register sets it on the built-ins); a subclass that does
not declare it again is a Python policy (its own `choose` is asked). A seat is any
object with `by_kind` (decision kind -> policy) and `default` (a strategies.Player).

`seat_policy` fills a seat's cc_seat_policy: each decision kind (PAUSABLE, the
struct's decision fields) whose policy is built in gets its C code and parameters
(the parts' `fill_policy`, and a policy's own `c_fill(out, kind)` when it declares one),
every other kind CC_POL_PYTHON (the C game stops and asks Python). `built_in` says
whether a game of seats never leaves C. `policy_struct` is the cc_seat_policy of one
policy object, with which Game.policy_choice and Game.policy_values answer a decision
as a C seat playing it would (so a built-in policy's answer exists once, in C).
"""

from __future__ import annotations

import weakref

from sim import expansions
from sim.core import ffi, lib, names
from sim.engine.rules import Rules

_POLICY_NAMES = names(lib.CC_NAMES_POLICY)  # by CC_POL_* code from CC_POL_FIRST on


def _accepted(decision: int) -> dict[str, int]:
    """The built-in policies (name -> C code) the C core accepts for decision kind
    `decision`'s cc_seat_policy field (cc_policy_accepts: the check cc_game_new applies)."""
    return {name: code for code, name in enumerate(_POLICY_NAMES)
            if lib.cc_policy_accepts(decision, code) == 1}


# cc_seat_policy's decision fields: every part's decision kinds (sim/expansions/)
PAUSABLE = expansions.decision_kinds()
# the C codes of the built-in policies by cc_seat_policy decision field (PAUSABLE; C
# names each decision kind by its field, CC_NAMES_DECISION)
POLICY_CODES = {field: _accepted(names(lib.CC_NAMES_DECISION).index(field)) for field in PAUSABLE}
# what a built-in policy reads besides its code, by part (sim/expansions/ `fill_policy`)
_FILLS = tuple(e.fill_policy for e in expansions.PARTS if e.fill_policy is not None)


def built_in(rules: Rules, players) -> bool:
    """Whether a game of these rules and players is played in C unaided: every seat's
    every policy built in."""
    if len(players) != rules.players:
        return False
    scratch = ffi.new("cc_seat_policy *")
    return all(seat_policy(p, expansions.policy_edition(rules), scratch) for p in players)


def _builtin(policy, table: dict, exact: bool = True):
    """The C code of a built-in policy (its class declares `c_policy` itself), or None
    (a Python policy). Not `exact`: the built-in class a subclass inherits its `choose`
    from (for Game.policy_choice, which plays that built-in's choose)."""
    for cls in (type(policy),) if exact else type(policy).__mro__:
        name = cls.__dict__.get("c_policy")
        if name in table:
            return table[name]
    return None


def _set_kind(out, kind: str, policy, edition: str, exact: bool = True) -> bool:
    """Set cc_seat_policy `out`'s policy for decision `kind` to `policy` with its
    parameters: its C code if it is built in (`exact` as for _builtin), else
    CC_POL_PYTHON. True if built in."""
    code = _builtin(policy, POLICY_CODES[kind], exact)
    setattr(out, kind, lib.CC_POL_PYTHON if code is None else code)
    if code is not None:
        for fill in _FILLS:
            fill(out, kind, code, policy, edition)
        own = getattr(policy, "c_fill", None)  # a built-in's own parameters (search)
        if own is not None:
            own(out, kind)
    return code is not None


def seat_policy(player, edition: str, out) -> bool:
    """Fill cc_seat_policy `out` for `player`: each decision kind whose policy is built
    in is played in C, every other kind is CC_POL_PYTHON (returned to the caller).
    True when every kind is built in (the seat never leaves C)."""
    return all([_set_kind(out, kind, player.by_kind.get(kind, player.default), edition)
                for kind in PAUSABLE])


_POLICY_STRUCTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def policy_struct(policy, edition: str):
    """cc_seat_policy playing `policy` (or the built-in it inherits `choose` from) for
    every decision kind it is built in for (the others CC_POL_PYTHON), per edition (the
    overrides name actions by edition). Built once per policy object: a built-in
    policy's parameters cannot change after it is built (strategies.BuiltIn)."""
    by_edition = _POLICY_STRUCTS.get(policy)  # a hot path: no weakref made per call
    if by_edition is None:
        by_edition = _POLICY_STRUCTS[policy] = {}
    if edition not in by_edition:
        out = ffi.new("cc_seat_policy *")
        for kind in PAUSABLE:
            _set_kind(out, kind, policy, edition, exact=False)
        by_edition[edition] = out
    return by_edition[edition]
