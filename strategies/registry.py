"""The policy registry: policies found by name, built-in policies, players as
compositions of policies, and the seat-spec syntax (docs/ARCHITECTURE.md layer 5).

A policy answers decisions and never sees the game itself: `choose(view, decision,
rng)` gets the game's read-only view (sim/engine/view.py) and the decision with read-only
choices, and returns one of `decision.choices`; `rng` is the seat's own stream, owned
by the game so that clones stay identical. A player is a composition of policies, one per
decision kind: `Player({"place": ..., "figure": ...})`, or one policy for everything.

The built-in policies (`BuiltIn`: first, random, greedy, the scoring-figure and
message policies) are played by the C game: a seat whose policy for a kind is built in
never leaves C for it (sim/engine/seats.py seat_policy: their classes declare `c_policy`),
and their `choose` asks the C game
for that same answer (sim/csrc/choice.c), so a Python strategy may compose them.
"""

from __future__ import annotations

import functools
import math
import tomllib

from sim import expansions
from sim.errors import InputError, quote
from sim.text import split_top
from strategies import plugins
from sim.engine.view import strategy_decision, view_of

REGISTRY: dict[str, type] = {}
MAX_NUMBER = 1e12  # a parameter's magnitude: weights and counts far past any sane value are typos


def register(name: str):
    """Class decorator: make a policy available by `name`."""
    def deco(cls):
        if name in REGISTRY:
            raise ValueError(f"policy {name!r} registered twice")
        cls.name = name
        if issubclass(cls, BuiltIn):  # the C game plays it under this name (sim/engine/seats.py)
            cls.c_policy = name
        REGISTRY[name] = cls
        return cls
    return deco


def _policy_class(name, where: str):
    """The class `name` names: a registered policy, a plug-in (`file.py:Class`,
    `module:Class`) or an entry point of group carcsim.strategies."""
    if isinstance(name, str) and plugins.is_target(name):
        return plugins.load(name, where), False
    if isinstance(name, str) and name in REGISTRY:
        return REGISTRY[name], True
    target = plugins.entry_point(name) if isinstance(name, str) and name else None
    if target is None:
        raise InputError(f"{where}: unknown strategy {quote(name)}: expected one of "
                         f"{', '.join(sorted(REGISTRY))}, <file.py>:<class> or <module>:<class>")
    return plugins.load(target, where), False


def make(name: str, params: dict | None = None, where: str = "strategy"):
    """Build the policy `name` with `params`. Raises InputError naming `where`.

    A plug-in class's PARAMS, when it declares them, are checked like a built-in's;
    without PARAMS its constructor takes the parameters as they are."""
    cls, registered = _policy_class(name, where)
    params = dict(params or {})
    allowed = getattr(cls, "PARAMS", {} if registered else None)
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):  # nan/inf would poison every sum
            raise InputError(f"{where}: {name}.{key} = {value!r}: expected a finite number")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and (
                abs(value) > MAX_NUMBER):  # an int too large for a float, or for C
            raise InputError(f"{where}: {name}.{key} = {quote(value, 40)}: expected a number of "
                             f"at most {MAX_NUMBER:g} in magnitude")
        if allowed is None:  # a plug-in without PARAMS: its constructor checks the rest
            continue
        if key not in allowed:
            raise InputError(f"{where}: {name}: unknown parameter {quote(key)}: expected "
                             f"{', '.join(allowed) or 'no parameters'}")
        expected = allowed[key]
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            params[key] = value = float(value)
        if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
            raise InputError(f"{where}: {name}.{key} = {quote(value)}: expected {expected.__name__}")
    try:
        policy = cls(**params)
    except (Exception, SystemExit) as e:  # noqa: BLE001 - a plug-in's constructor: its error is one line
        if registered and isinstance(e, ValueError):  # a built-in refusing its parameters
            raise InputError(f"{where}: {name}: {e}") from None
        if registered:
            raise
        raise InputError(f"{where}: {name}: could not be built: {type(e).__name__}: "
                         f"{plugins.short(e)}") from None
    if not callable(getattr(policy, "choose", None)):
        raise InputError(f"{where}: {name}: expected a policy with choose(view, decision, rng)")
    if not registered and getattr(type(policy), "name", None) is None:
        type(policy).name = name  # how Player.name and error lines call it
    return policy


class BuiltIn:
    """A policy the C game plays itself (sim/csrc/policy.c; sim/engine/seats.py seat_policy
    names it for a C seat). Called from Python (a seat the caller answers, a strategy
    that composes it, tests), it asks the game for the answer a C seat playing it gives
    (sim/csrc/choice.c): its valuation exists once, in C.

    Its parameters are fixed once __init__ returns: the C game keeps what it was given
    (a seat's cc_seat_policy, and the one sim/engine/seats.py caches per policy object for
    `choose`), so a changed attribute would be played by some paths and not others.
    Setting or deleting an attribute afterwards raises TypeError; build a new policy
    instead (strategies.make)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is not None:  # attributes may be set while any __init__ of the chain runs
            @functools.wraps(init)
            def __init__(self, *args, **kw):
                state = self.__dict__
                state["_initialising"] = state.get("_initialising", 0) + 1
                try:
                    init(self, *args, **kw)
                finally:
                    state["_initialising"] -= 1
                    if not state["_initialising"]:  # not a parameter: gone once built
                        del state["_initialising"]
            cls.__init__ = __init__

    def _refuse(self, name: str):
        if not self.__dict__.get("_initialising"):
            raise TypeError(f"{type(self).name}.{name}: a built-in policy's parameters are fixed "
                            f"when it is built; build a new one (strategies.make) instead")

    def __setattr__(self, name, value):
        self._refuse(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self._refuse(name)
        object.__delattr__(self, name)

    def choose(self, view, decision, rng):
        """The game's current `decision` answered by this policy as the C game plays
        it. `rng` is not used: a built-in policy is played by the game, drawing from
        the deciding seat's own policy stream in the C game the view shows (a clone's
        own), exactly as in play."""
        return view_of(view)._built_in_choice(self, decision)


# Who answers a decision kind that a seat's main policy does not know (each expansion
# declares its decision kinds and their default policies: sim/expansions/).
DEFAULTS = expansions.default_policies()
DECISION_KINDS = tuple(DEFAULTS)


def kinds_of(policy) -> tuple[str, ...]:
    """The decision kinds a policy answers: its KINDS, every kind when it declares none
    (a plug-in that answers only some kinds says which)."""
    return tuple(getattr(policy, "KINDS", DECISION_KINDS))


class Player:
    """A seat's policies by decision kind: `by_kind` first, then `default` for the
    kinds it handles (kinds_of), then DEFAULTS."""

    def __init__(self, default, by_kind: dict | None = None):
        self.default = default
        self.by_kind = dict(by_kind or {})
        self._given = tuple(sorted(self.by_kind))  # what the spec named (its name), not the fill-ins
        for kind in DECISION_KINDS:
            if kind not in self.by_kind and kind not in kinds_of(default):
                self.by_kind[kind] = make(DEFAULTS[kind])
        self._policies = {k: self.by_kind.get(k, default) for k in DECISION_KINDS}
        # a built-in whose parameters the C seat holds once, whatever the kind (search's
        # seat_params), cannot play two kinds of one seat with different parameters
        shared = {}
        for kind, policy in self._policies.items():
            params = getattr(policy, "seat_params", None)
            if params is not None and shared.setdefault(policy.name, params) != params:
                raise InputError(f"{self.name}: {policy.name} plays with one set of parameters "
                                 f"per seat: expected the same parameters for every decision")

    def choose(self, game, decision):
        """The seat's answer to `decision` of `game` (a game or its view; the policy
        gets the view either way)."""
        view = view_of(game)
        return self._policies[decision.kind].choose(view, strategy_decision(decision),
                                                    view.stream(decision.seat))

    @property
    def name(self) -> str:
        """The player as its spec named it: the main policy and the decisions given
        their own (the defaults that answer the kinds it leaves are not repeated)."""
        return "+".join([self.default.name] + [f"{k}={self.by_kind[k].name}" for k in self._given])


def parse_policy(text: str, where: str):
    """A policy from `name` or `name(key=value,…)`, values in TOML syntax."""
    name, paren, rest = text.strip().partition("(")
    params = {}
    if paren:
        if not rest.endswith(")"):
            raise InputError(f"{where}: {quote(text)}: expected <strategy>(<key>=<value>,…)")
        try:
            items = split_top(rest[:-1], ",")
        except InputError as e:
            raise InputError(f"{where}: {e}") from None
        for item in items:
            key, eq, value = item.partition("=")
            if key.strip() in params:  # the last value silently winning hides a typo
                raise InputError(f"{where}: {quote(text)}: parameter {quote(key.strip())} given "
                                 f"twice: expected each parameter once")
            try:
                params[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"] if eq else None
            except ValueError:  # TOMLDecodeError, or an integer of more than 4300 digits
                raise InputError(f"{where}: {name}.{key.strip()} = {quote(value.strip(), 40)}: "
                                 f"expected a number, true/false or a quoted string") from None
            if not eq:
                raise InputError(f"{where}: {quote(text)}: expected <key>=<value> in parentheses")
    return make(name, params, where)


def player(spec: str, where: str = "players") -> Player:
    """A player from `name`, `name(key=value,…)` or `name+<decision>=name+…`."""
    try:
        head, *rest = split_top(spec, "+")
    except InputError as e:  # the file and field too, not only the spec
        raise InputError(f"{where}: {e}") from None
    by_kind = {}
    for part in rest:
        kind, eq, pname = part.partition("=")
        if not eq:
            raise InputError(f"{where}: {quote(spec)}: expected <strategy>+<decision>=<strategy>")
        if kind not in DECISION_KINDS:
            raise InputError(f"{where}: {quote(spec)}: unknown decision {quote(kind)}: expected one of "
                             f"{', '.join(DECISION_KINDS)}")
        if kind in by_kind:  # the last one silently winning hides a typo
            raise InputError(f"{where}: {quote(spec)}: decision {kind!r} given twice: expected "
                             f"each decision once")
        policy = parse_policy(pname, where)
        if kind not in kinds_of(policy):
            raise InputError(f"{where}: {quote(pname)} cannot answer {kind!r} decisions")
        by_kind[kind] = policy
    return Player(parse_policy(head, where), by_kind)
