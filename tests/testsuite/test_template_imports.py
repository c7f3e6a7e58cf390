"""A test helper that imports a module named by a template whose variable part is not a known literal
(mutagen 1.47.0's ``tests/test_tools.py``: ``importlib.import_module("mutagen._tools.%s" % tool_name)``) uses the
package of the template's prefix: the tests that go through it go when the fork removes that package (session 41:
with the console scripts dropped, ``mutagen._tools`` left and 56 tests failed on the fork). The removal of one
module below a kept package takes no test: which one it imports is not known
(tests/testsuite/test_children_and_generated_params.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

TEMPLATES = ['"pk.tools.%s" % name.replace("-", "_")', '"pk.tools." + name', 'f"pk.tools.{name}"',
             '"pk.tools.{}".format(name)']


@pytest.mark.parametrize("template", TEMPLATES)
def test_tests_through_a_template_import_of_a_removed_package_go(tmp_path, template):
    files = {
        "pyproject.toml": '[project]\nname = "pk"\nversion = "1.0"\n',
        "pk/__init__.py": "",
        "pk/core.py": "def add(a, b):\n    return a + b\n",
        "pk/tools/__init__.py": "",
        "pk/tools/copy.py": "def main(args):\n    return len(args)\n",
        "tests/__init__.py": "",
        "tests/test_tools.py": f"""
            import importlib
            import unittest


            def get_var(name, entry="main"):
                return getattr(importlib.import_module({template}), entry)


            class _TTools(unittest.TestCase):
                TOOL_NAME = None

                def setUp(self):
                    self._main = get_var(self.TOOL_NAME)
        """,
        "tests/test_tools_copy.py": """
            from tests.test_tools import _TTools


            class TCopy(_TTools):
                TOOL_NAME = "copy"

                def test_main(self):
                    assert self._main(["a"]) == 1
        """,
        "tests/test_core.py": "from pk.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    }
    spec = 'source = "."\nroots = ["pk.core:add"]\ntests = ["tests"]\n'
    root = write_project(tmp_path, files, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pk/tools").exists() and not (fork / "tests/test_tools_copy.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
