"""A ``conftest.py`` above the test folders (the project root's) is test setup pytest loads for those tests, not a
script: it left the fork as "a script outside the packages that imports removed code" and every test that
requested its fixtures erred. A library module no root reaches that a conftest reads at import time (``seven =
make_fixture(7)``) stays as test support, the root's conftest or one in the test folder (session 33)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "cfa"\nversion = "1.0"\n',
    "cfa/__init__.py": "",
    "cfa/core.py": "def inc(x):\n    return x + 1\n",
    "cfa/devtools.py": "import pytest\n\n\ndef make_fixture(v):\n    @pytest.fixture\n    def f():\n"
                       "        return v\n    return f\n",
    "cfa/more_tools.py": "def value():\n    return 2\n",
    "cfa/unused.py": "def g():\n    return 3\n",
    "conftest.py": "from cfa.devtools import make_fixture\n\nseven = make_fixture(7)\n",
    "tests/conftest.py": "from cfa import more_tools\n\nTWO = more_tools.value()\n",
    "tests/test_core.py": """
        from conftest import TWO
        from cfa.core import inc


        def test_inc(seven):
            assert inc(seven) == 8 and TWO == 2
    """,
}
SPEC = 'source = "."\nroots = ["cfa.core"]\ntests = ["tests"]\n\n[symbols]\n'


def test_conftests_above_and_in_the_tests_keep_what_they_read_at_import(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "conftest.py").is_file()
    assert (fork / "cfa/devtools.py").is_file() and (fork / "cfa/more_tools.py").is_file()
    assert not (fork / "cfa/unused.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
