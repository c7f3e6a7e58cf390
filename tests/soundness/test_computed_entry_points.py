"""A ``setup.py`` that builds its entry points at run time (``"%s = pkg.plugins.%s:load" % (n, n)`` over
``os.listdir``): every module the template may name is a root, with every name it defines. Before, the plugins
left the fork with exit 0 and the installed fork's entry-point group was empty (session 37, both modes)."""

from __future__ import annotations

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

SETUP = """
import os
from setuptools import setup, find_packages
NAMES = sorted(f[:-3] for f in os.listdir('pkg/plugins') if f.endswith('.py') and not f.startswith('_'))
setup(name='pkg', version='1.0', packages=find_packages(),
      entry_points={'pkg.plugins': ['%s = pkg.plugins.%s:load' % (n, n) for n in NAMES]})
"""


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_entry_points_built_by_setup_py_keep_their_plugins(tmp_path, mode):
    files = {
        "setup.py": SETUP,
        "pkg/__init__.py": "",
        "pkg/app.py": "def main():\n    return 1\n",
        "pkg/gone.py": "X = 1\n",
        "pkg/plugins/__init__.py": "",
        "pkg/plugins/csv.py": "def load():\n    return 'csv'\n",
        "pkg/plugins/xml.py": "def load():\n    return 'xml'\n",
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/gone.py").exists()
    for name in ("csv", "xml"):
        assert "def load" in (fork / f"pkg/plugins/{name}.py").read_text()
