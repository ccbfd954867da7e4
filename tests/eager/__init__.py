"""Today's eager analysis, frozen as it was before the streaming pass (main at 0565547):
the independent reference the streaming report is checked against
(tests/test_streaming_report.py) and the old path the bench measures beside the new one
(sim/bench/report_bench.py). Not the project's analysis: sim/analysis is."""
