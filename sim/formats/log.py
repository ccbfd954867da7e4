"""A readable turn log from a game's events, in the notation of sim.formats.notation."""

from __future__ import annotations

from sim.formats.notation import figure_text, placement_text


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) if seats else "nobody"


# lines of the events an expansion adds, by event name: (event, "turn  N") -> line;
# each expansion's unit declares them (`lines`), the registry puts them here
# (sim/expansions/__init__.py)
LINES: dict = {}


def event_line(e: dict) -> str | None:
    """One line for an event, or None for events the log folds into others."""
    k, turn = e["e"], f"turn {e['turn']:>3}"
    if k in LINES:
        return LINES[k](e, turn)
    x, y = e.get("at", (0, 0))
    if k == "start":
        return f"start     {placement_text(e['tile'], x, y, e['rot'])}"
    if k == "discard":
        return f"{turn}  seat {e['seat']}  draws {e['tile']}: fits nowhere, discarded"
    if k == "place":
        return f"{turn}  seat {e['seat']}  {placement_text(e['tile'], x, y, e['rot'])}"
    if k == "figure":
        return f"{turn}  seat {e['seat']}  {figure_text(e['figure'], e['where'])} @{x},{y}"
    if k == "score":
        state = "" if e["feature"] == "field" else ("complete " if e["complete"] else "incomplete ")
        extra = f", {e['coats']} coats" if e["feature"] == "city" else ""
        size = "" if e["feature"] == "field" else f" ({e['tiles']} tiles{extra})"
        return (f"{turn}  {state}{e['where']} @{x},{y}{size}: "
                f"{e['points']} to {_seats(e['winners'])}")
    if k == "points":
        return f"{turn}  seat {e['seat']}  +{e['points']} {e['source']} = {e['total']}"
    if k == "final":
        return "final scoring"
    if k == "end":
        scores = ", ".join(f"seat {s}: {v}" for s, v in enumerate(e["scores"]))
        return f"end       {scores}; won by {_seats(e['winners'])}"
    return None


def format_log(events: list[dict]) -> str:
    return "\n".join(line for e in events if (line := event_line(e)) is not None)
