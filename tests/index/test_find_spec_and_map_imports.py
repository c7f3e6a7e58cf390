"""Two more ways kept code loads a module by a computed name (session 40): ``importlib.util.find_spec(name)`` then
``spec.loader.exec_module(module_from_spec(spec))``, and ``map(importlib.import_module, [f"{__package__}.plugins.{n}"
for n in NAMES])``. Neither was read as an import: the plugins left the fork (ModuleNotFoundError, exit 0, both
``[symbols]`` modes) once the only module that imported them outright was removed. A ``find_spec`` of a name
computed entirely at run time (a meta-path finder's ``fullname``, an optional dependency's probe) keeps nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

PLUGINS = {"pkg/__init__.py": "", "pkg/plugins/__init__.py": "", "pkg/plugins/alpha.py": "NAME = 'alpha'\n",
           "pkg/plugins/beta.py": "NAME = 'beta'\n",
           "pkg/legacy.py": "from .plugins import alpha, beta\n",  # not loose: a module no root reaches imports them
           "tests/test_legacy.py": "from pkg import legacy\n"}
APPS = {
    "find_spec": "import importlib.util\nNAMES = ['alpha', 'beta']\n\n\ndef load(n):\n"
                 "    spec = importlib.util.find_spec(f'{__package__}.plugins.{n}')\n"
                 "    m = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(m)\n    return m\n\n\n"
                 "def main():\n    return [load(n).NAME for n in NAMES]\n",
    "map": "import importlib\nNAMES = ['alpha', 'beta']\n\n\ndef main():\n"
           "    mods = map(importlib.import_module, [f'{__package__}.plugins.{n}' for n in NAMES])\n"
           "    return [m.NAME for m in mods]\n",
    "map_alias": "from importlib import import_module as im\nNAMES = ['alpha', 'beta']\n\n\ndef main():\n"
                 "    return [m.NAME for m in map(im, ('pkg.plugins.' + n for n in NAMES))]\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(APPS))
def test_the_plugins_stay(tmp_path, shape, mode):
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, {**PLUGINS, "pkg/app.py": APPS[shape]},
                         f'source = "."\nroots = ["pkg.app:main"]\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "['alpha', 'beta']", done.stderr[-2000:]


def test_a_find_spec_of_a_name_computed_entirely_at_run_time_keeps_nothing(tmp_path):
    app = ("import importlib.util, sys\n\n\ndef main():\n    return importlib.util.find_spec(sys.argv[1]) is not None\n")
    root = write_project(tmp_path, {**PLUGINS, "pkg/app.py": app}, 'source = "."\nroots = ["pkg.app:main"]\n')
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pkg/plugins/alpha.py" not in {k.path for k in analysis.plan.kept}
    assert not [u for u in analysis.plan.uncertain if u.path == "pkg/app.py"]
