"""gitdb 4.0.12's tests read the project's own ``.git`` (``InvalidDBRoot: .../.git/objects``), which its sdist
lacks: 8 failed in the original, and the check's note named only the first, as any failure. Now it counts those
whose error names a git repository and says that no check of a fork can run them."""

from __future__ import annotations

from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import PytestSpec

from tests.verify.verify_helpers import LAYOUT

ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")
TESTS = '''import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_add():
    assert 1 + 2 == 3


def test_objects():
    with open(os.path.join(ROOT, ".git", "HEAD")) as head:
        assert head.read()


def test_refs():
    assert os.listdir(os.path.join(ROOT, ".git", "refs"))
'''


def test_tests_that_need_the_projects_own_git_are_named(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_repo.py").write_text(TESTS)
    baseline = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS)).baseline(tmp_path)
    assert baseline.usable and baseline.data == {"tests.test_repo::test_add"}
    assert "2 of them need the project's own git repository" in baseline.note, baseline.note
    assert "no check of the fork can run them (first: tests.test_repo::test_objects)" in baseline.note


def test_a_source_with_its_git_says_nothing_of_it(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_repo.py").write_text(TESTS)
    (tmp_path / ".git").write_text("gitdir: elsewhere\n")  # a .git that is no folder: the tests still fail
    baseline = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS)).baseline(tmp_path)
    assert "git repository" not in baseline.note, baseline.note


def test_a_suite_that_timed_out_on_the_original_runs_once(tmp_path):
    """The planned-tests check ran a suite with no report on the original again, and then the plain check's
    baseline ran it a third time to say why: three times ``[checks.pytest] timeout`` (30 minutes by default) for a
    suite too slow for it. A timeout is said at once."""
    from slimfork.testsuite.check import PlannedTestsCheck

    (tmp_path / "tests").mkdir()
    runs = tmp_path / "runs.txt"
    (tmp_path / "tests" / "test_slow.py").write_text(
        f"import time\n\ndef test_slow():\n    open({str(runs)!r}, 'a').write('run\\n')\n    time.sleep(30)\n")
    check = PlannedTestsCheck(PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS, timeout=4)), set(), set(),
                              set())
    baseline = check.baseline(tmp_path)
    assert not baseline.usable and "timed out after 4s" in baseline.note, baseline.note
    assert runs.read_text().count("run") == 1
