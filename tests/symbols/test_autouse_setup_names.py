"""setuptools_scm 8.1.0 (session 34): ``testing/conftest.py`` has an autouse fixture entering ``DebugMode``, a class
that binds ``from setuptools_scm import _log as __module`` in its body and calls ``self.__module.defer_to_pytest()``.
Symbol pruning removed ``defer_to_pytest`` (only tests use it) and every test of the fork erred (194 new failures):
the tests stage saw no use through the class attribute, and cutting an autouse fixture cuts the setup of every
test. What a conftest's autouse fixture runs (itself and the functions and classes of the file it reaches) keeps
the library names it reads, as a test file's import-time statements do; a name only a test uses still goes."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sc"\nversion = "1.0"\n',
    "sc/__init__.py": "",
    "sc/_log.py": "import contextlib\n\nSTATE = []\n\n\n@contextlib.contextmanager\ndef defer_to_pytest():\n"
                  "    STATE.append(1)\n    yield\n    STATE.pop()\n\n\ndef only_tests():\n    return 1\n\n\n"
                  "def used():\n    return 2\n",
    "sc/version.py": "from sc._log import used\n\n\ndef version():\n    return used()\n",
    "tests/conftest.py": """
        import contextlib
        import pytest


        class DebugMode:
            from sc import _log as __module

            def __init__(self):
                self.__stack = contextlib.ExitStack()

            def __enter__(self):
                self.enable()
                return self

            def __exit__(self, *exc):
                self.__stack.close()

            def enable(self):
                self.__stack.enter_context(self.__module.defer_to_pytest())


        @pytest.fixture(autouse=True)
        def debug_mode():
            with DebugMode() as mode:
                yield mode
    """,
    "tests/test_version.py": """
        from sc import _log
        from sc.version import version


        def test_version():
            assert version() == 2 and _log.STATE == [1]


        def test_only():
            assert _log.only_tests() == 1
    """,
}


def test_what_an_autouse_fixture_runs_keeps_its_library_names(tmp_path):
    spec = 'source = "."\nroots = ["sc.version"]\ntests = ["tests"]\n\n[symbols]\n'
    fork = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False).out
    log = (fork / "sc/_log.py").read_text()
    assert "def defer_to_pytest" in log and "def only_tests" not in log
    assert "def enable" in (fork / "tests/conftest.py").read_text()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
