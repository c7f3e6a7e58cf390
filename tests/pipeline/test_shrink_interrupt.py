"""Ctrl-C (or SIGTERM) in the middle of a shrink leaves the previous fork, or none, never a half-written one, and
exits 130. The fork is built in a hidden sibling and renamed into place when every batch is done; a run killed
outright leaves that sibling, and the next run resumes from its journal. Before, the output was renamed into place
after the copy of the source, so a newcomer's Ctrl-C left a fork folder holding the untouched copy and no report,
and a rerun with other settings had already deleted the previous fork."""

from __future__ import annotations

import subprocess

import pytest

from slimfork.apply import engine
from slimfork.cli import main


def _project(tmp_path):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from . import used\n")
    (root / "pkg" / "used.py").write_text("X = 1\n")
    (root / "pkg" / "unused.py").write_text("Y = 2\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    return root


@pytest.fixture
def interrupt_batches(monkeypatch):
    def _interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "_run_batch", _interrupted)


def test_an_interrupted_first_shrink_leaves_no_fork(tmp_path, capsys, interrupt_batches):
    root = _project(tmp_path)
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify"]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj"]  # no fork, no report, no hidden run folder


def test_an_interrupted_rerun_leaves_the_previous_fork_as_it_was(tmp_path, capsys, monkeypatch):
    root = _project(tmp_path)
    out = tmp_path / "fork"
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(out), "--no-verify"]) == 0
    head = subprocess.run(["git", "-C", str(out), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    (root / "pkg" / "more.py").write_text("Z = 3\n")  # another plan: the rerun rebuilds
    monkeypatch.setattr(engine, "_run_batch", lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt()))
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(out), "--no-verify"]) == 130
    assert subprocess.run(["git", "-C", str(out), "rev-parse", "HEAD"], capture_output=True, text=True).stdout == head
    assert not (out / "pkg" / "unused.py").exists() and not (out / "pkg" / "more.py").exists()
    assert (tmp_path / "fork.report" / "report.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fork", "fork.report", "proj"]


def test_a_finished_shrink_leaves_only_the_fork_and_its_report(tmp_path):
    root = _project(tmp_path)
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fork", "fork.report", "proj"]
    assert (tmp_path / "fork" / ".git" / "slimfork-journal.json").exists()
    assert str(tmp_path / "fork") in (tmp_path / "fork.report" / "report.md").read_text()
    assert ".slimfork-run" not in (tmp_path / "fork.report" / "report.md").read_text()


def test_the_interruption_says_where_it_stopped(tmp_path, capsys, interrupt_batches):
    """A run stopped by Ctrl-C or a time limit (``--no-progress`` in a log: no progress line shows where it was)
    says the phase it stopped in, with its count: a newcomer's checked run killed at 10 minutes said "interrupted"."""
    root = _project(tmp_path)
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify",
                 "--no-progress"]) == 130
    err = capsys.readouterr().err
    assert "interrupted while " in err, err


def test_the_innermost_phase_is_named_with_its_count():
    from slimfork import progress

    progress.set_enabled(False)
    with pytest.raises(KeyboardInterrupt):
        with progress.progress("folding facts", 10) as outer:
            outer(3)
            with progress.progress("summaries", 5) as inner:
                inner(2)
                raise KeyboardInterrupt
    assert progress.interrupted_in() == "summaries 2/5"
    progress.set_enabled(False)
    assert progress.interrupted_in() is None


def test_an_interrupted_json_run_prints_a_json_object(tmp_path, capsys, interrupt_batches):
    """``shrink --json`` stopped by Ctrl-C or SIGTERM printed nothing on stdout: a caller parsing it got no JSON.
    Now an object saying so, and where; the human message stays on stderr."""
    import json

    root = _project(tmp_path)
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--no-verify",
                 "--json"]) == 130
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["interrupted"] is True and data["exit_code"] == 130 and data["command"] == "shrink"
    assert data["while"] and data["while"] in captured.err


def test_sigterm_before_the_batches_is_an_interruption(tmp_path):
    """SIGTERM (``timeout``, a scheduler) while the plan was made killed the run silently, exit 143: now it
    stops as Ctrl-C does, exit 130, with the message (and the JSON object under ``--json``)."""
    import json
    import os
    import signal
    import sys
    import time

    root = _project(tmp_path)
    code = ("import time, slimfork.pipeline.shrink as s\n"
            "def slow(*a, **k):\n    print('ready', flush=True, file=__import__('sys').stderr); time.sleep(60)\n"
            "s.analyse = slow\n"
            "from slimfork.cli import main\nraise SystemExit(main(__import__('sys').argv[1:]))\n")
    proc = subprocess.Popen([sys.executable, "-c", code, "shrink", str(root / "slimfork.toml"), "--out",
                             str(tmp_path / "fork"), "--no-verify", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SLIMFORK_CACHE": str(tmp_path / "c")})
    assert proc.stderr is not None
    started = time.monotonic()
    while "ready" not in proc.stderr.readline() and time.monotonic() - started < 60:
        pass
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert json.loads(out)["interrupted"] is True
