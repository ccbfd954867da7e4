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


def digits(low, high, most: int = 3) -> int:
    """Decimals an estimate with this 95% interval supports: one past the first
    significant digit of the interval's half-width (±0.045 → 3, ±34 → 0), at most
    `most`; `most` when there is no finite interval."""
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return most
    half = (high - low) / 2
    if half <= 0:
        return most
    return max(0, min(most, 1 - math.floor(math.log10(half))))


def fmt_interval(estimate, low, high, most: int = 3) -> tuple[str, str, str]:
    """(estimate, low, high) written to the digits their interval supports."""
    d = digits(low, high, most)
    return tuple("—" if v is None or (isinstance(v, float) and math.isnan(v)) else
                 ("+∞" if v == math.inf else "−∞" if v == -math.inf else f"{v:.{d}f}")
                 for v in (estimate, low, high))


def edition_suffix(edition: str) -> str:
    """" (c3.1)" after a quantity of one edition of The Messages; nothing without one."""
    return f" ({edition})" if edition else ""
