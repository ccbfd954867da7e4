"""Reading inputs: the bad-input corpus (tests/bad_inputs/cases.toml, issue 17.5), shipped
configs by name, and what a config's `run.out` may name.

The corpus runs in-process through the console entry point (`sim.cli.main.main`), so each
case costs milliseconds: exit code 2, exactly one line on stderr naming the file and
what was expected, nothing on stdout.
"""

import sys
import tomllib
from pathlib import Path

import pytest

from sim.cli import main as cli
from sim.tournament.config import OUT_RULE, load_experiment, parse_experiment, resolve, shipped_configs
from sim.errors import InputError
from sim.text import MAX_INPUT_BYTES

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
CASES = tomllib.loads((CORPUS / "cases.toml").read_text())["case"]
COMMANDS = {"validate": ["validate"], "script": ["play", "--script"], "tiles": ["tiles"]}


def run_main(args, monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["carcsim", *map(str, args)])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def assert_one_line(code, out, err, fragment):
    assert code == 2, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("carcsim: ") and fragment in lines[0], lines[0]
    # issue 27.5: a line quotes at most ~200 characters of the input (plus path and words)
    assert len(lines[0]) < 600, lines[0][:300]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['command']}-{c['file']}")
def test_bad_input_corpus(case, monkeypatch, capsys):
    path = case["file"] if case["file"].startswith("/") else CORPUS / case["file"]
    assert_one_line(*run_main([*COMMANDS[case["command"]], path], monkeypatch, capsys),
                    case["expect"])


def test_every_corpus_file_is_a_case():
    listed = {c["file"] for c in CASES}
    present = {p.name for p in CORPUS.iterdir() if p.name != "cases.toml"}
    assert present <= listed, f"files without a case: {sorted(present - listed)}"
    assert {f for f in listed if not f.startswith("/")} - present == {"missing.toml"}


def test_a_tile_with_200000_extras_is_one_short_line(tmp_path, monkeypatch, capsys):
    tiles = tmp_path / "extras.tiles"
    tiles.write_text("B x4 FFFF C:- R:- F:Nw,Ne,En,Es,Se,Sw,Ws,Wn/- X:" + ",".join(["mon"] * 200_000))
    assert_one_line(*run_main(["tiles", tiles], monkeypatch, capsys),
                    "200,000 extras with repeats: expected at most 8 different extras")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_huge_regular_file_is_refused_unread(command, tmp_path, monkeypatch, capsys):
    big = tmp_path / "big.toml"
    big.write_bytes(b"# padding\n" * (MAX_INPUT_BYTES // 10 + 1))
    assert big.stat().st_size > MAX_INPUT_BYTES
    code, out, err = run_main([*COMMANDS[command], big], monkeypatch, capsys)
    assert_one_line(code, out, err, f"{big}: larger than 1024 KiB")


GOOD = """[run]
name = "t"
blocks = 1
{out}
[design]
kind = "rotations"
seats = ["greedy", "random"]
"""


@pytest.mark.parametrize("out", ["runs/t", "t", "a/b/c", "./runs/t", "runs/t/"])
def test_run_out_inside_the_working_directory(out):
    assert parse_experiment(GOOD.format(out=f'out = "{out}"'), "t.toml").out == out


@pytest.mark.parametrize("out", ["", ".", "..", "../t", "runs/../../t", "/abs/t", "a\\\\..\\\\b",
                                 "tab\\there"])
def test_run_out_that_escapes_is_refused(out):
    with pytest.raises(InputError) as err:
        parse_experiment(GOOD.format(out=f'out = "{out}"'), "t.toml")
    assert str(err.value).startswith("t.toml: run.out = ") and OUT_RULE in str(err.value)


def test_default_out_is_runs_name():
    assert parse_experiment(GOOD.format(out=""), "t.toml").out == "runs/t"


def test_policies_must_answer_a_decision_of_the_rules():
    base = GOOD.format(out="")
    with pytest.raises(InputError, match=r"t.toml: design.seats\[1\]: 'coverage' answers only "
                                         r"scoring_figure decisions"):
        parse_experiment(base.replace('"random"', '"coverage"'), "t.toml")
    with pytest.raises(InputError, match=r"no 'ride' decision arises under these rules "
                                         r"\(expansions: messages\)"):
        parse_experiment(base.replace('"random"', '"random+ride=first"')
                         .replace("[design]", '[rules]\nexpansions = ["messages"]\n[design]'), "t.toml")
    with_messages = base.replace('"random"', '"always_2"').replace(
        "[design]", '[rules]\nexpansions = ["messages"]\n[design]')
    assert parse_experiment(with_messages, "t.toml").seats == ("greedy", "always_2")


def test_shipped_configs_resolve_by_name(tmp_path, monkeypatch):
    names = shipped_configs()
    assert "quickstart" in names and names["quickstart"].name == "quickstart.toml"
    assert load_experiment("quickstart").name == "quickstart"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quickstart").write_text(GOOD.format(out=""))
    assert resolve("quickstart") == Path("quickstart"), "a file of that name comes first"
    assert resolve("my/quickstart") == Path("my/quickstart")  # a path is never a shipped name
    with pytest.raises(InputError, match="no shipped config of that name"):
        resolve("nope")
    with pytest.raises(InputError, match=r"configs/quickstart.toml: cannot read config: No such "
                                         r"file or directory; the shipped config of that name is "
                                         r"`quickstart` \(carcsim run quickstart\)"):
        resolve("configs/quickstart.toml")
