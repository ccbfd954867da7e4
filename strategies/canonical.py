"""Players by behaviour, not spelling: `canonical(spec)` is the one spec of every
spelling that plays the same games.

Two specs play the same game (same rules, seed and seat) when every decision kind
that arises is answered by the same policy with the same parameters *that it reads*
for that kind. So a spec is resolved per decision kind: its override for the kind, else
its head policy if the head answers the kind, else the kind's default policy
(strategies.DEFAULTS); then

- parameters equal to the policy's own defaults are dropped (`greedy(city=1.5)` is
  `greedy`), and so are parameters the policy does not read for that kind (READS,
  which lists exactly what sim/engine/seats.py `_set_kind` copies into the C seat for it):
  greedy's `extra` only weighs messages, its weights never the scoring figure;
- message-action overrides the edition does not have are dropped (they never come
  into play), and an override a policy already follows (`always_2(x="2")`) too;
- built-in policies that the C game plays identically for a kind are one (SAME_AS,
  from sim/csrc/policy.c `policy_scoring_figure`): greedy chooses the scoring figure
  as `dark_seeker`, `first` keeps the meeple as `meeple_only`; neither draws from the
  seat's stream, so the games are the same bit for bit.

The canonical spelling: the policy answering `place` (with the parameters that the
kinds it answers read) as the head, then `+kind=policy` for each kind, in
DECISION_KINDS order, answered differently from what that head would answer. So
`greedy+scoring_figure=dark_seeker` is `greedy`, `meeple_only` is
`greedy+scoring_figure=meeple_only`. A policy that is not built in (a plug-in) is
opaque: equal only to itself with equal parameters (defaults dropped).
"""

from __future__ import annotations

import functools
import inspect
import json
import tomllib

from sim.errors import InputError
from sim.expansions.messages import ACTIONS, ALL_ACTIONS
from sim.text import split_top
from strategies import plugins
from strategies.registry import DECISION_KINDS, DEFAULTS, REGISTRY, BuiltIn, make

_WEIGHTS = ("road", "city", "monastery", "field", "opponent", "follower")
# What a built-in policy reads when it answers a kind (sim/engine/seats.py _set_kind); a
# (policy, kind) not listed reads no parameter.
READS = {
    ("greedy", "place"): (*_WEIGHTS, "courier", "road_figure"),
    ("greedy", "figure"): (*_WEIGHTS, "road_figure"),
    ("greedy", "messages"): ("extra", *ALL_ACTIONS),
    ("always_action", "messages"): ALL_ACTIONS,
    ("always_2", "messages"): ALL_ACTIONS,
    # search (sim/csrc/search.c) reads its one set of parameters whatever the kind
    **{("search", kind): ("rollouts", "candidates", "score", "depth", "halving")
       for kind in DECISION_KINDS},
}
# (policy, kind) -> the policy the C game plays identically for that kind
SAME_AS = {("greedy", "scoring_figure"): "dark_seeker", ("first", "scoring_figure"): "meeple_only"}
# a message override a policy follows anyway: no override
NEUTRAL_OVERRIDE = {"always_action": "action", "always_2": "2"}


def _parse(text: str, where: str) -> tuple[str, dict]:
    """(name, parameters) of `name` or `name(key=value,…)`, checked by building it."""
    make_args = text.strip().partition("(")
    name, paren, rest = make_args
    params = {}
    if paren:
        for item in split_top(rest[:-1], ","):
            key, _, value = item.partition("=")
            try:
                params[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
            except tomllib.TOMLDecodeError:
                raise InputError(f"{where}: {name}.{key.strip()} = {value.strip()!r}: expected a "
                                 f"number, true/false or a quoted string") from None
    make(name, params, where)  # the same checks (and errors) as building the player
    allowed = getattr(REGISTRY[name], "PARAMS", {})
    return name, {k: float(v) if allowed.get(k) is float and not isinstance(v, bool) else v
                  for k, v in params.items()}


def parameters(spec: str, where: str = "players") -> list[str]:
    """The parameters `spec` gives built-in policies (its head's and its overrides'), in
    order; a policy that is not built in gives none (its parameters are its own).
    Raises InputError for a spec `strategies.player` refuses."""
    canonical(spec, where=where)  # its refusals
    head, *rest = split_top(spec, "+")
    out = []
    for text in [head] + [part.partition("=")[2] for part in rest]:
        if text.partition("(")[0].strip() in REGISTRY:
            out += [k for k in _parse(text, where)[1] if k not in out]
    return out


def _defaults(name: str) -> dict:
    sig = inspect.signature(REGISTRY[name].__init__)
    return {k: p.default for k, p in sig.parameters.items() if p.default is not inspect.Parameter.empty}


def _significant(name: str, params: dict, edition: str) -> dict:
    """`params` without defaults, absent actions and neutral overrides."""
    defaults = _defaults(name)
    absent = set(ALL_ACTIONS) - set(ACTIONS[edition]) if edition else set()
    neutral = NEUTRAL_OVERRIDE.get(name)
    return {k: v for k, v in params.items()
            if not (k in defaults and defaults[k] == v) and k not in absent
            and not (k in ALL_ACTIONS and v == neutral)}


def _key(kind: str, name: str, params: dict) -> tuple:
    """How (name, params) answers `kind`: the policy it plays as, and what it reads."""
    if issubclass(REGISTRY[name], BuiltIn):
        read = READS.get((name, kind), ())
        return SAME_AS.get((name, kind), name), tuple(sorted((k, v) for k, v in params.items() if k in read))
    return name, tuple(sorted(params.items()))  # not built in: every parameter may matter


def _text(name: str, params) -> str:
    if not params:
        return name
    value = lambda v: ("true" if v else "false") if isinstance(v, bool) else (  # noqa: E731
        json.dumps(v) if isinstance(v, str) else repr(v))
    return f"{name}({','.join(f'{k}={value(v)}' for k, v in sorted(dict(params).items()))})"


def canonical(spec: str, edition: str = "", kinds=None, where: str = "players", unread=()) -> str:
    """The canonical spelling of the player `spec` under The Messages' `edition` ("" when
    not in play), over the decision kinds `kinds` that arise (default: all), with the
    built-in policies' parameters `unread` dropped (those only an expansion not in play
    reads: sim.expansions.unread_params). Raises InputError for a spec
    `strategies.player` refuses."""
    return _canonical(spec, edition, tuple(k for k in DECISION_KINDS if kinds is None or k in kinds),
                      where, frozenset(unread))


@functools.lru_cache(maxsize=4096)  # the plan asks for every seat of every block
def _canonical(spec: str, edition: str, kinds: tuple, where: str, unread: frozenset = frozenset()) -> str:
    head, *rest = split_top(spec, "+")
    names = [head] + [part.partition("=")[2] for part in rest]
    foreign = [n.partition("(")[0].strip() for n in names if n.partition("(")[0].strip() not in REGISTRY]
    if foreign:
        # a user's own policy (strategies/plugins.py): its behaviour is its own, so the
        # spelling is the player. A plug-in's file or module is not loaded for its
        # spelling (a run's tables are read where the file may not be: report, compare,
        # export); any other name is refused as strategies.player refuses it
        if not all(plugins.is_target(n) for n in foreign):
            from strategies import player
            player(spec, where)
        return spec.strip()
    entries = {"head": _parse(head, where)}
    answered = {}  # kind -> entry name ("head", or the override's kind)
    for part in rest:
        kind, eq, text = part.partition("=")
        if not eq or kind not in DECISION_KINDS:
            from strategies import player
            player(spec, where)  # raises its one-line error
        entries[kind] = _parse(text, where)
        answered[kind] = kind
    for kind in DECISION_KINDS:
        if kind not in answered:
            if kind in getattr(REGISTRY[entries["head"][0]], "KINDS", ()):
                answered[kind] = "head"
            else:
                entries.setdefault(f"default:{kind}", (DEFAULTS[kind], {}))
                answered[kind] = f"default:{kind}"
    clean = {e: (n, {k: v for k, v in _significant(n, p, edition).items() if k not in unread})
             for e, (n, p) in entries.items()}
    effective = {k: _key(k, *clean[answered[k]]) for k in kinds}
    # the head: the policy answering `place`, with what the kinds it answers read
    top = answered["place"]
    name, params = clean[top]
    if issubclass(REGISTRY[name], BuiltIn):
        read = {p for k in kinds if answered[k] == top for p in READS.get((name, k), ())}
        params = {k: v for k, v in params.items() if k in read}
    parts = [_text(name, params)]
    for kind in kinds:
        if kind == "place":
            continue
        by_head = (_key(kind, name, params) if kind in getattr(REGISTRY[name], "KINDS", ())
                   else _key(kind, DEFAULTS[kind], {}))
        if effective[kind] != by_head:
            parts.append(f"{kind}={_text(*effective[kind])}")
    return "+".join(parts)


def same_player(a: str, b: str, edition: str = "", kinds=None, unread=()) -> bool:
    """Whether specs `a` and `b` play the same games (canonical spellings equal)."""
    return canonical(a, edition, kinds, unread=unread) == canonical(b, edition, kinds, unread=unread)
