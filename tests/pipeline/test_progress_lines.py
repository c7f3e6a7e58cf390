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
    lines = [line for line in proc.stderr.splitlines()
             if line.startswith("slimfork: ") and ": running for " not in line]  # a heartbeat, under load
    starts = [line[:-4] for line in lines if line.endswith(" ...")]
    assert any(s.endswith("planning on a folded copy") for s in starts)
    assert len(lines) == 2 * len(starts) and all(any(e.startswith(s.split(" (")[0]) and "done in" in e
                                                     for e in lines) for s in starts)


def test_no_phase_lines_with_json_or_no_progress():
    for flag in ("--json", "--no-progress"):
        proc = _plan(flag)
        assert proc.returncode == 0 and "slimfork: " not in proc.stderr


def test_a_long_phase_says_off_a_terminal_that_it_still_runs_and_where(monkeypatch, capsys):
    import time

    from slimfork import progress as module

    monkeypatch.setattr(module, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(module, "_lines", True)
    monkeypatch.setattr(module, "_enabled", True)
    with module.progress("planning", None):
        with module.progress("folding facts", 10) as advance:
            advance(3)
            time.sleep(0.3)
    time.sleep(0.15)  # a heartbeat after the end would show up here
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "slimfork: planning ..." and lines[-1].startswith("slimfork: planning: done in ")
    beats = lines[1:-1]
    assert beats and all(b.startswith("slimfork: planning: running for 0 min 00 s; now folding facts 3/10")
                         for b in beats)
    assert not module._active
