"""The one seam to the compiled C core (STYLE.md rule 5): everything else imports
`ffi`, `lib` and `check` from here.

CARCSIM_CORE names another compiled module built from the same sources (the
sanitizer test builds `_sim_core_asan` and points this variable at it).
"""

import importlib
import os

from sim.errors import CoreError

_module = importlib.import_module(os.environ.get("CARCSIM_CORE", "sim.core._sim_core"))
ffi = _module.ffi
lib = _module.lib


class CoreArgumentError(CoreError, ValueError):
    """CC_ERR_ARG: a null pointer, unknown type, bad index or value."""


class CoreRangeError(CoreError, ValueError):
    """CC_ERR_RANGE: coordinates outside the board's grid."""


class CellOccupiedError(CoreError, ValueError):
    """CC_ERR_OCCUPIED: the cell already holds a tile."""


class TileMisfitError(CoreError, ValueError):
    """CC_ERR_NOFIT: edges do not match, or no placed neighbour."""


class CapacityError(CoreError, ValueError):
    """CC_ERR_FULL: an output buffer or a fixed capacity of the core is too small."""


class CoreMemoryError(CoreError, MemoryError):
    """CC_ERR_NOMEM: the core could not allocate."""


ERRORS = {
    lib.CC_ERR_ARG: (CoreArgumentError, "bad argument"),
    lib.CC_ERR_RANGE: (CoreRangeError, "coordinates outside the board"),
    lib.CC_ERR_OCCUPIED: (CellOccupiedError, "cell already holds a tile"),
    lib.CC_ERR_NOFIT: (TileMisfitError, "tile does not fit there"),
    lib.CC_ERR_FULL: (CapacityError, "capacity exceeded"),
    lib.CC_ERR_NOMEM: (CoreMemoryError, "out of memory"),
}


def check(rc: int, call: str, **inputs) -> int:
    """Return rc, or raise the typed CoreError of a negative C error code; the message
    names the call and quotes `inputs` (what the caller passed that was refused).

    Raises: CoreArgumentError, CoreRangeError, CellOccupiedError, TileMisfitError,
    CapacityError (all ValueError), CoreMemoryError, or CoreError for an unknown code.
    """
    if rc >= 0:
        return rc
    cls, what = ERRORS.get(rc, (CoreError, "error"))
    quoted = ", ".join(f"{k}={v!r}" for k, v in inputs.items())
    raise cls(f"{call}{f'({quoted})' if quoted else ''}: {what} (code {rc})")


def names(table: int) -> tuple[str, ...]:
    """The names C gives the codes of one of its tables (core.h CC_NAMES_*), indexed by
    code: Python reads them here rather than keeping a copy (cc_name)."""
    out = []
    while (name := lib.cc_name(table, len(out))) != ffi.NULL:
        out.append(ffi.string(name).decode())
    return tuple(out)


# the widths of cc_game_result's per-player row and cc_game_status's row: the sums of
# the fields C declares (the base game's and every unit's)
RESULT_INTS, STATUS_INTS = lib.cc_result_ints(), lib.cc_status_ints()


def result_fields(status: bool = False) -> dict[str, tuple[int, int]]:
    """cc_game_result's row layout (cc_game_status's with `status`) as C declares it:
    field name -> (offset, width), in row order (cc_result_field, cc_status_field)."""
    field = lib.cc_status_field if status else lib.cc_result_field
    name, offset, width = ffi.new("const char **"), ffi.new("int32_t *"), ffi.new("int32_t *")
    out = {}
    while field(len(out), name, offset, width) == lib.CC_OK:
        out[ffi.string(name[0]).decode()] = (offset[0], width[0])
    return out
