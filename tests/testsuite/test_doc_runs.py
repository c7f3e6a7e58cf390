"""A test that runs a documentation file's examples (``doctest.testfile``) uses what they import: when the fork
removes it, the test leaves with it instead of failing (icalendar 6.0.1 runs every ``.rst`` of its docs with
``doctest.testfile(document)``; a literal ``testfile("../docs/usage.rst")`` names one file) (session 33)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "dru"\nversion = "1.0"\n',
    "dru/__init__.py": "",
    "dru/core.py": "def add(a, b):\n    return a + b\n",
    "dru/extra.py": "def mul(a, b):\n    return a * b\n",
    "docs/usage.rst": "Usage\n=====\n\n>>> from dru.extra import mul\n>>> mul(2, 3)\n6\n",
    "docs/core.rst": "Core\n====\n\n>>> from dru.core import add\n>>> add(1, 2)\n3\n",
    "tests/test_docs.py": """
        import doctest
        import os

        HERE = os.path.dirname(__file__)
        DOCS = [os.path.join(HERE, "..", "docs", f) for f in os.listdir(os.path.join(HERE, "..", "docs"))]


        def test_every_document():
            for d in DOCS:
                assert doctest.testfile(d, module_relative=False).failed == 0


        def test_usage():
            assert doctest.testfile("../docs/usage.rst").failed == 0


        def test_core_document():
            assert doctest.testfile("../docs/core.rst").failed == 0
    """,
}
SPEC = 'source = "."\nroots = ["dru.core"]\ntests = ["tests"]\n\n[symbols]\n'


def test_a_test_running_documents_leaves_with_what_their_examples_import(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "dru/extra.py").exists()
    tests = (fork / "tests/test_docs.py").read_text()
    assert "def test_every_document" not in tests and "def test_usage" not in tests
    assert "def test_core_document" in tests
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
