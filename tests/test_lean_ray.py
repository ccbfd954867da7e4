"""sim/tournament/lean_ray.py without starting Ray: inside `lean_head()` Ray's node
parameters leave out both monitors and the dashboard head is skipped only when none is
asked for; outside it (after a normal end or an exception) Ray is Ray again."""

import pytest
from ray._private import node, parameter

from sim.tournament.lean_ray import lean_head


@pytest.fixture
def api_calls(monkeypatch):
    calls = []
    monkeypatch.setattr(node.Node, "start_api_server",
                        lambda self, *a, **k: calls.append((a, k)) or "ray's own")
    return calls


def test_inside_no_monitors_and_no_dashboard_head_unless_asked(api_calls):
    with lean_head():
        params = parameter.RayParams()
        assert params.no_monitor is True and params.include_log_monitor is False
        start = node.Node.start_api_server
        assert start(None, include_dashboard=False, raise_on_failure=False) is None
        # a dashboard asked for (True), Ray's default (None) or a call this code does not
        # know (positional): Ray's own
        assert start(None, include_dashboard=True, raise_on_failure=True) == "ray's own"
        assert start(None, include_dashboard=None, raise_on_failure=False) == "ray's own"
        assert start(None, True, False) == "ray's own"
    assert len(api_calls) == 3


def test_outside_ray_is_ray_again_after_an_end_and_after_an_exception(api_calls):
    for fail in (False, True):
        try:
            with lean_head():
                if fail:
                    raise KeyError("ray.init failed")
        except KeyError:
            pass
        params = parameter.RayParams()
        assert params.no_monitor is False and params.include_log_monitor is None
        assert node.Node.start_api_server(None, include_dashboard=False,
                                          raise_on_failure=False) == "ray's own"
