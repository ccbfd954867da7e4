"""The report's figures, drawn by matplotlib as inline SVG (the HTML stays one offline
file): forest plots of estimates with 95% intervals, the head-to-head heatmap and the
convergence of an estimate as blocks accrue. Each has axis titles with units, a
reference line (0 for differences, 0.5 for win shares), a legend that names the
interval, and labels that are never cut (long ones wrap; the canvas grows to fit).
"""

from __future__ import annotations

import io
import math
import textwrap

import matplotlib

matplotlib.use("Agg")  # no display: figures are only written as SVG
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"svg.fonttype": "none", "font.size": 10, "svg.hashsalt": "carcsim"})
INTERVAL = "95% interval (t over blocks)"


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]  # drop the XML prolog and doctype: inline in HTML


def _wrap(label: str, width: int = 42) -> str:
    return "\n".join(textwrap.wrap(str(label), width, break_long_words=True)) or " "


def forest(rows: list[dict], label: str, est: str, low: str, high: str, title: str,
           xlabel: str, reference: float = 0.0, bounds: tuple[float, float] | None = None,
           min_blocks: int = 0) -> str:
    """One row per estimate: the point and its 95% interval, each band clamped to
    `bounds` (the quantity's possible range: a win share within [0, 1]); a dashed line
    at `reference`. Rows without a finite estimate and interval, and rows over fewer
    than `min_blocks` blocks, are left out."""
    rows = [r for r in rows if all(isinstance(r.get(k), (int, float)) and math.isfinite(r[k])
                                   for k in (est, low, high))
            and r.get("blocks", min_blocks) >= min_blocks]
    if bounds is not None:
        lo, hi = bounds
        rows = [dict(r, **{low: max(lo, r[low]), high: min(hi, r[high])}) for r in rows]
    if not rows:
        return ""
    labels = [_wrap(r[label]) for r in rows]
    lines = sum(lab.count("\n") + 1 for lab in labels)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.32 * max(lines, len(rows))))
    y = list(range(len(rows)))[::-1]
    x = [r[est] for r in rows]
    err = [[r[est] - r[low] for r in rows], [r[high] - r[est] for r in rows]]
    ax.errorbar(x, y, xerr=err, fmt="o", color="#1e3a8a", ecolor="#2563eb", capsize=3,
                label=f"estimate and {INTERVAL}")
    ax.axvline(reference, color="#666", linestyle="--", linewidth=1,
               label=f"no effect ({reference:g})")
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", color="#eee")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return _svg(fig)


def heatmap(pairs: list[dict], value: str = "win_share",
            title: str = "win share of the row's spec against the column's",
            key: str = "win share (0.5 = even)") -> str:
    """Row spec's `value` (a share) against the column spec, diverging around 0.5, with
    both axes labelled and a colour key."""
    names = sorted({p["player"] for p in pairs} | {p["opponent"] for p in pairs})
    if len(names) < 2:
        return ""
    import numpy as np

    k = len(names)
    grid = np.full((k, k), np.nan)
    pos = {n: i for i, n in enumerate(names)}
    for p in pairs:
        grid[pos[p["player"]], pos[p["opponent"]]] = p[value]
    fig, ax = plt.subplots(figsize=(2.5 + 0.9 * k, 1.5 + 0.7 * k))
    im = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(grid[i, j] - 0.5) > 0.3 else "black")
    wrapped = [_wrap(n, 24) for n in names]
    ax.set_xticks(range(k), wrapped, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(k), wrapped)
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("player (row)")
    ax.set_title(title)
    fig.colorbar(im, ax=ax, label=key)
    return _svg(fig)


def convergence(conv: dict) -> str:
    """The running estimate and its 95% band as blocks accrue."""
    pts = [p for p in conv["points"] if all(math.isfinite(p[k]) for k in ("estimate", "low", "high"))]
    if len(pts) < 2:
        return ""
    fig, ax = plt.subplots(figsize=(8, 3.2))
    xs = [p["blocks"] for p in pts]
    ax.fill_between(xs, [p["low"] for p in pts], [p["high"] for p in pts], color="#bfdbfe",
                    label=INTERVAL)
    ax.plot(xs, [p["estimate"] for p in pts], color="#1e3a8a", label="estimate")
    ref = conv.get("reference", 0.0)
    ax.axhline(ref, color="#666", linestyle="--", linewidth=1, label=f"reference ({ref:g})")
    ax.set_xlabel("blocks (seeds) so far")
    ax.set_ylabel(_wrap(conv.get("unit", "estimate"), 30))
    ax.set_title(_wrap(conv["label"], 80))
    ax.grid(color="#eee")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return _svg(fig)


def curves(lines: list[dict], knob: str, title: str, ylabel: str, reference: float | None = None,
           bounds: tuple[float, float] | None = None) -> str:
    """A sweep's curves (sim/analysis/sweep.py): one line per entry of `lines` ({label,
    points: [{value, estimate, low, high, few}]}) over the knob's values, each point with
    its 95% interval clamped to `bounds`; points over too few blocks are left out."""
    drawn = []
    for line in lines:
        pts = [p for p in line["points"] if not p.get("few") and all(
            isinstance(p.get(k), (int, float)) and math.isfinite(p[k]) for k in ("estimate", "low", "high"))]
        if pts:
            drawn.append((line["label"], pts))
    if not drawn:
        return ""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    lo, hi = bounds if bounds is not None else (-math.inf, math.inf)
    for k, (label, pts) in enumerate(drawn):
        # side by side by a little, so equal points of two lines stay apart
        xs = [p["value"] + 0.04 * (k - (len(drawn) - 1) / 2) for p in pts]
        ys = [p["estimate"] for p in pts]
        err = [[p["estimate"] - max(lo, p["low"]) for p in pts], [min(hi, p["high"]) - p["estimate"] for p in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=_wrap(label, 36))
    if reference is not None:
        ax.axhline(reference, color="#666", linestyle="--", linewidth=1, label=f"reference ({reference:g})")
    ax.set_xticks(sorted({p["value"] for _, pts in drawn for p in pts}))
    ax.set_xlabel(f"{knob} ([rules.variant])")
    ax.set_ylabel(_wrap(ylabel, 30))
    ax.set_title(_wrap(f"{title}: estimate and {INTERVAL}", 80))
    ax.grid(color="#eee")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    return _svg(fig)
