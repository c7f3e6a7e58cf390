"""Code built in an f-string or a ``+`` chain names what it imports: ``exec(f"from {__package__}.runtime import
helper")`` the module's own submodule, ``f"from pkg.tasks.{name} import run"`` every module under ``pkg.tasks``
(uncertain). Before, only literal code and ``.format`` templates were read: ``pkg.runtime`` left the fork with exit
0 and the ``exec`` raised ModuleNotFoundError (session 37, both `[symbols]` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

CODE = {
    "fstring": "exec(f'from {__package__}.runtime import helper', ns)",
    "concat": "exec('from ' + __package__ + '.runtime import helper', ns)",
    "spec": "exec(f'from {__spec__.parent}.runtime import helper', ns)",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("code", sorted(CODE))
def test_code_built_on_the_own_package_keeps_its_import(tmp_path, code, mode):
    files = {
        "pkg/__init__.py": "",
        "pkg/runtime.py": "def helper():\n    return 'helped'\n\n\ndef other():\n    return 0\n",
        "pkg/gone.py": "X = 1\n",
        "pkg/app.py": f"def main():\n    ns = {{}}\n    {CODE[code]}\n    return ns['helper']()\n",
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/gone.py").exists()
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "helped", done.stderr[-2000:]


def test_code_built_with_a_computed_module_keeps_the_literal_start(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/tasks/__init__.py": "",
        "pkg/tasks/a.py": "def run():\n    return 'a'\n",
        "pkg/other.py": "X = 1\n",
        "pkg/app.py": "def main(name):\n    ns = {}\n    exec(f'from pkg.tasks.{name} import run', ns)\n"
                      "    print(f'import {name} failed')\n    return ns['run']()\n",
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app"]\ntests = []\n')
                       / "slimfork.toml", jobs=1)
    kept = {k.path for k in analysis.plan.kept}
    assert "pkg/tasks/a.py" in kept and "pkg/other.py" not in kept
    assert any(u.path == "pkg/app.py" for u in analysis.plan.uncertain)
