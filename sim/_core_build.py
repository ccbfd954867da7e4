"""cffi build script for the C core (API mode, run by `pip install` via setup.py).

The cdef is the very header the C code includes (STYLE.md rule 5), so declarations
cannot drift. `build_ffi(module_name, extra_compile_args)` is also used by the
sanitizer test to build an instrumented twin of the same sources.
"""

import os
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
CSRC = HERE / "csrc"
WARNINGS = ["-std=c11", "-O2", "-Wall", "-Wextra"]
# one file per thing the core holds; internal.h is what they share (never cdef'd)
SOURCES = ("tileset.c", "board.c", "options.c", "game.c", "policy.c", "save.c",
           "messages.c", "river.c", "courier.c", "mayors.c", "branch.c",
           "setup.c", "choice.c")


def build_ffi(module_name: str = "sim._sim_core", extra_compile_args=(), extra_link_args=(),
              relative: bool = False) -> FFI:
    """`relative`: source paths relative to the working directory, as setuptools
    demands; cffi's own `compile()` changes directory, so it needs absolute ones."""
    ffi = FFI()
    where = os.path.relpath if relative else str
    ffi.cdef((CSRC / "core.h").read_text())
    ffi.set_source(
        module_name,
        '#include <stdint.h>\n#include "core.h"\n',
        sources=[where(CSRC / name) for name in SOURCES],
        include_dirs=[where(CSRC)],
        extra_compile_args=[*WARNINGS, *extra_compile_args],
        extra_link_args=list(extra_link_args),
    )
    return ffi


# The product build (BENCHMARKS.md, "the base game's C rows"): -O3 with link-time
# optimisation, so that calls between the files (each its own translation unit) can be
# inlined, and every symbol but the module's init hidden. Not -march=native: the wheel
# must run on any x86_64. The sanitizer twin (tests/test_sanitizers.py) keeps its own
# flags.
OPTIMIZE = ["-O3", "-flto", "-flto-partition=one", "-fvisibility=hidden"]
OPTIMIZE_LINK = ["-O3", "-flto", "-flto-partition=one"]
ffibuilder = build_ffi(relative=True, extra_compile_args=OPTIMIZE, extra_link_args=OPTIMIZE_LINK)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
