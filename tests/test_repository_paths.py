"""The product stands alone: every repository path a product file names (a module, a C
file, a doc, a test, a config) exists in the repository, so no docstring, comment or
document sends a reader to a file that is gone or was never here."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATH = re.compile(r"(?<![\w./-])((?:sim|strategies|tests|docs|notebooks)/[A-Za-z0-9_./-]*"
                  r"[A-Za-z0-9_-]\.(?:py|md|toml|c|h|tiles|ipynb|txt))\b")


def _product_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "sim", "strategies", "docs", "README.md",
                             "BENCHMARKS.md", "notebooks", "pyproject.toml", "setup.py"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / f for f in listed if Path(f).suffix in (".py", ".md", ".c", ".h", ".toml",
                                                           ".ipynb")]


def named_paths(text: str) -> set[str]:
    return set(PATH.findall(text))


def test_the_path_reader_finds_paths():
    assert named_paths("see sim/engine/game.py and `docs/RULES.md`, not xsim/a.py") == {
        "sim/engine/game.py", "docs/RULES.md"}


def test_every_named_path_exists():
    files = _product_files()
    assert len(files) > 80
    missing = sorted(f"{f.relative_to(ROOT)}: {p}" for f in files
                     for p in named_paths(f.read_text(errors="replace")) if not (ROOT / p).exists())
    assert not missing, "\n".join(missing)


def test_nothing_points_outside_the_repository():
    offenders = [str(f.relative_to(ROOT)) for f in _product_files()
                 if "../shared" in f.read_text(errors="replace")]
    assert not offenders, offenders
