"""Every notebook in notebooks/ shows its results when opened (tables and at least one
plot stored in the file) and runs from top to bottom without an error.

After changing a notebook, store its outputs again (from notebooks/):

    python -c "import nbformat; from nbclient import NotebookClient as C; \
p = 'balance_walkthrough.ipynb'; nb = nbformat.read(p, as_version=4); \
C(nb, kernel_name='python3', resources={'metadata': {'path': '.'}}).execute(); nbformat.write(nb, p)"
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


def shown(nb) -> dict:
    """What the notebook's outputs show: tables, plots, errors, code cells without output."""
    html = [("".join(o["data"]["text/html"]) if isinstance(o["data"]["text/html"], list)
             else o["data"]["text/html"])
            for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if "text/html" in o.get("data", {})]
    return {"tables": sum("<table" in h for h in html), "plots": sum("<svg" in h for h in html),
            "errors": sum(o.get("output_type") == "error" for c in nb.cells
                          for o in c.get("outputs", [])),
            "silent": sum(c.cell_type == "code" and not c.get("outputs") for c in nb.cells)}


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_shows_tables_and_a_plot_when_opened(path):
    found = shown(nbformat.read(path, as_version=4))
    assert found["tables"] >= 3 and found["plots"] >= 1, found
    assert found["errors"] == 0 and found["silent"] == 0, found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    found = shown(nb)
    assert found["errors"] == 0 and found["silent"] == 0, found
    assert found["tables"] >= 3 and found["plots"] >= 1, found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_notebooks_own_run_command_works(path, tmp_path):
    """Issue 26 item 5: the headless command the notebook's first cell gives
    (`jupyter execute notebooks/<name>.ipynb`) runs it to the end from the checkout."""
    import re
    import shutil
    import subprocess
    import sys
    first = "".join(nbformat.read(path, as_version=4).cells[0].source)
    command = re.search(r"`(jupyter execute [^`]+)`", first).group(1).split()
    assert command[-1] == f"notebooks/{path.name}"
    jupyter = shutil.which("jupyter", path=str(Path(sys.executable).parent))
    copy = tmp_path / "notebooks" / path.name  # executed in place: keep the checkout's file as it is
    copy.parent.mkdir()
    shutil.copy(path, copy)
    r = subprocess.run([jupyter, *command[1:]], cwd=tmp_path, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
