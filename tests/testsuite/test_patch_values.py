"""A test that patches in a module's name as a value (``monkeypatch.setattr("pk.settings.BACKEND",
"pk.backends.fast")``, ``@mock.patch("pk.settings.BACKEND", "pk.backends.fast:Fast")``), for the code under test to
import by name, uses that module: it goes when the fork removes it. Before (session 44) the test stayed and failed
in the fork with ModuleNotFoundError (the module, imported otherwise only by code no root reaches, left); the test
of kept code beside it stays."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

APP = ("import importlib\nfrom pk import settings\n\n\ndef main():\n"
       "    return importlib.import_module(settings.BACKEND).NAME\n")
PATCHES = {
    "monkeypatch": "def test_fast(monkeypatch):\n    monkeypatch.setattr('pk.settings.BACKEND', 'pk.backends.fast')\n"
                   "    assert main() == 'fast'\n",
    "mock": "from unittest import mock\n\n\n@mock.patch('pk.settings.BACKEND', 'pk.backends.fast')\ndef test_fast():\n"
            "    assert main() == 'fast'\n",
}


@pytest.mark.parametrize("patch", sorted(PATCHES))
def test_a_test_patching_in_a_removed_module_goes(tmp_path, patch):
    files = {"pyproject.toml": '[project]\nname = "pk"\nversion = "1.0"\n', "src/pk/__init__.py": "",
             "src/pk/settings.py": "BACKEND = 'pk.backends.slow'\n", "src/pk/app.py": APP,
             "src/pk/backends/__init__.py": "", "src/pk/backends/slow.py": "NAME = 'slow'\n",
             "src/pk/backends/fast.py": "NAME = 'fast'\n", "src/pk/legacy.py": "import pk.backends.fast\n",
             "tests/test_legacy.py": "import pk.legacy\n\n\ndef test_legacy():\n    assert pk.legacy\n",
             "tests/test_app.py": "from pk.app import main\n\n\n" + PATCHES[patch]
                                  + "\n\ndef test_slow():\n    assert main() == 'slow'\n"}
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pk.app:main"]\ntests = ["tests"]\n')
    shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                          cwd=tmp_path / "fork", capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path / "fork/src"), "PATH": "/usr/bin:/bin"})
    assert "1 passed" in done.stdout and "failed" not in done.stdout, done.stdout[-2000:]
