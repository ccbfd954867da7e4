"""An independent, deliberately simple second implementation of every ruling.

Pure Python on plain data (dicts, a breadth-first feature walk), sharing no code with
the production engine: it imports only the standard library and sim.errors (a Rules value is
handed in; tests/test_layers.py and test_reference_engine.py walk the imports). sim/games/differential.py plays it
beside the production engine and compares the two at every decision.

    tiles.py     its own reader of the tile files (TILES.md 1.4)
    board.py     tiles, features, figures
    scoring.py   feature values and majorities (R-BASE-6..8, R-MM-4/9/10, R-ABB-4)
    game.py      the turn machine (RULES.md section 6)
    messages.py  The Messages, both editions (R-MSG-*)
    mayors.py    Messengers & Mayors (R-MM-*)
    river.py     the River (R-RIV-*)
    courier.py   the Courier (R-COU-*)
    abbot.py     the Abbot and gardens (R-ABB-*)
"""

from sim.reference.game import Decision, RefGame

__all__ = ["Decision", "RefGame"]
