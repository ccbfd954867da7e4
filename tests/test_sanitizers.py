"""The C core under AddressSanitizer + UBSan (brief: the core never crashes).

Builds an instrumented twin of the core from the same sources, then reruns the board
game-property, C game and strategy tests against it in a subprocess (CARCSIM_CORE picks the module;
libasan must be preloaded into the uninstrumented Python). Any memory error or
undefined behaviour aborts that subprocess and fails this test.

Python's own build flags carry -fwrapv into every extension build, which defines
signed overflow and so removes UBSan's overflow checks; -fno-wrapv (later on the
command line, so it wins) brings them back, and -fno-sanitize-recover=all makes every
finding fatal. A planted `INT_MAX + 1`, built the same way, proves the checks are
compiled in.

The twin is built with the product's optimisation flags (-O3, and with GCC link-time
optimisation: sim/core/build.py product_flags) plus the sanitizers, so the code paths
checked are the optimised ones the product runs, inlining across files included.
"""

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cffi import FFI

from sim.core.build import OPTIMIZE, OPTIMIZE_LINK, WARNINGS, build_ffi

TESTS = Path(__file__).resolve().parent
FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined", "-fno-wrapv",
         "-fno-sanitize-recover=all"]
LINK = ["-fsanitize=address,undefined"]
# the core's twin: the product's flags, then the sanitizers' (the later -O1 is left out)
CORE_FLAGS = [*OPTIMIZE, *(f for f in FLAGS if f != "-O1")]
CORE_LINK = [*OPTIMIZE_LINK, *LINK]


def _runtime(name: str) -> str | None:
    cc = shutil.which("gcc")
    if not cc:
        return None
    path = subprocess.run([cc, f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


def _env(tmp_path, **extra) -> dict:
    return dict(os.environ,
                PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
                LD_PRELOAD=_runtime("libasan.so"),
                ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
                UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", **extra)


needs_asan = pytest.mark.skipif(_runtime("libasan.so") is None, reason="gcc with libasan is needed")


@needs_asan
def test_planted_signed_overflow_is_caught(tmp_path):
    ffi = FFI()
    ffi.cdef("int plant(int x);")
    ffi.set_source("_planted_overflow", "int plant(int x) { return x + 1; }",
                   extra_compile_args=[*WARNINGS, *FLAGS], extra_link_args=LINK)
    ffi.compile(tmpdir=str(tmp_path))
    call = "import _planted_overflow as m; print(m.lib.plant({}))"
    fine = subprocess.run([sys.executable, "-c", call.format(41)], env=_env(tmp_path),
                          capture_output=True, text=True, cwd=tmp_path)
    assert fine.returncode == 0 and fine.stdout.strip() == "42", fine.stderr[-2000:]
    boom = subprocess.run([sys.executable, "-c", call.format(2**31 - 1)], env=_env(tmp_path),
                          capture_output=True, text=True, cwd=tmp_path)
    assert boom.returncode != 0 and "signed integer overflow" in boom.stderr, boom.stderr[-2000:]


# the tests rerun against the twin, in groups of about equal length, so that a run on
# several cores (pytest -n) runs them side by side
GROUPS = {
    "board, games, strategies, setup": ("test_board.py", "test_game.py", "test_strategies.py",
                                        "test_cgame.py", "test_cgame_mayors.py",
                                        "test_core_hygiene.py", "test_setup.py"),
    # damaged saves: refused or played out; Messengers & Mayors; the Abbot's step-2
    # actions and gardens
    "saves, mayors, abbot": ("test_save_fuzz.py", "test_mayors.py", "test_abbot.py"),
    # the search policy (sim/csrc/search.c) at small budgets: deals, rollouts, cuts
    "search": ("test_search.py", "-k", "not section_sits_beside"),
    # every expansion combination × policy, in two halves
    "combinations with the Abbot × policy": ("test_conformance.py", "-k", "abbot"),
    "combinations without the Abbot × policy": ("test_conformance.py", "-k", "not abbot"),
}


@pytest.fixture(scope="session")
def asan_core(tmp_path_factory):
    """The instrumented twin, built once per test run: (its directory, the environment
    that loads it). Under pytest -n the workers share one build (some tens of
    CPU-seconds: -O3 with link-time optimisation), in the run's own temporary
    directory: the first to need it builds it while the others wait for the lock;
    tests/conftest.py orders the groups so that the others rarely need to."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # this run's, common to its workers
    where = shared / "asan-core"
    with open(shared / "asan-core.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        module = next(where.glob("_sim_core_asan*.so"), None) if where.is_dir() else None
        if module is None:
            where.mkdir(exist_ok=True)
            ffi = build_ffi("_sim_core_asan", CORE_FLAGS, CORE_LINK)
            module = Path(ffi.compile(tmpdir=str(where)))
    # the instrumentation survived link-time optimisation: the module calls the
    # sanitizers' report functions
    assert b"__asan_report_load" in module.read_bytes() and b"__ubsan_handle_" in module.read_bytes()
    env = _env(where, CARCSIM_CORE="_sim_core_asan", CARCSIM_SOAK_GAMES="120")
    check = subprocess.run([sys.executable, "-c", "import sim.core as c; print(c._module.__name__)"],
                           env=env, capture_output=True, text=True, cwd=where)
    assert check.stdout.strip() == "_sim_core_asan", check.stderr[-2000:]
    return where, env


@needs_asan
@pytest.mark.parametrize("group", GROUPS)
def test_core_under_asan_and_ubsan(asan_core, group):
    where, env = asan_core
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          *(str(TESTS / f) if f.endswith(".py") else f for f in GROUPS[group])],
                         env=env, capture_output=True, text=True, cwd=where)
    assert run.returncode == 0, (run.stdout[-3000:], run.stderr[-3000:])
    assert "passed" in run.stdout


def _fake_compiler(tmp_path, macros: str) -> list[str]:
    """A compiler command whose predefined macros (-dM -E) are `macros`."""
    script = tmp_path / "fakecc"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' '{macros}'\n")
    script.chmod(0o755)
    return [str(script)]


def test_build_flags_forbid_fused_multiply_add_and_build_without_gcc(tmp_path):
    """Every build of the core (the product, this file's twin) turns FMA contraction
    off; link-time optimisation over one partition is asked of GCC only, since clang
    (which also defines __GNUC__) knows no -flto-partition."""
    from sim.core.build import is_gcc, product_flags

    for ffi in (build_ffi(), build_ffi("_sim_core_asan", CORE_FLAGS, CORE_LINK)):
        assert "-ffp-contract=off" in ffi._assigned_source[3]["extra_compile_args"]
    clang = _fake_compiler(tmp_path, "#define __GNUC__ 4\n#define __clang__ 1")
    assert not is_gcc(clang) and not is_gcc([str(tmp_path / "missing-cc")])
    compile_args, link_args = product_flags(clang)
    assert not any(f.startswith("-flto") for f in compile_args + link_args)
    assert "-O3" in compile_args and "-fvisibility=hidden" in compile_args
    gcc = _fake_compiler(tmp_path, "#define __GNUC__ 13")
    assert "-flto-partition=one" in product_flags(gcc)[0] and "-flto" in product_flags(gcc)[1]
