"""``from pkg import *`` imports the submodules ``pkg.__all__`` names. When that ``__all__`` is built at run time
(``for m in ("alpha", "beta"): __all__.append(m)``, ``__all__ += _names()``), every submodule of ``pkg`` is kept:
before, only a literal ``__all__`` named them, so both submodules left the fork with exit 0 and the star import
raised AttributeError (session 39, both `[symbols]` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

BUILDS = {
    "loop_append": "__all__ = []\nfor _m in ('alpha', 'beta'):\n    __all__.append(_m)\n",
    "comprehension": "_MODS = ('alpha', 'beta')\n__all__ = [m for m in _MODS]\n",
    "call": "def _names():\n    return ['alpha', 'beta']\n\n\n__all__ = _names()\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("build", sorted(BUILDS))
def test_star_import_of_a_package_with_a_built_all_keeps_its_submodules(tmp_path, build, mode):
    files = {
        "pkg/__init__.py": BUILDS[build],
        "pkg/alpha.py": "def f():\n    return 'alpha'\n",
        "pkg/beta.py": "def f():\n    return 'beta'\n",
        "pkg/app.py": "from pkg import *\n\n\ndef main():\n    return beta.f()\n",
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "beta", done.stderr[-2000:]


def test_a_literal_all_still_lets_the_other_submodules_go(tmp_path):
    files = {
        "pkg/__init__.py": "__all__ = ['beta']\n",
        "pkg/alpha.py": "def f():\n    return 'alpha'\n",
        "pkg/beta.py": "def f():\n    return 'beta'\n",
        "pkg/app.py": "from pkg import *\n\n\ndef main():\n    return beta.f()\n",
    }
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n[symbols]\n')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg" / "alpha.py").exists()
    assert (fork / "pkg" / "beta.py").exists()
