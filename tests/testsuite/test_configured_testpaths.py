"""A Python file the pytest configuration names in ``testpaths`` is a test file whatever its name (phonenumbers
9.0.43: ``testpaths = ["testwrapper.py"]``, a unittest wrapper that star-imports the tests package and imports
every module it doctests). It was planned away as unreachable code, the pytest check put it back, and with it every
module it imports: the fork kept the 320,000 lines of geocoding data no kept code reads."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n\n[tool.pytest.ini_options]\n'
                      'testpaths = ["runtests.py"]\npython_classes = ["*Test"]\n',
    "qpkg/__init__.py": "",
    "qpkg/core.py": "def add(a, b):\n    return a + b\n",
    "qpkg/extra.py": "def mul(a, b):\n    return a * b\n",
    "tests/__init__.py": "from .coretest import AddTest\nfrom .extratest import MulTest\n",
    "tests/coretest.py": """
        import unittest

        from qpkg.core import add


        class AddTest(unittest.TestCase):
            def test_add(self):
                self.assertEqual(add(1, 2), 3)
    """,
    "tests/extratest.py": """
        import unittest

        from qpkg.extra import mul


        class MulTest(unittest.TestCase):
            def test_mul(self):
                self.assertEqual(mul(2, 3), 6)
    """,
    "runtests.py": """
        import unittest

        from qpkg import extra
        from tests import *


        class DocTest(unittest.TestCase):
            def test_docs(self):
                self.assertEqual(extra.mul(1, 1), 1)


        if __name__ == '__main__':
            unittest.main()
    """,
}
SPEC = ('source = "."\nroots = ["qpkg.core:add"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_a_testpaths_file_is_a_test_file(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "qpkg/extra.py").exists() and not (fork / "tests/extratest.py").exists()
    wrapper = (fork / "runtests.py").read_text()
    assert "from tests import *" in wrapper and "extra" not in wrapper, wrapper
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
