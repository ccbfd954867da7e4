"""Time and peak memory of `carcsim report` on runs, the streaming pass beside the eager
path it replaced, in the same session.

    python tests/report_bench.py RUN [RUN ...] [--old-up-to GAMES] [--repeats N]

For each run: `carcsim report RUN --html TMP` (the whole report: the pass, the text and
the HTML page) and, for runs of at most --old-up-to games (default 3,000,000: the eager
path holds every table in memory, 2.4 GB at a million games), the eager report frozen in
tests/eager (`python -m eager RUN`, its build and headline JSON), each under
/usr/bin/time -v; the best of --repeats wall times and its peak RSS, and whether the
two headlines agree (floats to 1e-12 relative, as tests/test_streaming_report.py).
Prints one markdown row a run and path (BENCHMARKS.md, "The report in one pass").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one command under /usr/bin/time -v."""
    r = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, cwd=cwd, env=env)
    if r.returncode:
        raise SystemExit(f"report_bench: {' '.join(cmd)} failed: {r.stderr.strip().splitlines()[-1]}")
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", r.stderr)[1]
    seconds = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall.split(":"))))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)[1]) / 1024
    return seconds, rss, r.stdout


def agree(a, b) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(agree(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(agree, a, b))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-14)
    return a == b


def games_of(run: Path) -> int:
    m = json.loads((run / "manifest.json").read_text())
    return sum(e["files"]["games"]["rows"] for e in m["shards"].values())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--old-up-to", type=int, default=3_000_000)
    ap.add_argument("--repeats", type=int, default=1)
    a = ap.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    print("| run | games | path | wall s | peak RSS MB | s per 10⁶ games | headline |")
    print("| --- | ---: | --- | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for run in a.runs:
            run = run.resolve()
            games = games_of(run)
            html = Path(tmp) / "report.html"
            new = [timed([str(BIN / "carcsim"), "report", str(run), "--html", str(html)], TESTS, env)
                   for _ in range(a.repeats)]
            headline = json.loads(subprocess.run([str(BIN / "carcsim"), "report", str(run), "--json"],
                                                 capture_output=True, text=True, check=True).stdout)
            rows = [("streaming (`carcsim report`)", min(new), "")]
            if games <= a.old_up_to:
                old = [timed([sys.executable, "-m", "eager", str(run)], TESTS, env)
                       for _ in range(a.repeats)]
                best = min(old)
                rows.append(("eager (main before, `python -m eager`)", best,
                             "same" if agree(headline, json.loads(best[2])) else "DIFFERS"))
            for path, (wall, rss, _), same in rows:
                print(f"| {run.name} | {games:,} | {path} | {wall:.1f} | {rss:.0f} | "
                      f"{wall / games * 1e6:.1f} | {same} |", flush=True)


if __name__ == "__main__":
    main()
