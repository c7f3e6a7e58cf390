"""With [symbols], a name only tests use is no kept code's: it goes, and so do the tests that use it, one by one
(the import of the name is cut from the test file and from conftest.py); the tests of kept code in the same files
stay and pass, and so does what the package's test-support module they use needs."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink


def test_a_public_function_only_tests_use_goes_with_its_tests(copy_fixture, tmp_path):
    project = copy_fixture("testsuite", "symtests")
    shrink(project / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    fork = tmp_path / "fork"
    util = (fork / "src/symtests/util.py").read_text()
    assert "def double" in util and "def triple" not in util
    assert "def quadruple" in util  # symtests.testing, test support of test_support.py, uses it
    tests = (fork / "tests/test_util.py").read_text()
    assert "from symtests.util import double\n" in tests
    assert "def test_double" in tests and "def test_compute" in tests and "test_triple" not in tests
    assert "from symtests.util import triple" not in (fork / "tests/conftest.py").read_text()
    assert not (fork / "tests/test_nine.py").exists()  # its fixture used triple
    effects = (fork / "tests/test_effects.py").read_text()  # an import no test reads goes alone: loading the kept
    assert "triple" not in effects and "def test_loaded" in effects  # symtests.util does nothing but bind names
    assert not (fork / "tests/test_mixins.py").exists()  # what the cut leaves (a mixin) tests nothing kept
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork / "src"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout[-2000:]
