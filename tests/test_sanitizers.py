"""The C core under AddressSanitizer + UBSan (brief: the core never crashes).

Builds an instrumented twin of the core from the same sources, then reruns the board
game-property, fast-path and strategy tests against it in a subprocess (CARCSIM_CORE picks the module;
libasan must be preloaded into the uninstrumented Python). Any memory error or
undefined behaviour aborts that subprocess and fails this test.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim._core_build import build_ffi

TESTS = Path(__file__).resolve().parent
FLAGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
         "-fno-sanitize-recover=undefined"]


def _runtime(name: str) -> str | None:
    cc = shutil.which("gcc")
    if not cc:
        return None
    path = subprocess.run([cc, f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.mark.skipif(_runtime("libasan.so") is None, reason="gcc with libasan is needed")
def test_core_under_asan_and_ubsan(tmp_path):
    ffi = build_ffi("_sim_core_asan", FLAGS, ["-fsanitize=address,undefined"])
    ffi.compile(tmpdir=str(tmp_path))
    env = dict(os.environ,
               CARCSIM_CORE="_sim_core_asan",
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
               LD_PRELOAD=_runtime("libasan.so"),
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
               CARCSIM_SOAK_GAMES="120")
    check = subprocess.run([sys.executable, "-c", "import sim._core as c; print(c._module.__name__)"],
                           env=env, capture_output=True, text=True, cwd=tmp_path)
    assert check.stdout.strip() == "_sim_core_asan", check.stderr[-2000:]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          *(str(TESTS / f) for f in ("test_board.py", "test_game.py",
                                                     "test_fastpath.py", "test_strategies.py",
                                                     "test_cgame.py", "test_core_hygiene.py"))],
                         env=env, capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, (run.stdout[-3000:], run.stderr[-3000:])
    assert "passed" in run.stdout
