"""A relative module name handed to a loader beside the package it resolves against, where the package is no own
name of the caller: ``load(".fast", "pkg.backends")`` (literal), ``load(".fast", package=f"{__package__}.backends")``
(an own subpackage), ``Loader("pkg.backends").load(".fast")`` (the object's own argument),
``make_loader(__package__)(".backends.fast")`` (a factory's), with ``def load(name, package=None): return
importlib.import_module(name, package)`` in another module. Before (session 44) the loader's import counted as
computed entirely (loose modules only): ``backends/fast.py``, imported otherwise only by code no root reaches, left
the fork and ``main()`` raised ModuleNotFoundError, exit 0, in both ``[symbols]`` modes."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

LOADER = ("import importlib\n\n\ndef load(name, package=None):\n    return importlib.import_module(name, package)\n\n\n"
          "class Loader:\n    def __init__(self, package=None):\n        self.package = package\n\n"
          "    def load(self, name):\n        return importlib.import_module(name, self.package)\n\n\n"
          "def make_loader(package):\n    def load(name):\n        return importlib.import_module(name, package)\n"
          "    return load\n")
CALLERS = {
    "literal": "from pkg.loader import load\n\n\ndef main():\n    return load('.fast', 'pkg.backends').NAME\n",
    "keywords": "from pkg import loader\n\n\ndef main():\n"
                "    return loader.load(name='.fast', package='pkg.backends').NAME\n",
    "own_subpackage": "from pkg.loader import load\n\n\ndef main():\n"
                      "    return load('.fast', package=f'{__package__}.backends').NAME\n",
    "constructor": "from pkg.loader import Loader\n\n\ndef main():\n"
                   "    return Loader('pkg.backends').load('.fast').NAME\n",
    "factory": "from pkg.loader import make_loader\n\n\ndef main():\n"
               "    return make_loader(__package__)('.backends.fast').NAME\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("caller", sorted(CALLERS))
def test_a_relative_name_beside_its_package_keeps_the_module(tmp_path, caller, mode):
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/loader.py": LOADER, "pkg/app.py": CALLERS[caller],
             "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]


def test_a_literal_that_names_no_package_keeps_nothing(tmp_path):
    """``fmt(".json", "data.files")``: the pair names no module of the project; ``legacy`` still leaves."""
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/app.py": "def fmt(a, b):\n    return b + a\n\n\ndef main():\n    return fmt('.json', 'data.files')\n",
             "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n"}
    fork, done = shrink_and_run_main(tmp_path, files, "default")
    assert done.stdout.strip() == "data.files.json", done.stderr[-2000:]
    assert not (fork / "pkg" / "legacy.py").exists()
    assert not (fork / "pkg" / "backends" / "fast.py").exists()
