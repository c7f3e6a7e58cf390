"""A helper method of a test base class that uses a removed name goes with it; the subclasses whose ``setUp`` or
tests call it through ``self`` go too (jsonpickle's ``BackendBase.set_preferred_backend`` calls
``jsonpickle.set_preferred_backend``, which ``package_api = false`` removes; the subclasses' ``setUp`` stayed and
failed with AttributeError). A test of kept code in the same file stays."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "from pkg.backend import set_backend\nfrom pkg.core import work\n",
    "pkg/backend.py": "NAME = ['json']\n\n\ndef set_backend(name):\n    NAME[0] = name\n",
    "pkg/core.py": "def work():\n    return 1\n",
    "tests/test_b.py": """
        import unittest

        import pkg
        from pkg.core import work


        class Base(unittest.TestCase):
            def set_backend(self, name):
                pkg.set_backend(name)


        class TestJson(Base):
            def setUp(self):
                self.set_backend("json")

            def test_json(self):
                self.assertEqual(work(), 1)


        def test_work():
            assert work() == 1
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_subclasses_calling_a_removed_inherited_helper_leave(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", jobs=1)
    assert not (result.out / "pkg/backend.py").exists()
    text = (result.out / "tests/test_b.py").read_text()
    assert "def test_work" in text and "class TestJson" not in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout
