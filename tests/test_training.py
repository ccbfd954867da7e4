"""The C core's profile-guided build (setup.py, sim/games/training.py): the training runs
where only the build requirements are installed, and the build this suite runs on is
guided when GCC builds it."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_training_runs_without_what_the_build_environment_lacks():
    """pip's isolated build environment holds the build requirements only (cffi,
    setuptools): the training games play with NumPy, Polars, Ray and the rest
    unimportable (play_batch needs NumPy; the training takes play_batch_only)."""
    heavy = ("numpy", "polars", "pyarrow", "scipy", "ray", "typer", "rich", "matplotlib")
    code = ("import sys\n"
            "class Missing:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            f"        if name.split('.')[0] in {heavy!r}:\n"
            "            raise ImportError('not in the build environment: ' + name)\n"
            "sys.meta_path.insert(0, Missing())\n"
            "import runpy; runpy.run_module('sim.games.training', run_name='__main__')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("sim.games.training: ") and "games played" in out.stdout


def test_the_training_plays_every_case():
    from sim.games import training
    assert training.train() == sum(n for _, _, n in training.CASES) > 5000
    expansions = {e for rules, _, _ in training.CASES for e in rules.expansions}
    assert expansions == set(training.EVERY)


def test_this_build_is_profile_guided_with_gcc():
    """`pip install -e .` and `setup.py build_ext` build the core twice around the
    training; a failure there leaves an unguided core and a warning pip -q hides."""
    build = runpy.run_path(str(ROOT / "sim" / "core" / "build.py"))
    if os.environ.get("CARCSIM_PGO") == "0" or not build["is_gcc"](build["compiler"]()):
        pytest.skip("an unguided build by choice (CARCSIM_PGO=0) or another compiler")
    from sim.core import lib
    assert lib.cc_profile_guided() == 1
