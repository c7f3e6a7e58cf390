"""Doctest text files pytest collects (``--doctest-glob``, by default ``test*.txt``) are test files: their
``>>>`` imports are imports of test code. One that imports removed code leaves with it, one that imports a
test-support module keeps it; a file pytest does not collect is left alone. Under ``--doctest-modules`` the
doctests in a test file's docstrings count as its test code too."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink
from slimfork.testsuite.doctests import scan_doctest_file

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def add(a, b):\n    return a + b\n",
    "pkg/extras.py": "def shout(s):\n    return s.upper()\n",
    "pkg/testing/__init__.py": "",
    "pkg/testing/helpers.py": "def twice(x):\n    return 2 * x\n",
    "pkg/testing/fmt.py": "def pretty(x):\n    return f'<{x}>'\n",
    "tests/test_core.py": '''
        from pkg.core import add


        def test_add():
            """
            >>> from pkg.testing.fmt import pretty
            >>> pretty(add(1, 1))
            '<2>'
            """
            assert add(1, 2) == 3
        ''',
    "tests/usage.rst": """
        >>> from pkg.core import add
        >>> add(2, 2)
        4
        >>> from pkg.extras import shout
        >>> shout("hi")
        'HI'
        """,
    "tests/guide.rst": """
        >>> from pkg.core import add
        >>> from pkg.testing.helpers import twice
        >>> twice(add(1, 1))
        4
        """,
    "tests/test_notes.txt": """
        >>> import pkg.extras
        >>> pkg.extras.shout("a")
        'A'
        """,
    "tests/notes.md": ">>> from pkg.extras import shout\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]

[symbols]
"""


def _shrink(tmp_path, addopts: str | None):
    files = dict(FILES)
    if addopts is not None:
        files["pyproject.toml"] = f'[tool.pytest.ini_options]\naddopts = "{addopts}"\n'
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return fork, done.stdout


def test_doctest_files_pytest_collects_follow_the_code_they_import(tmp_path):
    fork, out = _shrink(tmp_path, "--doctest-glob=*.rst --doctest-modules")
    assert not (fork / "pkg/extras.py").exists()
    assert not (fork / "tests/usage.rst").exists()  # it imports removed code: it leaves with it
    assert (fork / "tests/guide.rst").is_file() and (fork / "pkg/testing/helpers.py").is_file()
    assert (fork / "pkg/testing/fmt.py").is_file()  # a docstring doctest of a test file, run by --doctest-modules
    assert (fork / "tests/test_notes.txt").is_file()  # --doctest-glob replaces the default: not collected
    assert (fork / "tests/notes.md").is_file()  # never collected: not a test file
    assert "3 passed" in out


def test_the_default_doctest_glob_is_test_txt(tmp_path):
    fork, out = _shrink(tmp_path, None)
    assert not (fork / "tests/test_notes.txt").exists()
    assert (fork / "tests/usage.rst").is_file() and (fork / "tests/guide.rst").is_file()  # not collected
    assert "1 passed" in out


def test_scan_reads_multiline_examples():
    text = ">>> from pkg.core import (\n...     add,\n... )\n>>> import pkg.extras as ex\n>>> ex.shout('a')\n"
    unit = scan_doctest_file("tests/a.rst", text, {"pkg"}).tests[0]
    assert {u.dotted for u in unit.uses} >= {"pkg.core.add", "pkg.extras", "pkg.extras.shout"}
