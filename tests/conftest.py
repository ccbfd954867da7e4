import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/reference.py

import pytest  # noqa: E402

import engine  # noqa: E402


@pytest.fixture(autouse=True)
def _python_engine_positions(request):
    """Tests marked python_engine build their games on the previous Python engine
    (tests/engine.py says why)."""
    engine.OLD_ENGINE[0] = request.node.get_closest_marker("python_engine") is not None
    yield
    engine.OLD_ENGINE[0] = False
