"""How the report writes numbers: shared by the terminal text, the HTML page and the
findings, so one value reads the same in all three."""

from __future__ import annotations

import math


def fmt_p(v) -> str:
    """A p-value: 3 significant digits from 0.001 up, scientific below (3e-9)."""
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "—"
    if v >= 0.001:
        return f"{v:.3g}"
    if v == 0:
        return "<1e-300"
    mantissa, exponent = f"{v:.0e}".split("e")
    return f"{mantissa}e{int(exponent)}"
