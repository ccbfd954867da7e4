"""What carcsim's private local Ray starts: what plays shards, nothing more.

`ray.init(address="local")` starts, beside the GCS, the raylet and the raylet's two
agents, an autoscaler monitor, a log monitor and a minimal dashboard head that only
reports usage statistics. A private Ray of fixed size whose workers' output is not
streamed to the driver (`log_to_driver=False`) needs none of the three: nothing scales
and no log is forwarded. Each is a Python process that spends about half a CPU second
starting, on the cores the workers play on, and together they add about two seconds to
the start (BENCHMARKS.md, "2026-12-06 (second session)").

`ray start --head` can leave the monitors out (`--no-monitor`,
`--include-log-monitor=false`) but `ray.init` cannot, so for the length of the one
`ray.init` of a local run the same fields of Ray's node parameters are set and the
head's dashboard server is not started (unless a dashboard is asked for). These are
Ray's private names: on a Ray without one of them, that part is started as Ray does.
"""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def lean_head():
    """Within it, a `ray.init` that starts a new local Ray starts it without the
    autoscaler monitor, the log monitor and the dashboard head."""
    try:
        from ray._private import node, parameter
    except ImportError:  # a Ray whose layout differs: started as Ray does
        yield
        return
    params_init = parameter.RayParams.__init__
    api_server = getattr(node.Node, "start_api_server", None)

    def lean_params(self, *args, **kwargs):
        params_init(self, *args, **kwargs)
        if hasattr(self, "no_monitor"):
            self.no_monitor = True
        if hasattr(self, "include_log_monitor"):
            self.include_log_monitor = False

    def no_api_server(self, *args, **kwargs):
        if args or kwargs.get("include_dashboard", False) is not False:
            return api_server(self, *args, **kwargs)  # a dashboard asked for, or maybe: Ray's own
        return None

    try:
        parameter.RayParams.__init__ = lean_params
        if api_server is not None:
            node.Node.start_api_server = no_api_server
        yield
    finally:
        parameter.RayParams.__init__ = params_init
        if api_server is not None:
            node.Node.start_api_server = api_server
