"""Session 45's leftover, decided in session 46: a root ``conftest.py`` whose module level reads code the spec
drops took every test with it (a warning named them). Where its module level only imports the removed code and
binds names from it without calling anything (``THING = CASES``, ``FIRST = THING[0]``), and the import runs nothing
but bindings, cutting those statements runs no less of the kept code: the fixtures reading them go with the tests
requesting them, and the conftest's other fixtures and the tests of kept code stay. A statement that calls removed
code (``THING = make_thing()``) may do what the kept tests need, and a hook reading them runs for every test: the
conftest still goes whole, with the warning."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

CONFTEST = """
import pytest
from ccb.gone import make_thing, CASES
from ccb.app import main

{line}


@pytest.fixture
def thing():
    return make_thing()


@pytest.fixture
def first():
    return FIRST


@pytest.fixture
def one():
    return main()
"""
FILES = {
    "ccb/__init__.py": "",
    "ccb/app.py": "def main():\n    return 5\n",
    "ccb/gone.py": "CASES = [5]\n\n\ndef make_thing():\n    return 5\n",
    "tests/test_a.py": "from ccb.app import main\n\n\ndef test_main(one):\n    assert main() == one\n\n\n"
                       "def test_thing(thing):\n    assert thing == 5\n\n\ndef test_first(first):\n    assert first == 5\n",
}
SPEC = 'source = "."\nroots = ["ccb.app:main"]\ntests = ["tests"]\ndrop = ["ccb/gone.py"]\n'


@pytest.mark.parametrize("line, kept", [("THING = CASES\nFIRST = THING[0]", True),
                                        ("FIRST = make_thing()", False),
                                        ("FIRST = CASES[0]\n\n\ndef pytest_report_header():\n    return str(FIRST)", False)],
                         ids=["bindings", "call", "hook"])
def test_a_conftest_loses_only_bindings_of_removed_code(tmp_path, line, kept):
    files = {**FILES, "conftest.py": CONFTEST.format(line=line)}
    result = shrink(write_project(tmp_path, files, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "tests/test_a.py").exists() == kept and (fork / "conftest.py").exists() == kept
    if not kept:
        assert any("it goes, with the 1 test file below it" in w for w in result.data["warnings"])
        return
    conftest = (fork / "conftest.py").read_text()
    assert "gone" not in conftest and "FIRST" not in conftest and "def one" in conftest, conftest
    assert "def test_thing" not in (fork / "tests/test_a.py").read_text()
    assert any("its module-level CASES, FIRST, THING, make_thing go" in w for w in result.data["warnings"])
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
