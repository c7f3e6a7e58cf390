"""Crash safety: the engine is killed (SIGKILL, and Ctrl-C as SIGINT) at many points, in a real subprocess, then
resumed; the result must equal an uninterrupted run's, byte for byte and commit for commit."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from contextlib import contextmanager

import pytest
from tests.apply.applykit import fixture_batches, fixture_checks, make_fixture, snapshot

from slimfork.apply import faults
from slimfork.apply.engine import run_batches
from slimfork.fsutil import write_atomic

DRIVER = str(Path(__file__).with_name("crash_driver.py"))


def git(out, *args):
    return subprocess.run(["git", *args], cwd=out, capture_output=True, text=True, check=True).stdout.strip()


@contextmanager
def _cache_env(path):
    old = os.environ.get("SLIMFORK_CACHE")
    os.environ["SLIMFORK_CACHE"] = str(path)
    try:
        yield
    finally:
        if old is None:
            del os.environ["SLIMFORK_CACHE"]
        else:
            os.environ["SLIMFORK_CACHE"] = old


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run: its tree, its commits, and how many operations it performs on a cold cache."""
    root = tmp_path_factory.mktemp("reference")
    source = make_fixture(root / "src")
    with _cache_env(root / "cache"):
        report = run_batches(source, root / "out", fixture_batches(), fixture_checks(), jobs=2)
    ops = faults.count()
    commits = git(root / "out", "log", "--format=%H").splitlines()
    return {"source": source, "snapshot": snapshot(root / "out"), "commits": commits, "head": report.head,
            "ops": ops, "report": report}


def _driver(source, out, cache, env_extra=None, jobs=2):
    env = dict(os.environ, SLIMFORK_CACHE=str(cache), **(env_extra or {}))
    return subprocess.Popen([sys.executable, DRIVER, str(source), str(out), str(jobs)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _check_interrupted(out: Path, reference, clean: bool):
    """Whatever was killed, the output is absent or at a verified commit of the uninterrupted run."""
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.slimfork")]
    if not out.exists():
        return
    head = git(out, "rev-parse", "HEAD")
    assert head in reference["commits"]
    if clean:  # Ctrl-C: nothing half-written, not even in the work tree or beside it
        assert git(out, "status", "--porcelain", "--ignored") == ""
        assert not leftovers


def _resume_and_compare(source, out, cache, reference):
    with _cache_env(cache):
        report = run_batches(source, out, fixture_batches(), fixture_checks(), jobs=2)
    assert report.head == reference["head"]
    assert git(out, "log", "--format=%H").splitlines() == reference["commits"]
    assert snapshot(out) == reference["snapshot"]
    assert git(out, "status", "--porcelain", "--ignored") == ""
    assert [b.to_dict()["restored"] for b in report.batches] == \
        [b.to_dict()["restored"] for b in reference["report"].batches]


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGINT"])
def test_killed_at_many_points_then_resumed(reference, tmp_path, sig):
    ops = reference["ops"]
    step = max(2, ops // 5)
    offset = step // 2 if sig == "SIGINT" else 0  # the two signals hit different operations
    points = sorted({1, 2, ops - 1, ops} | set(range(3 + offset, ops, step)))
    seen_codes = set()
    for point in points:
        out, cache = tmp_path / f"out{point}", tmp_path / f"cache{point}"
        proc = _driver(reference["source"], out, cache,
                       {"SLIMFORK_APPLY_KILL_AFTER": str(point), "SLIMFORK_APPLY_KILL_SIGNAL": sig})
        _, stderr = proc.communicate(timeout=120)
        seen_codes.add(proc.returncode)
        expected = -signal.SIGKILL if sig == "SIGKILL" else 130
        assert proc.returncode == expected, (point, stderr.decode()[-2000:])
        _check_interrupted(out, reference, clean=sig == "SIGINT")
        _resume_and_compare(reference["source"], out, cache, reference)
    assert len(points) >= 8 and seen_codes == {-signal.SIGKILL if sig == "SIGKILL" else 130}


def test_killed_at_random_times_repeatedly(reference, tmp_path):
    """Kill a run at random moments, resume and kill again (three times), then finish."""
    rng = random.Random(4)
    out, cache = tmp_path / "out", tmp_path / "cache"
    for _ in range(3):
        proc = _driver(reference["source"], out, cache)
        time.sleep(rng.uniform(0.2, 2.0))
        proc.send_signal(rng.choice([signal.SIGKILL, signal.SIGINT, signal.SIGTERM]))
        proc.communicate(timeout=120)
        _check_interrupted(out, reference, clean=False)
    _resume_and_compare(reference["source"], out, cache, reference)


def _journal(out):
    return json.loads((out / ".git/slimfork-journal.json").read_text())


def test_killed_between_commit_and_journal(reference, tmp_path):
    """The commit landed but the journal still calls the batch pending: resume adopts the commit, redoes nothing."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    with _cache_env(cache):
        run_batches(reference["source"], out, fixture_batches(), fixture_checks(), jobs=1)
    journal = _journal(out)
    journal["pending"] = journal["done"].pop()
    journal["pending"]["commit"] = ""
    write_atomic(out / ".git/slimfork-journal.json", json.dumps(journal))
    (out / "app/core.py").write_text("half-written")  # and the work tree was dirty
    checks = fixture_checks()
    with _cache_env(tmp_path / "cold"):
        report = run_batches(reference["source"], out, fixture_batches(), checks, jobs=1)
    assert all(b.resumed for b in report.batches) and sum(c.runs for c in checks) == 0
    assert report.head == reference["head"] and snapshot(out) == reference["snapshot"]


def test_killed_before_the_commit(reference, tmp_path):
    """The journal says pending but the commit never happened: resume redoes the batch to the same commit."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    with _cache_env(cache):
        run_batches(reference["source"], out, fixture_batches(), fixture_checks(), jobs=1)
        journal = _journal(out)
        journal["pending"] = journal["done"].pop()
        write_atomic(out / ".git/slimfork-journal.json", json.dumps(journal))
        git(out, "reset", "-q", "--hard", "HEAD~1")
        (out / "index.lock").touch()
        (out / ".git/index.lock").touch()  # a git process killed mid-commit
        report = run_batches(reference["source"], out, fixture_batches(), fixture_checks(), jobs=1)
    assert [b.resumed for b in report.batches] == [True, True, False]
    assert report.head == reference["head"] and snapshot(out) == reference["snapshot"]
