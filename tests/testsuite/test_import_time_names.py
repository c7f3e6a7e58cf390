"""A test file that reads a library name at import time (``SAFE = _ALPHA + "-"`` at module level after
``from pkg._infra import _ALPHA``) keeps that name: symbol pruning removed the private constant no kept library
code used, and the file, with every test of the root module in it, left the fork (w3lib 2.2.1, root
``w3lib.url``: ``tests/test_url.py`` imports ``_ASCII_ALPHA`` from ``w3lib._infra``; 239 tests passed in the
original, 5 in the fork). A name only a test function uses still goes with that test (session 31)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "itpkg"\nversion = "1.0"\n',
    "itpkg/__init__.py": "",
    "itpkg/_infra.py": "_ALPHA = 'abc'\n_DIGITS = '012'\n_UNUSED = 'x'\n\n\ndef _only_tests():\n    return 1\n\n\n"
                       "def _strip(s):\n    return s.strip()\n",
    "itpkg/url.py": "from itpkg._infra import _strip\n\n\ndef safe(s):\n    return _strip(s)\n",
    "tests/test_url.py": """
        import itpkg._infra as infra
        from itpkg._infra import _ALPHA, _only_tests
        from itpkg.url import safe

        SAFE = _ALPHA + "-" + infra._DIGITS


        def test_safe():
            assert safe(" a ") == "a" and SAFE == "abc-012"


        def test_only_tests():
            assert _only_tests() == 1
    """,
}
SPEC = 'source = "."\nroots = ["itpkg.url"]\ntests = ["tests"]\n\n[symbols]\n'


def test_names_a_test_file_reads_at_import_stay_with_its_tests(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    infra = (fork / "itpkg/_infra.py").read_text()
    assert "_ALPHA" in infra and "_DIGITS" in infra
    assert "_UNUSED" not in infra and "_only_tests" not in infra  # only a test function used it: it went
    tests = (fork / "tests/test_url.py").read_text()
    assert "def test_safe" in tests and "def test_only_tests" not in tests
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]


def test_reads_of_a_test_package_count_too(tmp_path):
    """``tests/__init__.py`` makes the test files modules, which no root imports: the plan after the fold had them
    as unreachable, and their reads counted as those of files the fork lacks (treelib's tests package)."""
    files = {**FILES, "tests/__init__.py": "", "pyproject.toml": FILES["pyproject.toml"] + 'requires-python = ">=3.8"\n',
             "itpkg/url.py": "import sys\n" + FILES["itpkg/url.py"] + "\n\nif sys.version_info < (3, 8):\n    OLD = 1\n"}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    infra = (fork / "itpkg/_infra.py").read_text()
    assert "_ALPHA" in infra and "_DIGITS" in infra and "_UNUSED" not in infra
    assert "OLD" not in (fork / "itpkg/url.py").read_text()  # folded: the plan was made again
    assert "def test_safe" in (fork / "tests/test_url.py").read_text()


def test_a_dropped_test_file_reads_nothing(tmp_path):
    """A test file the spec drops is not in the fork: what it read at import time keeps nothing (PyYAML's
    ``tests/legacy_tests/test_yaml_ext.py`` reads the whole ``yaml`` API at import; with it dropped that API no
    longer stayed for it)."""
    root = write_project(tmp_path, FILES, SPEC.replace("tests = [", 'drop = ["tests/test_url.py"]\ntests = ['))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "tests/test_url.py").exists()
    infra = (fork / "itpkg/_infra.py").read_text()
    assert "_ALPHA" not in infra and "_DIGITS" not in infra and "def _strip" in infra
