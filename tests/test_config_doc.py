"""docs/CONFIG.md against the parser it documents (sim/tournament/config.py): a key the
parser takes and the document does not describe, a default or a knob's range that
changed, or an example that no longer parses fails here.

Every key of the parser's key sets (RUN_KEYS, SPRT_KEYS, RULES_KEYS, each expansion's
option keys, DESIGN_KEYS, the [rules.variant] knobs, and the top-level and `sweep`
keys, read from the parser's own "unknown key" errors) has a row in its section's
table, `key` in its first cell; the defaults in those rows are the ones the parser
gives a config that leaves the key out; the names a config may write (design kinds,
fork kinds, editions, expansions, message actions, decision kinds, built-in policies)
appear in backticks; every ```toml block is a complete config that parses."""

import json
import re
from pathlib import Path

import pytest

from sim import expansions
from sim.errors import InputError
from sim.expansions.messages import ACTIONS, EDITIONS
from sim.tournament.config import (DESIGN_KEYS, DESIGNS, FORKS, RULES_KEYS, RUN_KEYS, SPRT_KEYS,
                                   parse_experiment)
from strategies.registry import DECISION_KINDS, REGISTRY

DOC = Path(__file__).resolve().parent.parent / "docs" / "CONFIG.md"


@pytest.fixture(autouse=True)
def _tile_file(tmp_path, monkeypatch):
    """The tile file the [rules.tiles] example names, in the working directory: the
    shipped Messengers & Mayors set with one tile's count changed."""
    from importlib import resources
    text = resources.files("sim").joinpath("data", "tiles", "mayors.tiles").read_text()
    (tmp_path / "my_mayors.tiles").write_text(text.replace("MM05 x1", "MM05 x2"))
    monkeypatch.chdir(tmp_path)
FIXED = '[design]\nkind = "fixed"\nseats = ["greedy", "random"]\n'


def _allowed(text: str) -> set[str]:
    """The keys the parser allows where `text` puts an unknown one, from its error."""
    with pytest.raises(InputError, match="unknown key") as e:
        parse_experiment(text, "example.toml")
    return set(str(e.value).rpartition("expected one of ")[2].split(", "))


TOP_KEYS = _allowed("bogus = 1\n[run]\nblocks = 1\n" + FIXED)
SWEEP_KEYS = _allowed("[run]\nblocks = 1\n" + FIXED + "sweep = {bogus = 1}\n")


def _sections(text: str) -> dict[str, str]:
    """Heading (without its #s) -> the text up to the next heading."""
    out, head, fenced = {}, "", False
    for line in text.splitlines():
        fenced ^= line.startswith("```")
        if line.startswith("#") and not fenced:
            head = line.lstrip("#").strip()
            out[head] = ""
        else:
            out[head] = out.get(head, "") + line + "\n"
    return out


def _rows(section: str) -> dict[str, list[str]]:
    """Table rows whose first cell is one `key`: key -> the row's cells."""
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `([^`]+)` \|", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in line.strip().strip("|").split(" | ")]
    return rows


def _toml(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else json.dumps(value)


def _defaults() -> dict[str, dict[str, str]]:
    """Section -> {key: the default the parser gives, as TOML}, from configs leaving
    the keys out."""
    exp = parse_experiment("[run]\nblocks = 1\n" + FIXED, "example.toml")
    cf = parse_experiment('[run]\nblocks = 1\n[rules]\nexpansions = ["messages"]\n[design]\n'
                          'kind = "counterfactual"\nseats = ["greedy", "random"]\n',
                          "example.toml")
    sprt = parse_experiment('[run]\nblocks = 1\n[run.sprt]\narm = "b"\n[design]\n'
                            'kind = "variants"\nopponents = ["greedy"]\n'
                            'arms = [{name = "a", player = "greedy"}, '
                            '{name = "b", player = "random"}]\n', "example.toml").sprt
    options = {f"`[rules.{o.field}]`": {k: _toml(v) for k, v in
                                        o.plain(getattr(exp.rules, o.field)).items()}
               for o in expansions.options()}
    return {
        "`[run]`": {"seed": _toml(exp.seed), "shard_blocks": _toml(exp.shard_blocks),
                    "events": _toml(exp.events)},
        "`[run.sprt]`": dict(zip(("p0", "p1", "alpha", "beta"), map(_toml, sprt[2:]))),
        "`[rules]`": {"players": _toml(exp.rules.players), "followers": _toml(exp.rules.followers),
                      "expansions": _toml(list(exp.rules.expansions))},
        "`[design]`": {"rollouts": _toml(cf.rollouts), "forks": _toml(list(cf.forks)),
                       "editions": _toml(list(exp.editions))},
    } | options


def problems(text: str) -> list[str]:
    """What docs/CONFIG.md (`text`) says differently from the parser, one line each."""
    out = []
    sections = _sections(text)
    wanted = {"The file": TOP_KEYS, "`[run]`": RUN_KEYS, "`[run.sprt]`": SPRT_KEYS,
              "`[rules]`": RULES_KEYS, "`[design]`": DESIGN_KEYS, "`sweep`": SWEEP_KEYS,
              "`[rules.variant]`": set(expansions.KNOBS)}
    wanted |= {f"`[rules.{o.field}]`": set(o.keys) for o in expansions.options()}
    for head, keys in wanted.items():
        if head not in sections:
            out.append(f"no section {head}")
            continue
        rows = _rows(sections[head])
        out += [f"{head}: no row for `{k}`" for k in sorted(keys - set(rows))]
        out += [f"{head}: a row for `{k}`, which the parser does not take"
                for k in sorted(set(rows) - keys)]
    for head, defaults in _defaults().items():
        rows = _rows(sections.get(head, ""))
        for key, value in defaults.items():
            if key in rows and f"`{value}`" not in rows[key][2]:
                out.append(f"{head}: `{key}` defaults to `{value}`, the row says {rows[key][2]}")
    knobs = _rows(sections.get("`[rules.variant]`", ""))
    for name, (_, knob) in expansions.KNOBS.items():
        if name in knobs and knobs[name][2:4] != [f"{knob.lo}..{knob.hi}", str(knob.default)]:
            out.append(f"`{name}`: range {knob.lo}..{knob.hi}, default {knob.default}; the row "
                       f"says {' | '.join(knobs[name][2:4])}")
    names = {*RUN_KEYS, *SPRT_KEYS, *RULES_KEYS, *DESIGN_KEYS, *SWEEP_KEYS, *TOP_KEYS,
             *(k for o in expansions.options() for k in o.keys), *expansions.KNOBS, *DESIGNS,
             *FORKS, *EDITIONS, *expansions.NAMES, *(a for e in EDITIONS for a in ACTIONS[e]),
             *DECISION_KINDS, *REGISTRY}
    out += [f"`{n}` is not in the document" for n in sorted(names) if f"`{n}`" not in text]
    return out


def toml_blocks(text: str) -> list[str]:
    return re.findall(r"^```toml\n(.*?)^```$", text, re.S | re.M)


def test_the_document_says_what_the_parser_takes():
    found = problems(DOC.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("i", range(len(toml_blocks(DOC.read_text(encoding="utf-8")))))
def test_every_toml_example_parses(i):
    parse_experiment(toml_blocks(DOC.read_text(encoding="utf-8"))[i], "example.toml")


def test_the_checks_see_what_they_look_for():
    text = DOC.read_text(encoding="utf-8")
    assert len(toml_blocks(text)) >= 4
    assert TOP_KEYS == {"run", "rules", "design"} and SWEEP_KEYS == {"knob", "values"}
    # a key's row gone (its name is still in backticks elsewhere), a default or a
    # knob's range changed, a name gone from the whole text
    cases = [("| `seed` |", ""), ("| `zmg_alone` |", ""), ("| `knob` |", ""),
             ("| `shard_blocks` | integer or `\"auto\"` | `50`", "| `shard_blocks` | x | `40`"),
             ("| `deck_score` | `messages` | 0..3 |", "| `deck_score` | `messages` | 0..4 |"),
             ("`road_figure`", "road_figure")]
    for old, new in cases:
        assert old in text, old
        lines = text.splitlines()
        changed = ("\n".join(line for line in lines if not line.startswith(old)) if not new
                   else text.replace(old, new))
        assert problems(changed), f"{old!r} -> {new!r} went unnoticed"


# --- every value of every example, of the wrong shape ----------------------------------------

WRONG = [[["x"]], [{}], {"a": 1}, "x", 1.5, -1, True, [], [1, 2], 10 ** 30, "", [""], ["x", "x"]]


def _config_text(table: dict, head: str = "") -> list[str]:
    """A config's tables as TOML text (what tomllib reads back as `table`)."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"

    inline = lambda k, v: not isinstance(v, dict) or k == "sweep"  # noqa: E731
    out = [f"[{head}]"] if head else []
    out += [f"{k} = {value(v)}" for k, v in table.items() if inline(k, v)]
    for k, v in table.items():
        if not inline(k, v):
            out += _config_text(v, f"{head}.{k}" if head else k)
    return out


def test_a_wrong_value_anywhere_is_one_line_never_a_crash():
    """Each value of each example (and each item of its lists) replaced by values of
    other shapes: the config parses and plans, or is refused with an InputError (one
    line, exit 2), never another exception (a traceback)."""
    import copy
    import tomllib

    from sim.tournament import plan

    tried, crashes = 0, []
    for block in toml_blocks(DOC.read_text(encoding="utf-8")):
        base = tomllib.loads(block)
        assert tomllib.loads("\n".join(_config_text(base))) == base
        paths = []

        def walk(d, at):
            for k, v in d.items():
                paths.append(at + [k])
                if isinstance(v, dict):
                    walk(v, at + [k])
                elif isinstance(v, list):
                    paths.extend(at + [k, i] for i in range(len(v)))
        walk(base, [])
        for path in paths:
            for wrong in WRONG:
                config = copy.deepcopy(base)
                holder = config
                for k in path[:-1]:
                    holder = holder[k]
                holder[path[-1]] = wrong
                tried += 1
                try:
                    exp = parse_experiment("\n".join(_config_text(config)), "fuzz.toml")
                    plan.layout(exp)
                except InputError:
                    pass
                except Exception as e:  # noqa: BLE001 - what this test looks for
                    crashes.append(f"{'.'.join(map(str, path))} = {wrong!r}: {type(e).__name__}: {e}")
    assert tried > 500 and not crashes, "\n".join(crashes[:10])
