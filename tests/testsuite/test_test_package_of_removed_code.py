"""A test package's ``__init__.py`` that imports removed code at module level goes where no test below it stays,
keeps what it runs at import as test support where one does, and goes with the tests below it where that code
cannot stay (apache-libcloud 3.9.1's ``libcloud/test/backup/__init__.py`` importing ``libcloud.backup.base``: the static
fork had kept it importing a removed module). A mixin of removed code in it goes with its import."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def a():\n    return 1\n",
    "pkg/b.py": "def b():\n    return 2\n",
    "tests/__init__.py": "",
    "tests/test_a.py": "from pkg.a import a\n\n\ndef test_a():\n    assert a() == 1\n",
    "tests/b/__init__.py": "from pkg.b import b\n\nEXPECTED = b()\n",
    "tests/b/test_b.py": "from pkg.b import b\n\n\ndef test_b():\n    assert b() == 2\n",
}
SPEC = 'source = "."\nroots = ["pkg.a"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_test_package_init_of_removed_code_goes_when_no_test_below_it_stays(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/b.py").exists() and not (fork / "tests/b/test_b.py").exists()
    assert not (fork / "tests/b/__init__.py").exists()
    assert not any("tests/b/__init__.py" in w for w in result.analysis.plan.warnings)
    done = _pytest(fork)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


KEPT_BELOW = {**FILES, "tests/b/test_kept.py": "from pkg.a import a\n\n\ndef test_kept():\n    assert a() == 1\n"}


def _pytest(fork):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)


def test_what_it_runs_at_import_stays_as_test_support_where_a_test_below_it_stays(tmp_path):
    root = write_project(tmp_path, KEPT_BELOW, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "tests/b/__init__.py").exists() and (fork / "tests/b/test_kept.py").exists()
    kept = {k.path: k for k in result.analysis.plan.kept}
    assert kept["pkg/b.py"].kind.value == "test-support" and "tests/b/__init__.py" in kept["pkg/b.py"].reason
    done = _pytest(fork)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-2000:]


def test_it_goes_with_the_tests_below_it_where_the_code_cannot_stay(tmp_path):
    """``drop`` takes ``pkg/b.py`` whatever uses it: the package and the tests pytest imports through it go (the
    static fork had kept them, and ``tests/b/test_kept.py`` failed to import), with a warning naming them."""
    root = write_project(tmp_path, KEPT_BELOW, SPEC.replace('tests = ["tests"]', 'tests = ["tests"]\ndrop = ["pkg/b.py"]'))
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/b.py").exists() and not (fork / "tests/b").exists()
    assert any("tests/b/__init__.py" in w and "tests/b/test_kept.py" in w for w in result.analysis.plan.warnings)
    done = _pytest(fork)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


MIXIN = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def double(x):\n    return 2 * x\n",
    "pkg/b.py": "class Target:\n    kind = 'b'\n",
    "tests/__init__.py": "",
    "tests/sub/__init__.py": "from pkg.b import Target\n\n\nclass TargetMixin:\n    def check_target(self):\n"
                             "        assert isinstance(self.make(), Target)\n",
    "tests/sub/test_a.py": "from pkg.a import double\n\n\ndef test_double():\n    assert double(2) == 4\n",
    "tests/sub/test_b.py": "import unittest\nfrom pkg.b import Target\nfrom tests.sub import TargetMixin\n\n\n"
                           "class TestB(TargetMixin, unittest.TestCase):\n    def make(self):\n        return Target()\n\n"
                           "    def test_it(self):\n        self.check_target()\n",
}


def test_a_mixin_of_removed_code_in_a_test_package_init_goes_with_its_import(tmp_path):
    """``tests/sub/__init__.py`` defines a mixin of the removed tests that uses removed code, beside a kept test: the
    mixin and its import go, the package stays (it had stayed whole, and the static fork failed to import it)."""
    root = write_project(tmp_path, MIXIN, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/b.py").exists() and not (fork / "tests/sub/test_b.py").exists()
    assert "TargetMixin" not in (fork / "tests/sub/__init__.py").read_text()
    assert not result.analysis.plan.warnings
    done = _pytest(fork)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_a_method_that_goes_takes_the_class_whose_imported_base_calls_it(tmp_path):
    """The mixin of another test file calls ``self.make()``; ``TestB.make`` goes (it uses removed code): the class
    goes whole (its ``test_it`` stayed and failed with AttributeError)."""
    files = {**MIXIN, "tests/sub/__init__.py": "class TargetMixin:\n    def check_target(self):\n"
                                               "        assert self.make() is not None\n",
             "tests/sub/test_b.py": MIXIN["tests/sub/test_b.py"].replace(
                 "from tests.sub", "from pkg.a import double\nfrom tests.sub") + "\n    def test_double(self):\n"
                                                                                  "        assert double(1) == 2\n"}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/b.py").exists()
    assert "TestB" not in (fork / "tests/sub/test_b.py").read_text() if (fork / "tests/sub/test_b.py").exists() else True
    done = _pytest(fork)
    assert done.returncode == 0 and "failed" not in done.stdout and "error" not in done.stdout, done.stdout[-2000:]
