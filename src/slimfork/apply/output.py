"""The output folder: created whole or not at all, resumed from its journal, never mistaken for a user's folder.

A new output is built in a sibling staging folder (a git repository whose first commit is a copy of the
source) and renamed into place, so a crash during the copy leaves no half output. Later states live in git:
the journal (``.git/slimfork-journal.json``, written atomically) lists the committed batches, and a batch about
to be committed is recorded as *pending* first, so a kill between the commit and the journal update is
recognised by the commit's ``Slimfork-Batch:`` trailer. Anything else in the work tree is discarded on resume.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from slimfork.apply import faults
from slimfork.apply.git import Repo
from slimfork.apply.tree import copy_tree, fingerprint
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic

JOURNAL = "slimfork-journal.json"
JOURNAL_VERSION = 1


def save_journal(repo: Repo, journal: dict[str, Any]) -> None:
    write_atomic(repo.git_dir / JOURNAL, json.dumps(journal, indent=1, sort_keys=True))
    faults.tick()


def load_journal(out: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((out / ".git" / JOURNAL).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == JOURNAL_VERSION else None


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


def running_output(out: Path) -> Path:
    """Where a shrink builds the fork bound for ``out``: a hidden sibling, renamed into place by ``put_in_place``
    when every batch is done, so an interrupted run leaves the previous fork (or none) at ``out``. A run killed
    outright leaves it, and the next run resumes from its journal."""
    return out.with_name(f".{out.name}.slimfork-run")


def remove_tree(path: Path, attempts: int = 5) -> Path | None:
    """Remove an interrupted run's folder, never raising, so Ctrl-C prints no traceback: a check's process still
    writing in it as it dies (``Directory not empty``) gets a few retries, then the folder is renamed to the
    trash name the next run's ``open_output`` removes first. Returns what is left (None: nothing)."""
    for attempt in range(attempts):
        try:
            _remove(path)
            return None
        except FileNotFoundError:
            return None
        except OSError:
            time.sleep(0.2 * (attempt + 1))
    trash = path.with_name(f".{path.name}.slimfork-old")
    try:
        _remove(trash)
        os.rename(path, trash)
        return trash
    except OSError:
        return path


def put_in_place(work: Path, out: Path) -> None:
    """Replace ``out`` (a previous fork, or nothing) with the finished ``work``: two renames, each atomic."""
    if work == out:
        return
    trash = out.with_name(f".{out.name}.slimfork-old")
    _remove(trash)
    if out.exists() or out.is_symlink():
        os.rename(out, trash)
    os.rename(work, out)
    _remove(trash)


def open_output(original: Path, out: Path, checks: list[str], resume: bool) -> tuple[Repo, dict[str, Any]]:
    """The output repository, resumed at its last verified batch, or created with the copy of the source."""
    config = {"original": str(original), "fingerprint": fingerprint(original), "checks": checks}
    staging = out.with_name(f".{out.name}.slimfork-new")
    trash = out.with_name(f".{out.name}.slimfork-old")
    _remove(staging)
    _remove(trash)
    if out.exists() or out.is_symlink():
        journal = load_journal(out) if out.is_dir() and not out.is_symlink() else None
        if journal is not None and resume and journal.get("config") == config:
            repo = Repo(out)
            _recover(repo, journal)
            return repo, journal
        if journal is None and not (out.is_dir() and not out.is_symlink() and not any(out.iterdir())):
            raise SlimforkError(f"the output folder {out} exists and was not written by slimfork",
                                hint="choose another output folder, or delete this one")
        os.rename(out, trash)  # atomic: a crash leaves either the old output or none
        faults.tick()
        _remove(trash)
    staging.mkdir(parents=True)
    try:
        repo = Repo.init(staging)
        notes = copy_tree(original, staging, tick=True)
        base = repo.commit_all(f"slimfork: copy of {original.name}\n\nThe untouched source; the batches that "
                               "follow remove what the fork does not need, each verified by the checks.\n")
        journal = {"version": JOURNAL_VERSION, "config": config, "base_commit": base, "base_tree": repo.tree(),
                   "notes": notes, "done": [], "pending": None}
        save_journal(repo, journal)
        os.rename(staging, out)
    except BaseException:
        _remove(staging)
        raise
    faults.tick()
    return Repo(out), journal


def _recover(repo: Repo, journal: dict[str, Any]) -> None:
    """Bring an interrupted output back to its last committed batch, finishing a commit the journal missed."""
    done = journal["done"]
    expected = done[-1]["commit"] if done else journal["base_commit"]
    pending = journal.get("pending")
    head = repo.head()
    if pending is not None:
        if head and head != expected and repo.message(head).rstrip().endswith(f"Slimfork-Batch: {pending['digest']}"):
            pending["commit"] = head
            done.append(pending)
            expected = head
        journal["pending"] = None
        save_journal(repo, journal)
    repo.restore(expected)


def rewind(repo: Repo, journal: dict[str, Any], keep: int) -> None:
    """Forget the batches after the first ``keep`` (the plan changed there) and go back to that state."""
    done = journal["done"]
    del done[keep:]
    journal["pending"] = None
    save_journal(repo, journal)
    repo.restore(done[-1]["commit"] if done else journal["base_commit"])
