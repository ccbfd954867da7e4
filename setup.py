"""The C core's build: cffi compiles sim/csrc against the stable ABI (its extension is
`py_limited_api`), so one wheel tagged cp311-abi3 serves Python 3.11 and every later
CPython.

With GCC the core is built profile-guided (BENCHMARKS.md, "Profile-guided build"):
once instrumented, then sim/games/training.py plays a mix of seeded games with it, then
again with the counts those games left. CARCSIM_PGO=0 builds it once, unguided; so
does another compiler, and so does any failure of the first build or of the training
(with a warning): the games are the same either way, only slower.
"""

import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


class ProfileGuided(build_ext):
    """build_ext, twice around a training run when the compiler is GCC."""

    def run(self):
        build = runpy.run_path(str(HERE / "sim" / "core" / "build.py"))  # not importable yet
        if os.environ.get("CARCSIM_PGO", "1") == "0" or not build["is_gcc"](build["compiler"]()):
            return super().run()
        chosen = self.compiler  # a name (or None) that run() replaces by a compiler object
        with tempfile.TemporaryDirectory(prefix="carcsim-pgo-") as tmp:
            profile = Path(tmp, "profile")
            try:
                self._flags([f"-fprofile-generate={profile}", "-fprofile-update=single"])
                super().run()
                self._train(Path(tmp, "tree"))
                flags = [f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile",
                         "-DCC_PROFILE_GUIDED=1"]  # lib.cc_profile_guided() says so
            except Exception as e:  # noqa: BLE001 - any failure: the unguided build
                print(f"warning: carcsim: profile-guided build failed ({type(e).__name__}: {e}); "
                      f"building without a profile", file=sys.stderr)
                flags = []
            self._flags(flags)
            self.compiler, self.force = chosen, True  # every file again, with the profile
            super().run()

    def _flags(self, extra: list[str]) -> None:
        """Each extension's own compile and link flags, and `extra`."""
        for ext in self.extensions:
            if not hasattr(ext, "carcsim_flags"):
                ext.carcsim_flags = (list(ext.extra_compile_args), list(ext.extra_link_args))
            compile_args, link_args = ext.carcsim_flags
            ext.extra_compile_args, ext.extra_link_args = compile_args + extra, link_args + extra

    def _train(self, tree: Path) -> None:
        """Play sim/games/training.py's games with the instrumented core, in a copy of
        the packages holding it (the source tree may not be writable)."""
        ignore = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
        for package in ("sim", "strategies"):
            shutil.copytree(HERE / package, tree / package, ignore=ignore)
        for ext in self.extensions:
            built = Path(self.get_ext_fullpath(ext.name))
            shutil.copy2(built, tree.joinpath(*ext.name.split(".")[:-1], built.name))
        env = {**os.environ, "PYTHONPATH": str(tree)}
        env.pop("CARCSIM_CORE", None)
        subprocess.run([sys.executable, "-m", "sim.games.training"], cwd=tree, env=env, check=True,
                       timeout=900)


setup(cffi_modules=["sim/core/build.py:ffibuilder"],
      cmdclass={"build_ext": ProfileGuided},
      options={"bdist_wheel": {"py_limited_api": "cp311"}})
