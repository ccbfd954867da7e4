"""The package as a user installs it: one stable-ABI wheel, installed non-editable into a
fresh venv, runs `run` (on Ray), `play`, `report` and `bench` from a source checkout
and from any other directory (issue 15.1).

The checkout is a copy of the repository's files without build products (no compiled
core in `sim/`), as a fresh clone is: Ray puts the working directory first on its
workers' sys.path, and that copy's `sim/` must not shadow the installed package.
It builds a wheel and installs its dependencies from pip's cache: about 40 s measured
on a shared, loaded machine, so it stays in the default run.
"""

import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_PRODUCTS = shutil.ignore_patterns("*.so", "__pycache__", ".venv", "runs", "build", "*.egg-info",
                                        ".git", ".pytest_cache", "_sim_core.c")

def sh(*args, cwd, env, timeout=600):
    r = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, (args, r.stdout[-2000:], r.stderr[-3000:])
    return r.stdout


def test_installed_wheel_runs_from_the_checkout_and_elsewhere(tmp_path):
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT, checkout, ignore=BUILD_PRODUCTS)
    assert not list((checkout / "sim" / "core").glob("_sim_core*"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "RAY_ADDRESS", "CARCSIM_CORE")}
    # built by a fresh venv's pip, as a user's first `pip install .` is: nothing but pip
    # in it, so the build's own isolated environment is all the training games can use
    venv = tmp_path / "venv"
    sh(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    build = subprocess.run([venv / "bin" / "pip", "wheel", "-v", "--no-deps", "-w", tmp_path / "dist",
                            checkout], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-3000:]
    assert "profile-guided build failed" not in build.stdout + build.stderr, build.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.startswith("carcsim-") and "-cp311-abi3-" in wheel.name, wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "sim/configs/quickstart.toml" in names and "sim/core/_sim_core.abi3.so" in names

    # --no-compile: pip would byte-compile every installed module (Ray's, SciPy's, ...), some
    # ten CPU-seconds of the test, and Python compiles what it imports anyway
    sh(venv / "bin" / "pip", "install", "-q", "--no-compile", wheel, cwd=tmp_path, env=env)
    carcsim = venv / "bin" / "carcsim"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert sh(carcsim, "--version", cwd=elsewhere, env=env) == f"carcsim {declared}\n"
    listed = sh(carcsim, "configs", cwd=elsewhere, env=env)
    assert listed.splitlines()[0].startswith("atlas_figure_forks_2p ")  # the first by name
    # in the checkout, on a local Ray with one worker: the shipped config by name
    out = sh(carcsim, "run", "quickstart", "--workers", "1", "--quiet", cwd=checkout, env=env)
    assert "8 shards run, 0 already done, 400 games" in out, out
    run_dir = checkout / "runs" / "quickstart"
    rep = json.loads(sh(carcsim, "report", run_dir, "--json", cwd=elsewhere, env=env))
    assert rep, rep
    game = json.loads(sh(carcsim, "play", "--seed", "3", "--players", "greedy,random", "--json",
                         cwd=checkout, env=env))
    assert game["seed"] == 3 and len(game["players"]) == 2
    rows = json.loads(sh(carcsim, "bench", "--json", "--case", "c-base-2p-random", "--repeats", "1",
                         "--scale", "0.025", cwd=checkout, env=env))
    assert rows[0]["case"] == "c-base-2p-random" and rows[0]["games"] == 100
    # built by pip in its isolated environment (only the build requirements): with GCC the
    # training games ran there and the core is profile-guided, not left instrumented
    python = venv / "bin" / "python"
    guided = sh(python, "-c", "from sim.core import lib; print(lib.cc_profile_guided())", cwd=elsewhere,
                env=env)
    if _gcc() and env.get("CARCSIM_PGO") != "0":
        assert guided == "1\n"
    core = next((venv / "lib").glob("python3*/site-packages/sim/core/_sim_core*.so"))
    assert b"__gcov" not in core.read_bytes()


def _gcc() -> bool:
    import runpy
    build = runpy.run_path(str(ROOT / "sim" / "core" / "build.py"))
    return build["is_gcc"](build["compiler"]())
