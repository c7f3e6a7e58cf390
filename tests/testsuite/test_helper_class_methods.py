"""setuptools_scm 8.1.0's conftest shape (session 34): a helper class of a conftest (no tests of its own) whose
method uses a name symbol pruning removed lost that method alone, while the fixture building the class and the
tests requesting it stayed: ``'DebugMode' object has no attribute 'enable'`` in 33 tests. A helper class whose
method goes now goes whole, with the fixtures and tests that use it; a test class keeps its per-method cuts. A
helper's parameter named like a fixture requests nothing (cleo 2.1.0's ``FooCommand.interact(self, io)``)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "hc"\nversion = "1.0"\n',
    "hc/__init__.py": "",
    "hc/_log.py": "def only_tests():\n    return 1\n\n\ndef used():\n    return 2\n",
    "hc/version.py": "from hc._log import used\n\n\ndef version():\n    return used()\n",
    "tests/conftest.py": """
        import pytest


        class Helper:
            from hc import _log as __module

            def enable(self):
                return self.__module.only_tests()

            def value(self):
                return 1


        @pytest.fixture
        def plain():
            from hc import _log
            return _log.only_tests()


        @pytest.fixture
        def helper():
            return Helper()
    """,
    "tests/commands.py": """
        class Command:
            def interact(self, plain):  # a parameter named like a conftest's fixture of removed code
                return plain
    """,
    "tests/test_version.py": """
        from hc.version import version


        def test_version():
            assert version() == 2


        def test_value(helper):
            assert helper.value() == 1 and version() == 2


        def test_enable(helper):
            assert helper.enable() == 1


        def test_command():
            from commands import Command
            assert Command().interact(3) == 3 and version() == 2
    """,
}


def test_a_helper_class_goes_whole_with_its_users(tmp_path):
    spec = 'source = "."\nroots = ["hc.version"]\ntests = ["tests"]\n\n[symbols]\n'
    fork = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False).out
    assert "def only_tests" not in (fork / "hc/_log.py").read_text()
    conftest = (fork / "tests/conftest.py").read_text()
    assert "class Helper" not in conftest
    assert "class Command" in (fork / "tests/commands.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
