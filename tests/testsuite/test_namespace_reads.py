"""A test that reads a module's whole namespace (``vars(pkg)``, ``dir(mod)``, ``inspect.getmembers(mod)``) or lists
a package's modules and reads names off each uses every public name there: with ``public_api = "roots"`` and
``package_api = false`` symbol pruning removes some, and the test leaves instead of failing (jsonpickle 3.3.0's
``test_API_names`` asserts on ``vars(jsonpickle)``; mutagen 1.47.0's ``TModuleImportAll.test_errors`` reads
``mod.error`` of each module ``os.listdir(mutagen.__path__[0])`` names) (session 33)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "nsr"\nversion = "1.0"\n',
    "nsr/__init__.py": "from nsr.core import encode\nfrom nsr.extra import decode\n",
    "nsr/core.py": "class error(Exception):\n    pass\n\n\ndef encode(x):\n    return str(x)\n",
    "nsr/extra.py": "class error(Exception):\n    pass\n\n\ndef decode(s):\n    return int(s)\n",
    "tests/test_api.py": """
        import importlib
        import inspect
        import os
        import unittest

        import nsr
        from nsr.core import encode


        def test_names():
            names = list(vars(nsr))
            assert "encode" in names and "decode" in names


        def test_members():
            assert dict(inspect.getmembers(nsr))["decode"]


        def test_encode():
            assert encode(1) == "1"


        class TEachModule(unittest.TestCase):
            def setUp(self):
                mods = [f[:-3] for f in os.listdir(nsr.__path__[0]) if f.endswith(".py") and f[0] != "_"]
                self.modules = [importlib.import_module("nsr." + m) for m in mods]

            def test_errors(self):
                for mod in self.modules:
                    assert issubclass(mod.error, Exception)
    """,
}
SPEC = ('source = "."\nroots = ["nsr.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_tests_reading_every_name_leave_when_symbol_pruning_removes_one(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    tests = (fork / "tests/test_api.py").read_text()
    assert "def test_names" not in tests and "def test_members" not in tests and "TEachModule" not in tests
    assert "def test_encode" in tests
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-2000:]
