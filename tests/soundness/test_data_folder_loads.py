"""Plugins in a package's folders found by a path the module builds from ``__file__`` (session 31's adversarial
round): ``runpy.run_path`` over ``glob(join(HERE, "runplug", "*.py"))`` (a glob as the path's last part),
``exec(compile(...))`` over a glob in a ``for`` header (not a simple statement), and a manifest
``join(HERE, "manplug", "plugins.txt")`` naming ``pkg.manplug.m1`` (a file read in a subfolder: the folder is
read). The fork removed all three folders' modules; each stays, what the plugins import with them."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "dfp"\nversion = "0.1"\n',
    "src/dfp/__init__.py": "",
    "src/dfp/core.py": """
        import glob
        import importlib
        import os
        import runpy

        HERE = os.path.dirname(__file__)


        def run_path_plugins():
            return [runpy.run_path(p)["NAME"] for p in sorted(glob.glob(os.path.join(HERE, "runplug", "*.py")))]


        def manifest_plugins():
            with open(os.path.join(HERE, "manplug", "plugins.txt")) as fh:
                return [importlib.import_module(line.strip()).NAME for line in fh if line.strip()]


        def compiled_plugins():
            out = []
            for p in sorted(glob.glob(os.path.join(HERE, "extra", "*.py"))):
                ns = {}
                with open(p) as fh:
                    exec(compile(fh.read(), p, "exec"), ns)
                out.append(ns["NAME"])
            return out


        def data_file():
            with open(os.path.join(HERE, "..", "dfp", "VERSION.txt")) as fh:
                return fh.read().strip()
    """,
    "src/dfp/runplug/rp1.py": "NAME = 'rp1'\n",
    "src/dfp/manplug/__init__.py": "",
    "src/dfp/manplug/plugins.txt": "dfp.manplug.m1\n",
    "src/dfp/manplug/m1.py": "NAME = 'm1'\n",
    "src/dfp/extra/x1.py": "from dfp import shared\n\nNAME = 'x1' + shared.TAG\n",
    "src/dfp/shared.py": "TAG = '%'\n",
    "src/dfp/VERSION.txt": "1\n",
    "src/dfp/unused.py": "X = 1\n",
    "tests/test_unused.py": "from dfp.unused import X\n",  # named by code that goes: no loose module
}
SPEC = 'source = "."\nroots = ["dfp.core"]\n\n[symbols]\n'
PROBE = ("from dfp import core; print(core.run_path_plugins(), core.manifest_plugins(), core.compiled_plugins(), "
         "core.data_file())")


def test_plugins_found_by_paths_from_the_package_folder_stay(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    runs = [subprocess.run([sys.executable, "-c", PROBE], cwd=side / "src", capture_output=True, text=True)
            for side in (root, fork)]
    assert runs[0].stdout == "['rp1'] ['m1'] ['x1%'] 1\n", runs[0].stderr
    assert (runs[1].returncode, runs[1].stdout) == (0, runs[0].stdout), runs[1].stderr[-2000:]
    assert not (fork / "src/dfp/unused.py").exists()  # "../dfp/VERSION.txt" names no folder of modules
