"""The one seam to the compiled C core (STYLE.md rule 5): everything else imports
`ffi`, `lib` and `check` from here.

CARCSIM_CORE names another compiled module built from the same sources (the
sanitizer test builds `_sim_core_asan` and points this variable at it).
"""

import importlib
import os

from sim.errors import CoreError

_module = importlib.import_module(os.environ.get("CARCSIM_CORE", "sim._sim_core"))
ffi = _module.ffi
lib = _module.lib

_MESSAGES = {
    lib.CC_ERR_ARG: "bad argument",
    lib.CC_ERR_RANGE: "coordinates outside the board",
    lib.CC_ERR_OCCUPIED: "cell already holds a tile",
    lib.CC_ERR_NOFIT: "tile does not fit there",
    lib.CC_ERR_FULL: "capacity exceeded",
    lib.CC_ERR_NOMEM: "out of memory",
}


def check(rc: int, call: str) -> int:
    """Return rc, or raise CoreError for a negative C error code."""
    if rc < 0:
        raise CoreError(f"{call}: {_MESSAGES.get(rc, 'error')} (code {rc})")
    return rc
