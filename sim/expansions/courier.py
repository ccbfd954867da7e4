"""The Courier (RULES.md section 3c): its declaration. The C game plays the rules
(sim/csrc/courier.c); the view's snapshot of where it stands is sim/engine/view.py's."""

from __future__ import annotations

from sim.core import lib
from sim.expansions.declaration import Expansion

COURIER = Expansion("courier", "the Courier", ("R-COU",), tile_sets=("courier",), figures=("courier",),
          snapshot="courier", bit=lib.CC_X_COURIER)
