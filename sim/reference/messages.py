"""The Messages (RULES.md section 2), both editions, for the reference engine.

Every player has two scoring figures, the scoring meeple and the messenger; the score
is their sum. The functions here are generators where a player decides: they yield a
Decision and receive the choice.

R-MSG-C1  classic: each source's points go onto one figure, the player's choice.
R-MSG-N1  c3.1: all of a player's points in one turn go onto the figure chosen first.
R-MSG-C2  classic: after a round of scoring of the active player's turn, a message if
          one of the active player's figures that moved in that round stands on a dark
          space (R-BASE-10: total % 5 == 0, or the spaces 0, d, 2d, ... below 50 when
          the rules' dark_every variant is d); one message, never two.
R-MSG-C3  classic: a message's points are a round of their own (chains).
R-MSG-C4  the ZMG switch: only if no other player's figure stands on that space.
R-MSG-N2/N3  c3.1: only after the turn's scoring phase, once per turn.
R-MSG-8   the action or 2 points; impossible actions are not offered.
R-MSG-9   final scoring adds the figures together and draws no message (game.py).
R-MSG-10  which figures count for which message; R-ABB-6 message 3 counts abbots on
          monasteries in both editions, on gardens under c3.1 only.
R-MSG-11  a resolved message goes to the bottom of the deck.
"""

from __future__ import annotations

from sim.reference import scoring
from sim.reference.board import ABBOT, FOLLOWER, SCARECROW
from sim.reference.tiles import SEGMENTS_PER_TILE as STRIDE

FIGURES = ("meeple", "messenger")
NUMBERS = {
    "classic": ("smallest_road", "smallest_city", "smallest_monastery", "extra_tile",
                "coats_of_arms", "per_knight", "per_farmer", "score_and_return"),
    "c3.1": ("smallest_city", "smallest_road", "smallest_monastery", "extra_turn",
             "coats_of_arms", "per_knight", "per_farmer", "score_and_retrieve"),
}
SMALLEST = {"smallest_road": "road", "smallest_city": "city", "smallest_monastery": "monastery"}


def dark(total: int, every: int = 5) -> bool:
    return total % 50 % every == 0  # R-BASE-10 (the scoreboard's spaces 0, every, ...)


class MessageState:
    def __init__(self, edition: str, zmg: bool, players: int, deck: list[str], two_points: int = 2,
                 dark_every: int = 5):
        self.two_points = two_points  # R-MSG-8: the points instead of the action (a variant may change the 2)
        self.dark_every = dark_every  # R-BASE-10: the dark spaces' spacing (a variant may change the 5)
        self.edition = edition
        self.zmg = zmg
        self.deck = list(deck)
        self.figures = [[0, 0] for _ in range(players)]  # meeple, messenger
        self.turn_figure = [-1] * players  # c3.1: this turn's figure (R-MSG-N1)
        self.moved_in_round: set[int] = set()  # the active player's figures (R-MSG-C2)
        self.messages_this_turn = 0
        # statistics for the result, per player
        self.stats = [{"drawn": {}, "taken": {}, "points": {}, "figure_moves": dict.fromkeys(FIGURES, 0),
                       "live_moves": 0} for _ in range(players)]

    def number(self, action: str) -> int:
        return NUMBERS[self.edition].index(action) + 1

    def new_turn(self) -> None:
        self.turn_figure = [-1] * len(self.figures)
        self.messages_this_turn = 0

    def triggers(self, seat: int, total: int) -> bool:
        if not dark(total, self.dark_every):
            return False
        if not self.zmg:
            return True
        # R-MSG-C4: alone on that space
        return all(t % 50 != total % 50 for s, pair in enumerate(self.figures) if s != seat
                   for t in pair)


def award(g, seat: int, points: int, source: str):
    """Points from one source to one player (R-MSG-C1 / R-MSG-N1)."""
    if points == 0:
        return  # R-BASE-10: a figure moves only by more than 0 points
    m = g.msg
    if m is None:
        g.add_points(seat, points, source)
        return
    figure = m.turn_figure[seat]
    if m.edition == "classic" or figure < 0:
        pair = m.figures[seat]
        choice = yield g.ask("scoring_figure", seat, "", FIGURES,
                             {"points": points, "source": source, "positions": tuple(pair)})
        figure = FIGURES.index(choice)
    pair = m.figures[seat]
    before = pair[figure]
    pair[figure] += points
    if m.edition == "c3.1":
        m.turn_figure[seat] = figure
    if seat == g.seat:
        m.moved_in_round.add(figure)
    on_dark, other_dark = dark(pair[figure], m.dark_every), dark(pair[1 - figure] + points, m.dark_every)
    stats = m.stats[seat]
    stats["figure_moves"][FIGURES[figure]] += 1
    stats["live_moves"] += on_dark != other_dark  # the choice of figure decided a dark space
    g.emit("move", seat=seat, figure=FIGURES[figure], points=points, source=source, before=before,
           after=pair[figure], dark=on_dark, other_dark=other_dark)
    g.add_points(seat, points, source)


def end_of_round(g, kind: str):
    """kind: "turn" (a scoring phase), "message" or "courier"."""
    m = g.msg
    if m is None:
        return
    moved, m.moved_in_round = m.moved_in_round, set()
    pair = m.figures[g.seat]
    if m.edition == "classic":
        hit = any(m.triggers(g.seat, pair[f]) for f in moved)  # R-MSG-C2, C3
    else:
        f = m.turn_figure[g.seat]  # R-MSG-N2, N3
        hit = kind == "turn" and m.messages_this_turn == 0 and f >= 0 and dark(pair[f], m.dark_every)
    if hit:
        yield from draw_message(g)


def _followers(g, seat: int, kinds=(FOLLOWER,)) -> list[tuple[int, object]]:
    """(figure id, feature) of the seat's standard followers (R-MSG-10), or of its
    figures of `kinds`."""
    return [(fid, g.board.feature(f.seg)) for fid, f in sorted(g.board.figures.items())
            if f.player == seat and f.kind in kinds]


def _smallest_kinds(g, action: str) -> tuple:
    """Messages 1-3: the feature kinds that count (R-MSG-10; R-ABB-6: gardens only
    under c3.1)."""
    if action != "smallest_monastery":
        return (SMALLEST[action],)
    return ("monastery", "garden") if g.msg.edition == "c3.1" else ("monastery",)


def position_key(g, seg: int) -> tuple[int, int, int]:
    """Ties are listed by the lowest (y, x), then segment number on the tile."""
    p = g.board.placed[seg // STRIDE]
    return (p.y, p.x, seg % STRIDE)


def choices(g, seat: int, action: str) -> list[tuple[tuple, int | None]]:
    """[(choice, immediate points)]: 2 points first, then the action's ways (R-MSG-8)."""
    out: list = [(("2", None), g.msg.two_points)]
    board = g.board
    mine = _followers(g, seat)
    if action in SMALLEST:  # messages 1-3: the smallest feature of that kind with a follower
        # (message 3: a monk or an abbot, R-ABB-3/6)
        figs = _followers(g, seat, (FOLLOWER, ABBOT)) if action == "smallest_monastery" else mine
        feats = {f.name: f for _, f in figs if f.kind in _smallest_kinds(g, action)}
        if feats:
            values = {n: scoring.value(board, f, final=True) for n, f in feats.items()}
            low = min(values.values())
            out += [((action, n), low) for n in sorted(feats, key=lambda n: position_key(g, n))
                    if values[n] == low]
    elif action in ("extra_tile", "extra_turn"):  # message 4: a tile to draw or a town hall
        if g.stack or (g.mm is not None and g.mm.town_hall[seat]):
            out.append(((action, None), None))
    elif action == "coats_of_arms":  # message 5: cities with a knight, majority or not
        cities = {f.name: f for _, f in mine if f.kind == "city"}
        out.append(((action, None), 2 * sum(f.coats for f in cities.values())))
    elif action == "per_knight":  # message 6
        out.append(((action, None), 2 * sum(f.kind == "city" for _, f in mine)))
    elif action == "per_farmer":  # message 7: farmers and lying scarecrows (R-MM-8)
        lying = sum(1 for f in board.figures.values()
                    if f.player == seat and f.kind == SCARECROW and f.scores)
        out.append(((action, None), 2 * (sum(f.kind == "field" for _, f in mine) + lying)))
    else:  # message 8: any figure of the seat; its feature for the seat alone if it holds the majority
        figs = sorted((fid for fid, f in board.figures.items() if f.player == seat),
                      key=lambda fid: (position_key(g, board.figures[fid].seg), fid))
        for fid in figs:
            fig = board.figures[fid]
            f = board.feature(fig.seg)
            # R-MSG-10: a standing scarecrow never holds the majority, so it is only taken
            # back (c3.1) or returned for 0 points (classic), whoever else is in its field
            standing = fig.kind == SCARECROW and not fig.scores
            won = not standing and seat in scoring.majority(board, f, g.players)
            out.append(((action, fid), scoring.value(board, f, final=True) if won else 0))
    return out


def _count(table: dict, key: str, n: int = 1) -> None:
    table[key] = table.get(key, 0) + n


def draw_message(g):
    """The active seat draws the top message and resolves it (R-MSG-8, R-MSG-11)."""
    m, seat = g.msg, g.seat
    action = m.deck.pop(0)
    m.messages_this_turn += 1
    _count(m.stats[seat]["drawn"], action)
    g.emit("message_draw", seat=seat, action=action, number=m.number(action))
    ways = choices(g, seat, action)
    choice = yield g.ask("messages", seat, "", tuple(c for c, _ in ways),
                         {"action": action, "number": m.number(action),
                          "points": tuple(p for _, p in ways)})
    points = dict(ways)[choice]
    target, extra = None, False
    if choice[0] == "2":
        points = m.two_points
    elif action in ("extra_tile", "extra_turn"):
        points, extra = 0, True
    elif action in SMALLEST:
        x, y, where = g.board.place_of(choice[1])
        target = f"{x},{y} {where}"
    elif action in ("score_and_return", "score_and_retrieve"):
        x, y, where = g.board.place_of(g.board.figures[choice[1]].seg)
        target = f"{x},{y} follower {where}"
        g.return_figure(choice[1])  # back to supply, even for 0 points
    m.deck.append(action)
    if choice[0] != "2":
        _count(m.stats[seat]["taken"], action)
    _count(m.stats[seat]["points"], action, points)
    g.emit("message", seat=seat, action=action, number=m.number(action),
           resolved="2" if choice[0] == "2" else "action", points=points, target=target, extra=extra)
    yield from award(g, seat, points, "message")  # R-MSG-8: message points, whatever the source
    if m.edition == "classic":
        yield from end_of_round(g, "message")  # R-MSG-C3
        if extra:
            yield from g.turn_part(extra=True)  # classic message 4: a turn part inside this turn
    elif extra:
        g.extra_turn = True  # c3.1 message 4: a whole turn after this one
