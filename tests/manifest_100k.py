"""A run directory of MAX_SHARDS shards, to measure what its manifest costs (issue 25
item 5; BENCHMARKS.md): verifying it on load, resuming the finished run, and one save.

    python tests/manifest_100k.py DIR [--shards N]

The run (1 base game a block, a block a shard) plays its first shard for real; the
others are copies of that shard's files recorded in the manifest with their hashes,
which is all a resume checks of a finished shard (the hashes; --repair, which reads
every file's games, is not measured here). Prints seconds and bytes as JSON.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.tournament import manifest as mf  # noqa: E402
from sim.tournament.config import parse_experiment  # noqa: E402
from sim.tournament.run import run_experiment  # noqa: E402
from sim.tournament.sink import Sink  # noqa: E402

LINKS = 50_000  # names a file gets (ext4 allows 65,000)

CONFIG = """[run]
name = "m100k"
seed = 1
blocks = {shards}
shard_blocks = 1

[rules]
players = 2

[design]
kind = "rotations"
seats = ["random", "random"]
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--shards", type=int, default=mf.MAX_SHARDS)
    a = ap.parse_args()
    root = Path(a.dir)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    text = CONFIG.format(shards=a.shards)
    (root / "m.toml").write_text(text)
    exp = parse_experiment(text, str(root / "m.toml"))
    out = root / "run"
    run_experiment(exp, out, workers=0, max_shards=1, say=lambda line: None)
    m = json.loads((out / mf.MANIFEST).read_text())
    first = m["shards"]["0"]
    t0 = time.perf_counter()
    for shard in range(1, a.shards):  # the other shards: shard 0's files under their names
        for name in first["files"]:
            dst = mf.shard_file(out, name, shard)
            if shard % LINKS == 0:  # a file may have only so many names: a fresh copy
                shutil.copyfile(mf.shard_file(out, name, 0), dst)
            else:
                dst.hardlink_to(mf.shard_file(out, name, shard - shard % LINKS))
        m["shards"][str(shard)] = {"blocks": [shard, shard + 1], "files": first["files"]}
    (out / mf.MANIFEST).write_text(json.dumps(m, indent=1, sort_keys=True))
    made = time.perf_counter() - t0
    size = (out / mf.MANIFEST).stat().st_size

    t0 = time.perf_counter()
    loaded = mf.load(out)  # structure, config, fingerprint, plan
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    damaged, unknown, leftover = mf.check_files(out, loaded)  # every file against its hash
    check_s = time.perf_counter() - t0
    assert not damaged and not unknown and not leftover, (damaged, unknown, leftover)
    t0 = time.perf_counter()
    summary = run_experiment(exp, out, workers=0, say=lambda line: None)  # resume: all done
    resume_s = time.perf_counter() - t0
    assert summary.shards_run == 0 and summary.shards_skipped == a.shards
    sink = Sink(out, exp, say=lambda line: None)
    t0 = time.perf_counter()
    sink.save()  # a whole manifest written, as the run does as shards finish
    save_s = time.perf_counter() - t0
    sink.close()
    print(json.dumps({"shards": a.shards, "manifest_bytes": size, "setup_s": round(made, 1),
                      "load_and_verify_s": round(load_s, 2), "check_files_s": round(check_s, 2),
                      "resume_s": round(resume_s, 2), "save_s": round(save_s, 2)}))


if __name__ == "__main__":
    main()
