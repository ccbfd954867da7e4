"""Decision policies, found by name (docs/ARCHITECTURE.md layer 5).

`strategies.registry` holds the registry and the seat-spec syntax; importing this
package registers every shipped policy (the modules below), so a name given to
`player`, `make` or `parse_policy` is found whichever module asked first.
"""

from strategies.registry import (DECISION_KINDS, DEFAULTS, REGISTRY, BuiltIn, Player,  # noqa: F401
                                 make, parse_policy, player, register)
from strategies import basic, greedy, messages, search  # noqa: E402,F401  (registers them)
