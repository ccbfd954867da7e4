import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/reference.py, tests/engine.py

# The longest tests (measured with --durations on the 2-core machine, each 15 s or more)
# start first, in this order, so that pytest-xdist (`-n auto` with `--dist loadgroup`
# from pyproject.toml: each test its own unit, handed to whichever worker is free)
# never leaves one worker playing a long test alone at the end while the other is idle.
# The sanitizer reruns sit between other long tests: the first builds the instrumented
# twin, which the others share (tests/test_sanitizers.py), and by the time the other
# worker takes one, the build is done. An entry that no longer matches a test only
# stops reordering it; nothing is skipped or added.
LONG_FIRST = (
    "test_sanitizers.py::test_core_under_asan_and_ubsan[board",
    "test_wheel.py::test_installed_wheel_runs_from_the_checkout_and_elsewhere",
    "test_differential.py::test_engines_agree_on_300_games",
    "test_faults.py::test_ctrl_c_with_ray_exits_130_and_resumes_to_the_same_tables",
    "test_sanitizers.py::test_core_under_asan_and_ubsan[combinations with the Abbot",
    "test_faults.py::test_a_killed_worker_and_an_interrupted_driver_resume_to_the_same_tables",
    "test_sanitizers.py::test_core_under_asan_and_ubsan[combinations without",
    "test_tournament.py::test_one_and_two_ray_workers_give_the_same_tables",
    "test_sanitizers.py::test_core_under_asan_and_ubsan[saves",
    "test_faults.py::test_a_killed_driver_takes_its_private_ray_with_it",
    "test_faults.py::test_run_json_stdout_parses_when_a_worker_dies_and_is_retried",
    "test_board.py::test_turn_options_match_reference_along_random_games",
    "test_faults.py::test_a_local_run_listens_on_loopback_only_with_token_auth",
    "test_tournament.py::test_two_node_cluster_without_shared_files",
    "test_tournament.py::test_driver_interrupted_then_resumed",
    "test_stats.py::test_sprt_keeps_alpha_and_beta_on_tied_paired_blocks",
    "test_faults.py::test_a_write_failure_mid_run_with_ray_is_one_line",
    "test_cli.py::test_run_and_replay_json",
    "test_conformance.py::test_every_expansion_and_policy",  # 32 of 3-10 s
)


def _long_rank(item) -> int:
    name = item.nodeid.rpartition("tests/")[2]
    return next((i for i, prefix in enumerate(LONG_FIRST) if name.startswith(prefix)), len(LONG_FIRST))


def pytest_collection_modifyitems(config, items):
    items.sort(key=_long_rank)  # stable: every other test keeps its place
