"""The Courier (RULES.md section 3c): its declaration, the decoder of its event and its
log line, greedy's Courier weight, where it stands (Game.courier_at, view.courier) and
its pictures. The C game plays the rules (sim/csrc/courier.c)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core import lib
from sim.expansions.declaration import Expansion, Mark, Shape, where


def _courier_at(game) -> tuple[int, int] | None:
    """Game.courier_at: the Courier's tile, None while it is off the board (R-COU-2):
    the Courier's slice of the C game's status row."""
    on, x, y = game.status_field("courier")
    return (x, y) if on else None


@dataclass(frozen=True)
class CourierView:
    """view.courier: where the Courier stands."""

    at: tuple[int, int] | None  # R-COU-2: None while off the board

    def near(self, x: int, y: int) -> bool:
        """On the Courier's tile or orthogonally next to it (R-COU-3: the C core's
        neighbourhood, cc_courier_near)."""
        return self.at is not None and bool(lib.cc_courier_near(self.at[0], self.at[1], x, y))


def _view(game) -> CourierView:
    at = game.courier_at
    return CourierView(None if at is None else tuple(at))


def _courier_event(game, seat: int, v: list[int]) -> dict:
    """A thank-you (R-COU-3/4): {seat, at, where, points, came_from}: the Courier's new
    tile and the feature scored there, its points, the tile it came from (None: it
    came onto the board)."""
    at, name = where(game, v[0])
    return {"seat": seat, "at": at, "where": name, "points": v[3],
            "came_from": [v[5], v[6]] if v[4] else None}


def _courier_line(e: dict, turn: str) -> str:
    x, y = e["at"]
    return (f"{turn}  seat {e['seat']}  thank-you: the Courier comes to @{x},{y}, "
            f"{e['where']} scores {e['points']}")


def _policy(out, kind: str, code: int, policy, edition: str) -> None:
    """Greedy's bonus for a follower the thank-you would reach (R-COU-3)."""
    if code == lib.CC_POL_GREEDY and kind == "place":
        out.courier = policy.courier


# ---------------------------------------------------------------- pictures

def _courier_shape(colour: str, x: float, y: float, lying: bool = False) -> str:
    """The Courier: an orange diamond (in no player's colour)."""
    return (f"<path d='M{x - 8:.1f},{y:.1f} l8,-8 l8,8 l-8,8 Z' fill='#f59e0b' "
            f"stroke='#7c2d12'/>")


def _pieces(view: CourierView) -> tuple:
    """The Courier on its tile (on no feature), when it is on the board."""
    if view.at is None:
        return ()
    x, y = view.at
    return (("courier", x, y, f"the Courier @{x},{y}"),)


def _letter_mark(tile, size: float) -> str:
    return f"<text x='{size - 12}' y='14' font-size='12'>✉</text>"


LETTER = Mark(lambda t: t.has("letter"), _letter_mark,
              "<rect width='28' height='28' fill='#fff'/><text x='6' y='19' font-size='14'>✉</text>",
              "✉: a letter tile of the Courier")


COURIER = Expansion("courier", "the Courier", ("R-COU",), tile_sets=("courier",), figures=("courier",),
          snapshot="courier", view=_view, state={"courier_at": _courier_at}, bit=lib.CC_X_COURIER,
          fill_policy=_policy, policy_params=("courier",), shapes={"courier": Shape(_courier_shape, (("the Courier", False),))},
          marks=(LETTER,), pieces=_pieces,
          events={"courier": _courier_event}, lines={"courier": _courier_line})
