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
                self._pass([f"-fprofile-generate={profile}", "-fprofile-update=single"], chosen)
                self._train(Path(tmp, "tree"))
                if not any(profile.rglob("*.gcda")):  # the games left no counts: nothing to use
                    raise RuntimeError(f"the training games wrote no profile in {profile}")
                guided = [f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile",
                          "-DCC_PROFILE_GUIDED=1"]  # lib.cc_profile_guided() says so
                self._pass(guided, chosen)
                return
            except Exception as e:  # noqa: BLE001 - any failure: the unguided build
                print(f"warning: carcsim: profile-guided build failed ({type(e).__name__}: {e}); "
                      f"building without a profile", file=sys.stderr)
            except BaseException:  # Ctrl-C: leave no instrumented core behind
                self._remove_built()
                raise
            self._remove_built()  # no instrumented core stays, even if this pass fails too
            self._pass([], chosen)

    def _pass(self, extra: list[str], chosen) -> None:
        """One whole build of every file with `extra` flags (none skipped as up to date:
        each pass's objects differ from the last pass's)."""
        self._flags(extra)
        self.compiler, self.force = chosen, True
        super().run()

    def _remove_built(self) -> None:
        for ext in self.extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)

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
        # the copy first, then whatever the build's Python was given (pip's isolated build
        # environment, where cffi is, reaches it through PYTHONPATH)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(tree), os.environ.get("PYTHONPATH"))
                                                          if p)}
        env.pop("CARCSIM_CORE", None)
        subprocess.run([sys.executable, "-m", "sim.games.training"], cwd=tree, env=env, check=True,
                       timeout=900)


setup(cffi_modules=["sim/core/build.py:ffibuilder"],
      cmdclass={"build_ext": ProfileGuided},
      options={"bdist_wheel": {"py_limited_api": "cp311"}})
