"""A name ``import_module`` gets computed entirely at run time, where the module builds the names elsewhere
(``_LAZY = {f"make_{m[0]}": f"{__name__}.{m}" for m in _MODS}`` then ``import_module(_LAZY[name])`` in a PEP 562
``__getattr__``): every module under the prefixes the module builds is kept (uncertain). Before, only literal strings
kept modules: ``pkg.beta`` left the fork with exit 0 and ``from pkg import make_b`` raised ModuleNotFoundError
(session 38, both `[symbols]` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

BUILT = {
    "fstring_own": "f'{__name__}.{m}'",
    "fstring_literal": "f'pkg.{m}'",
    "concat_own": "__name__ + '.' + m",
}


def _files(value: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "import importlib\n_MODS = ['alpha', 'beta']\n"
                           f"_LAZY = {{f'make_{{m[0]}}': {value} for m in _MODS}}\n\n\n"
                           "def __getattr__(name):\n    try:\n        mod = _LAZY[name]\n    except KeyError:\n"
                           "        raise AttributeError(name) from None\n"
                           "    return getattr(importlib.import_module(mod), name)\n",
        "pkg/alpha.py": "def make_a():\n    return 'a'\n",
        "pkg/beta.py": "def make_b():\n    return 'b'\n",
        "pkg/app.py": "def main():\n    from pkg import make_b\n    return make_b()\n",
    }


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("built", sorted(BUILT))
def test_lazy_table_of_built_names_keeps_the_modules(tmp_path, built, mode):
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, _files(BUILT[built]),
                         f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "b", done.stderr[-2000:]


def test_built_prefix_outside_the_package_keeps_nothing_else(tmp_path):
    files = {**_files("f'pkg.plugins.{m}'"), "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "X = 1\n",
             "pkg/other.py": "Y = 1\n", "tests/test_other.py": "import pkg.other\n"}  # not loose: named by a test
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app"]\ntests = []\n')
                       / "slimfork.toml", jobs=1)
    kept = {k.path for k in analysis.plan.kept}
    assert "pkg/plugins/alpha.py" in kept and "pkg/other.py" not in kept
    assert any(u.path == "pkg/__init__.py" and "pkg.plugins.alpha" in u.kept for u in analysis.plan.uncertain)
