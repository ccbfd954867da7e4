"""`carcsim ARGS` in the test's own process, through the console entry point
(sim.cli.main.main: the same one-line errors and exit codes), for tests of what a
command prints and writes rather than of the process around it. A new Python for each
call costs a second or more of imports (polars, pyarrow, SciPy), which in the files
using this was most of their time. The command line as a process (its exit at
Ctrl-C, its stdout to a full device, one line on stderr from the real entry script)
stays tested with subprocesses: tests/test_cli.py, tests/test_cli_errors.py,
tests/test_faults.py. Not for `run` with Ray (a private Ray would start in the test
process): give such runs `--workers 0` or use a subprocess."""

import contextlib
import io
import os
import signal
import subprocess
import sys


def carcsim(*args, cwd=None) -> subprocess.CompletedProcess:
    """Exit code, stdout and stderr of `carcsim ARGS` run from `cwd`."""
    from sim.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    here, argv, handler = os.getcwd(), sys.argv, signal.getsignal(signal.SIGINT)
    code = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        sys.argv = ["carcsim", *map(str, args)]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(here)
        sys.argv = argv
        signal.signal(signal.SIGINT, handler)  # main() installs Python's own handler
    return subprocess.CompletedProcess(["carcsim", *map(str, args)], code, out.getvalue(),
                                       err.getvalue())
