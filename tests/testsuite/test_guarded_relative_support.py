"""decorator 5.1.1's shape (session 33's open item, fixed in session 34): ``src/tests/test.py`` imports its support
module as ``try: from . import documentation`` / ``except ImportError: import documentation``. The handler's import
rebound ``documentation`` to a top-level module outside the project, so the tests' ``documentation.HELPER`` and
``doctest.testmod(documentation)`` used nothing of the package: ``tests.documentation`` (and the ``tests`` package)
left the fork and the kept test file failed to import. A name an import binds to the analysed packages keeps that
meaning against a later import of something else, in either order."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

TEST = """
    import doctest
    import unittest
    try:
        {first}
    except ImportError:
        {second}
    from qc import deco


    class DocTest(unittest.TestCase):
        def test_doc(self):
            self.assertEqual(doctest.testmod(documentation)[0], 0)

        def test_helper(self):
            self.assertEqual(documentation.HELPER, 42)

        def test_deco(self):
            self.assertEqual(deco(2), 2)
"""


@pytest.mark.parametrize("first,second", [("from . import documentation", "import documentation"),
                                          ("import documentation", "from . import documentation")])
def test_a_guarded_relative_import_keeps_its_support_module(tmp_path, first, second):
    files = {
        "pyproject.toml": '[project]\nname = "qc"\nversion = "1.0"\n',
        "src/qc/__init__.py": "def deco(f):\n    return f\n",
        "src/qc/unused.py": "X = 1\n",
        "src/tests/__init__.py": "",
        "src/tests/documentation.py": '"""\n>>> from qc import deco\n>>> deco(1)\n1\n"""\nHELPER = 42\n',
        "src/tests/test.py": TEST.format(first=first, second=second),
    }
    spec = 'source = "."\nroots = ["qc"]\ntests = ["src/tests/test.py"]\n\n[symbols]\n'
    fork = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False).out
    assert (fork / "src/tests/documentation.py").is_file() and (fork / "src/tests/__init__.py").is_file()
    assert not (fork / "src/qc/unused.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test.py"],
                          cwd=fork / "src", capture_output=True, text=True)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-2000:]
