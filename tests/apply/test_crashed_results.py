"""A check that raises (a killed pytest run left a baseline of the plain check's shape, and the planned-tests check
read it as its own: ``'set' object has no attribute 'get'``) fails its tree, but the crash says nothing about the
tree: it is not cached, so the next run checks the tree again instead of restoring the same batch forever (the
setproctitle profile kept its darwin sources after one interrupted run). The planned-tests check reads such a
baseline as the plain check does."""

from __future__ import annotations

from pathlib import Path

from slimfork.apply.ladder import Ladder, _run_check
from slimfork.testsuite.check import PlannedTestsCheck
from slimfork.verify.model import Baseline, CheckResult


class _Raising:
    name, cost = "boom", 1

    def run(self, tree, baseline):
        raise AttributeError("'set' object has no attribute 'get'")


class _Inner:
    name = "pytest"

    def run(self, fork, baseline):
        return CheckResult("pytest", True)


def test_a_crashed_result_fails_and_is_not_cached(tmp_path):
    result = _run_check(_Raising(), tmp_path, Baseline("boom", True, None, ""))
    assert not result.ok and result.failures[0].startswith("check boom crashed: AttributeError")
    ladder = Ladder([_Raising()], cache_root=tmp_path / "cache", jobs=1)
    ladder._store("k" * 64, result)
    ladder._store("j" * 64, CheckResult("boom", False, ("a test failed",)))
    assert [p.name[:1] for p in (tmp_path / "cache" / "results").rglob("*.json")] == ["j"]


def test_the_plain_checks_baseline_is_read_as_it_is(tmp_path):
    check = PlannedTestsCheck.__new__(PlannedTestsCheck)
    check.inner = _Inner()
    assert check.run(Path(tmp_path), Baseline("pytest", True, {"tests.test_a::test_x"}, "")).ok
