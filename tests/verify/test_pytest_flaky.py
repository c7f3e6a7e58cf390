"""A test whose outcome does not depend on the tree (a race, a timing: execnet 2.1.2's gateway tests under load)
failed on one batch and on the tree it was bisected to, and the batch was put back as "check pytest is not
deterministic". A failed test now runs once more on the same tree: one that passes then is flaky, said in the
check's detail and no failure of the batch; one that fails again stays a failure."""

from __future__ import annotations

from slimfork.verify.checks.pytest import PytestCheck, node_id
from slimfork.verify.env import current_env
from slimfork.verify.spec import PytestSpec

from tests.verify.verify_helpers import LAYOUT

ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")


def _tree(root, counter, broken=False, failing="n % 2 == 0"):
    (root / "tests").mkdir(parents=True)
    # fails on the runs ``failing`` says (every second one), wherever it runs
    (root / "tests" / "test_race.py").write_text(
        "from pathlib import Path\n\n\nclass TestGateway:\n    def test_flaky(self):\n"
        f"        counter = Path({str(counter)!r})\n"
        "        n = int(counter.read_text()) + 1 if counter.exists() else 1\n"
        f"        counter.write_text(str(n))\n        assert not ({failing})\n")
    (root / "tests" / "test_core.py").write_text("def test_add():\n    assert 1 + 2 == " + ("4" if broken else "3")
                                                 + "\n")
    return root


def test_a_test_that_passes_when_run_again_is_flaky_not_a_failure(tmp_path):
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig", tmp_path / "n1"))  # run 1: passes
    assert baseline.usable and "tests.test_race.TestGateway::test_flaky" in baseline.data
    result = check.run(_tree(tmp_path / "fork", tmp_path / "n1"), baseline)  # run 2 fails, run 3 passes
    assert result.ok, result.failures
    assert "1 test failed and then passed on the same tree (flaky, not counted): tests.test_race" in result.detail


def test_a_test_that_fails_twice_and_then_passes_is_flaky(tmp_path):
    """execnet 2.1.2's ``test_channel_passing_over_channel`` fails about one run in three in the original too:
    once more was not enough."""
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig", tmp_path / "n3", failing="n in (2, 3)"))
    result = check.run(_tree(tmp_path / "fork", tmp_path / "n3", failing="n in (2, 3)"), baseline)
    assert result.ok and "(flaky, not counted)" in result.detail, result.failures


def test_a_test_that_fails_again_stays_a_failure(tmp_path):
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig", tmp_path / "n2"))
    result = check.run(_tree(tmp_path / "fork", tmp_path / "n2", broken=True), baseline)
    assert not result.ok and [f.split(":")[0] for f in result.failures] == ["tests.test_core"]
    assert result.paths == ("tests/test_core.py",) and "flaky" in result.detail


def test_node_ids():
    assert node_id("testing.test_gw.TestBasic::test_x[a-b]", "testing/test_gw.py") == \
        "testing/test_gw.py::TestBasic::test_x[a-b]"
    assert node_id("pkg.mod::pkg.mod.func", "pkg/mod.py") == "pkg/mod.py::pkg.mod.func"
    assert node_id("other.test_gw::test_x", "testing/test_gw.py") is None


def test_a_test_failing_on_every_run_of_the_fork_and_once_in_the_original_is_not_counted(tmp_path):
    """execnet 2.1.2's gateway test failed three times in a row on one batch's tree (it fails 1 to 3 of 6 cases in
    each run of the original) and the batch's ``doc/__init__.py`` was put back: the failing test now runs on the
    original too, and one failing there is flaky in the original, not a failure of the fork."""
    from slimfork.apply.ladder import Ladder

    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    original = _tree(tmp_path / "orig", tmp_path / "n4", failing="n in (2, 3, 4, 5)")
    ladder = Ladder([check], cache_root=None, jobs=1)
    ladder.compute_baselines(original, "tree")  # run 1 passes; the ladder tells the check where the original is
    assert check.original == original
    result = check.run(_tree(tmp_path / "fork", tmp_path / "n4", failing="n in (2, 3, 4, 5)"),
                       ladder.baselines["pytest"])  # runs 2-4 on the fork fail, run 5 on the original fails
    assert result.ok, result.failures
    assert ("1 test failed on every run of the fork and on a run of the original too (flaky in the original, not "
            "counted): tests.test_race.TestGateway::test_flaky") in result.detail


def test_a_test_that_passes_on_every_run_of_the_original_stays_a_failure(tmp_path):
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    check.original = _tree(tmp_path / "orig", tmp_path / "n5", failing="n in (2, 3, 4)")
    baseline = check.baseline(check.original)
    result = check.run(_tree(tmp_path / "fork", tmp_path / "n5", failing="n in (2, 3, 4)"), baseline)
    assert not result.ok and [f.split(":")[0] for f in result.failures] == ["tests.test_race.TestGateway"]
    assert result.paths == ("tests/test_race.py",)


def test_tests_failing_in_the_original_are_explained(tmp_path):
    """stack_data 0.6.3's report said "14 of 21 tests pass in the original" and nothing of the other 7."""
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig", tmp_path / "n6", broken=True, failing="False"))
    assert baseline.note.startswith("1 of 2 tests pass in the original; 1 test fails in the original too and is "
                                    "not counted against the fork (first: tests.test_core::test_add: "), baseline.note
    assert "assert" in baseline.note


def test_a_test_failing_otherwise_in_the_original_stays_a_failure_of_the_fork(tmp_path):
    """The fork's failure is an ImportError (the batch removed what the test imports); the original fails the
    same test now and then with an AssertionError: that flake excuses nothing."""
    from slimfork.apply.ladder import Ladder

    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    original = _tree(tmp_path / "orig", tmp_path / "n5", failing="n in (2, 3, 4, 5)")
    ladder = Ladder([check], cache_root=None, jobs=1)
    ladder.compute_baselines(original, "tree")
    fork = _tree(tmp_path / "fork", tmp_path / "n5", failing="n in (2, 3, 4, 5)")
    race = fork / "tests" / "test_race.py"
    race.write_text(race.read_text().replace("    def test_flaky(self):\n",
                                             "    def test_flaky(self):\n        import pkg_gone_in_the_fork\n"))
    result = check.run(fork, ladder.baselines["pytest"])
    assert not result.ok and result.failures[0].startswith("tests.test_race.TestGateway::test_flaky"), result.failures
    assert "ModuleNotFoundError" in result.failures[0] and "flaky in the original" not in result.detail


def test_error_kinds():
    from slimfork.verify.checks.pytest import error_kind

    assert error_kind("ModuleNotFoundError: No module named 'x'") == "ModuleNotFoundError"
    assert error_kind("_pytest.outcomes.Failed: DID NOT RAISE") == "Failed"
    assert error_kind("assert 1 == 2") == "AssertionError" and error_kind("no message") == ""
