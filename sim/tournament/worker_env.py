"""The Ray runtime environment of carcsim's workers: import the installed package.

Ray puts the driver's working directory at the front of every worker's `sys.path` when
the worker takes its first task. Started inside a source checkout, a worker would then
import the checkout's `sim/` (no compiled core unless it was built in place, and maybe
other code) instead of the package the driver runs. `import_packages` runs as each
worker process starts, before Ray touches `sys.path`, and imports `sim`, its core and
`strategies` from the worker's own interpreter paths; once a package is in
`sys.modules` its submodules resolve through the package's `__path__`, so the
directory inserted later cannot shadow them.
"""

from __future__ import annotations

HOOK = f"{__name__}.import_packages"


def import_packages() -> None:
    import sim.core  # noqa: F401  (fails here, at worker start, if the core is missing)
    import sim.tournament.worker  # noqa: F401
    import strategies  # noqa: F401


def runtime_env() -> dict:
    """What `ray.init(runtime_env=...)` takes; Ray merges it with a submitted job's."""
    return {"worker_process_setup_hook": HOOK}
