"""Ctrl-C removes the interrupted run's folder without a traceback even where a check's process still writes in
it as it dies: session 37's newcomer once got ``OSError: [Errno 39] Directory not empty: 'python3.11'`` from that
removal instead of "interrupted" and exit 130. Retried, then renamed to the trash name the next run removes."""

from __future__ import annotations

import errno
import shutil

from slimfork.apply import output
from slimfork.apply.output import open_output, remove_tree


def _busy(times: int):
    real = shutil.rmtree
    calls = []

    def rmtree(path, *args, **kwargs):
        calls.append(path)
        if len(calls) <= times:
            raise OSError(errno.ENOTEMPTY, "Directory not empty", "python3.11")
        return real(path, *args, **kwargs)
    return rmtree, calls


def test_a_folder_a_dying_process_still_writes_in_is_removed_on_retry(tmp_path, monkeypatch):
    work = tmp_path / ".fork.slimfork-run"
    (work / "venv" / "lib" / "python3.11").mkdir(parents=True)
    rmtree, calls = _busy(1)
    monkeypatch.setattr(output.shutil, "rmtree", rmtree)
    monkeypatch.setattr(output.time, "sleep", lambda s: None)
    assert remove_tree(work) is None
    assert not work.exists() and len(calls) == 2


def test_a_folder_that_stays_busy_is_renamed_and_the_next_run_removes_it(tmp_path, monkeypatch):
    work = tmp_path / ".fork.slimfork-run"
    (work / "venv" / "lib" / "python3.11").mkdir(parents=True)
    rmtree, _ = _busy(100)
    monkeypatch.setattr(output.shutil, "rmtree", rmtree)
    monkeypatch.setattr(output.time, "sleep", lambda s: None)
    left = remove_tree(work)
    assert left == tmp_path / "..fork.slimfork-run.slimfork-old" and left.is_dir() and not work.exists()
    monkeypatch.undo()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("X = 1\n")
    open_output(tmp_path / "src", work, [], resume=True)
    assert not left.exists() and (work / "m.py").is_file()
