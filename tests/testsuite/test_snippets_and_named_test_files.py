"""Two shapes of plumbum 1.9.0's tests/test_local.py that kept tests of removed code in the fork (session 40):
``test_atomic_counter`` runs ``code = f"from plumbum.fs.atomic import AtomicCounterFile ..."`` in a child Python
(``local.python["-c", code]``, not a literal ``[python, "-c", "..."]`` list): the import lines of code held in a
string, an f-string's too, are uses of the test. ``test_iterdir``, decorated with ``@pytest.mark.usefixtures``
(which made it a "fixture" to the scanner), asserts that ``"test_remote.py"`` is in its folder: a test naming a test
file the fork removes whole goes with it."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "spkg"\nversion = "1.0"\n',
    "spkg/__init__.py": "",
    "spkg/core.py": "def add(a, b):\n    return a + b\n",
    "spkg/atomic.py": "def bump(n):\n    return n + 1\n",
    "spkg/remote.py": "def connect():\n    return 'remote'\n",
    "tests/test_remote.py": """
        from spkg.remote import connect


        def test_connect():
            assert connect() == "remote"
    """,
    "tests/test_local.py": """
        import os
        import subprocess
        import sys

        import pytest

        from spkg.core import add


        @pytest.fixture()
        def here(monkeypatch):
            monkeypatch.chdir(os.path.dirname(os.path.abspath(__file__)))


        @pytest.mark.usefixtures("here")
        def test_listing():
            files = os.listdir(".")
            assert "test_local.py" in files and "test_remote.py" in files


        def test_child():
            n = 2
            code = f\"\"\"from spkg.atomic import bump
        print(bump({n}))
        \"\"\"
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            assert done.stdout.strip() == "3"


        def test_add():
            assert add(1, 2) == 3
    """,
}


def test_code_strings_and_named_test_files_take_their_tests(tmp_path):
    spec = 'source = "."\nroots = ["spkg.core"]\ntests = ["tests"]\n'
    root = write_project(tmp_path / "proj", FILES, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "spkg/atomic.py").exists() and not (fork / "tests/test_remote.py").exists()
    local = (fork / "tests/test_local.py").read_text()
    assert "def test_add" in local and "def test_child" not in local and "def test_listing" not in local, local
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
