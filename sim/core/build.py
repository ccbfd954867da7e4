"""cffi build script for the C core (API mode, run by `pip install` via setup.py).

The cdef is the very header the C code includes (STYLE.md rule 5), so declarations
cannot drift. `build_ffi(module_name, extra_compile_args)` is also used by the
sanitizer test to build an instrumented twin of the same sources.
"""

import os
import shlex
import subprocess
import sysconfig
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
CSRC = HERE.parent / "csrc"  # the C sources sit beside the Python packages (sim/csrc)
WARNINGS = ["-std=c11", "-O2", "-Wall", "-Wextra"]
# Same seed, same game, bit for bit (greedy compares doubles): no a*b+c fused into one
# FMA with a single rounding where the compiler or its target could. GCC in ISO C mode
# and clang's default differ here, so every build of the core says it.
FLOAT = ["-ffp-contract=off"]
# one file per thing the core holds and one per expansion (registry.c lists those);
# internal.h is what they share (never cdef'd): every C file of the folder is built
SOURCES = tuple(sorted(p.name for p in CSRC.glob("*.c")))


def build_ffi(module_name: str = "sim.core._sim_core", extra_compile_args=(), extra_link_args=(),
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
        extra_compile_args=[*WARNINGS, *FLOAT, *extra_compile_args],
        extra_link_args=list(extra_link_args),
    )
    return ffi


def compiler() -> list[str]:
    """The C compiler setuptools runs: $CC if set, else the one Python was built with."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def is_gcc(command: list[str]) -> bool:
    """GCC itself: clang and Intel's compilers define __GNUC__ too, so __GNUC__ without
    __clang__ or __INTEL_COMPILER is what tells. False if the compiler cannot be run."""
    try:
        macros = subprocess.run([*command, "-dM", "-E", "-x", "c", os.devnull],
                                capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "__GNUC__" in macros and "__clang__" not in macros and "__INTEL_COMPILER" not in macros


def product_flags(command: list[str]) -> tuple[list[str], list[str]]:
    """The product build's compile and link flags (BENCHMARKS.md, "the base game's C
    rows"): -O3, and with GCC link-time optimisation over one partition, so that calls
    between the files (each its own translation unit) can be inlined; every symbol but
    the module's init hidden. -flto-partition is GCC's own, and clang's -flto needs a
    linker plugin the system linker may lack, so another compiler builds without LTO.
    Not -march=native: the wheel must run on any x86_64."""
    lto = ["-flto", "-flto-partition=one"] if is_gcc(command) else []
    return ["-O3", *lto, "-fvisibility=hidden"], ["-O3", *lto]


OPTIMIZE, OPTIMIZE_LINK = product_flags(compiler())
ffibuilder = build_ffi(relative=True, extra_compile_args=OPTIMIZE, extra_link_args=OPTIMIZE_LINK)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
