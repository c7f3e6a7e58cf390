"""A test file that does not collect (a Python 2 file in the tests folder, a module-level import of a missing
optional dependency) made pytest stop before any test, so the pytest check was unusable on the original ("0 of 1
tests pass": a newcomer's fork went unverified by its suite). The others now run; the file that did not collect
fails alone, and a test that passed in the original still fails the fork when its file stops collecting there."""

from __future__ import annotations

from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import PytestSpec

from tests.verify.verify_helpers import LAYOUT

ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")


def _tree(root, core_test):
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_py2.py").write_text('print "hello"\n\ndef test_old():\n    pass\n')
    (root / "tests" / "test_core.py").write_text(core_test)
    return root


def test_one_file_that_does_not_collect_leaves_the_others_verified(tmp_path):
    original = _tree(tmp_path / "orig", "def test_add():\n    assert 1 + 2 == 3\n")
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(original)
    assert baseline.usable and baseline.data == {"tests.test_core::test_add"}
    broken = _tree(tmp_path / "fork", "import not_here_xyz\n\ndef test_add():\n    pass\n")
    result = check.run(broken, baseline)
    assert not result.ok and result.failures[0].startswith("tests.test_core::test_add")
