"""`python -m eager RUN_DIR` (with tests/ on the path): the eager report's headline as
JSON, what `carcsim report RUN_DIR --json` printed before the streaming pass."""

import json
import sys

from eager.report import build

print(json.dumps(build(sys.argv[1])["headline"]))
