"""A readable turn log from a game's events, in the notation of sim.formats.notation."""

from __future__ import annotations

from sim.formats.notation import figure_text, placement_text


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) if seats else "nobody"


# lines of the events an expansion adds, by event name: (event, "turn  N") -> line;
# its Python unit registers them (sim/expansions/abbot.py)
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
    if k == "move":
        dark = ", dark space" if e["dark"] else ""
        return (f"{turn}  seat {e['seat']}  {e['figure']} {e['before']} -> {e['after']} "
                f"(+{e['points']} {e['source']}{dark})")
    if k == "message_draw":
        return f"{turn}  seat {e['seat']}  draws message {e['number']} {e['action']}"
    if k == "message":
        how = f"takes {e['action']}" if e["resolved"] == "action" else "takes 2 points"
        target = f" on {e['target']}" if e["target"] else ""
        extra = ", plays another tile" if e["extra"] else ""
        return f"{turn}  seat {e['seat']}  {how}{target}: {e['points']} points{extra}"
    if k == "courier":
        return (f"{turn}  seat {e['seat']}  thank-you: the Courier comes to @{x},{y}, "
                f"{e['where']} scores {e['points']}")
    if k == "townhall":
        return f"{turn}  seat {e['seat']}  town hall @{x},{y}"
    if k == "crisis":
        return f"{turn}  seat {e['seat']}  mayor @{x},{y} goes home: crisis meeting"
    if k == "favour":
        what = f"replaces the follower @{e['target'][0]},{e['target'][1]}" if e["target"] else "unused"
        return f"{turn}  seat {e['seat']}  mayor's favour {what}; the mayor goes home"
    if k == "scarecrow":
        return f"{turn}  seat {e['seat']}  scarecrow @{x},{y}: {e['choice']}"
    if k == "ride":
        if e["to"] is None:
            return f"{turn}  seat {e['seat']}  messenger goes home"
        return f"{turn}  seat {e['seat']}  messenger rides to {e['where']} @{e['to'][0]},{e['to'][1]}"
    if k == "final":
        return "final scoring"
    if k == "end":
        scores = ", ".join(f"seat {s}: {v}" for s, v in enumerate(e["scores"]))
        return f"end       {scores}; won by {_seats(e['winners'])}"
    return None


def format_log(events: list[dict]) -> str:
    return "\n".join(line for e in events if (line := event_line(e)) is not None)
