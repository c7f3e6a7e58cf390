"""Off a terminal (a log, CI) the command line prints one line when a long phase starts and one when it ends;
--json and --no-progress print none, and neither does the Python API."""

from __future__ import annotations

import subprocess
import sys

from slimfork.examples import EXAMPLE_SPEC


def _plan(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "slimfork", "plan", str(EXAMPLE_SPEC), *flags],
                          capture_output=True, text=True, timeout=300)


def test_phase_lines_on_a_non_terminal_stderr():
    proc = _plan()
    assert proc.returncode == 0
    lines = [line for line in proc.stderr.splitlines() if line.startswith("slimfork: ")]
    starts = [line[:-4] for line in lines if line.endswith(" ...")]
    assert any(s.endswith("planning on a folded copy") for s in starts)
    assert len(lines) == 2 * len(starts) and all(any(e.startswith(s.split(" (")[0]) and "done in" in e
                                                     for e in lines) for s in starts)


def test_no_phase_lines_with_json_or_no_progress():
    for flag in ("--json", "--no-progress"):
        proc = _plan(flag)
        assert proc.returncode == 0 and "slimfork: " not in proc.stderr
