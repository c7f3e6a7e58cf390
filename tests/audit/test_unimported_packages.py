"""A research repository builds no distribution at its root (AQLM ``d0f6ed4^``: a ``pyproject.toml`` of tool
settings only, scripts such as ``main.py`` importing ``src``): its top-level packages were roots all the same, so
``cpp_kernel/`` (its ``__init__.py`` compiling a SWIG module with its own ``setup.py`` from ``lib.cc``), which no
Python file imports, only a notebook, was live and 1 of its 5 files reported. Such a package is no root: what only
notebooks import is run by hand (30), what nothing imports is unreached (here a folder holding a script: 30)."""

from __future__ import annotations

import json

from slimfork.audit.layout import audit_tree
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

NOTEBOOK = json.dumps({"cells": [{"cell_type": "code", "source": ["import ckern\n", "ckern.triple_for(1)\n"]}]})
FILES = {
    "pyproject.toml": "[tool.black]\nline-length = 120\n",
    "main.py": "from src.aq import quantize\n\nif __name__ == '__main__':\n    quantize()\n",
    "src/__init__.py": "",
    "src/aq.py": "def quantize():\n    return 1\n",
    "ckern/__init__.py": "import setuptools.sandbox\nsetuptools.sandbox.run_setup('setup.py', ['build'])\n"
                         "from . import _bindings\n\n\ndef triple_for(x):\n    return _bindings.triple_for(x)\n",
    "ckern/setup.py": "from distutils.core import setup, Extension\n"
                      "setup(name='_bindings', ext_modules=[Extension('_bindings', ['lib.cc'])])\n",
    "ckern/lib.cc": '#include "lib.h"\nvoid triple_for(float* x) {}\n',
    "ckern/lib.h": "void triple_for(float* x);\n",
    "demo.ipynb": NOTEBOOK,
}


def _found(result) -> dict[str, int]:
    return {f.path: f.confidence for f in result.findings if f.kind in ("unused-file", "unused-kernel")}


def test_a_package_only_a_notebook_imports_is_run_by_hand(tmp_path):
    found = _found(run_audit(open_tree(write_project(tmp_path, FILES, "")))[0])
    for path in ("ckern/__init__.py", "ckern/setup.py", "ckern/lib.cc", "ckern/lib.h"):
        assert found.get(path, found.get("ckern/")) == 30, (path, found)
    assert "src/__init__.py" not in found and "src/" not in found, found  # main.py imports src


def test_a_package_nothing_imports_is_reported(tmp_path):
    files = {k: v for k, v in FILES.items() if k != "demo.ipynb"}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert "ckern/" in found and "notebook" not in found["ckern/"].reason, found  # its setup.py is a script: 30


def test_the_packages_of_a_distribution_stay_roots(tmp_path):
    files = {**FILES, "setup.py": "from setuptools import setup\nsetup(name='aq', packages=['src', 'ckern'])\n"}
    found = _found(run_audit(open_tree(write_project(tmp_path, files, "")))[0])
    assert not any(p.startswith("ckern/") and c >= 30 and p != "ckern/setup.py" for p, c in found.items()), found


def test_the_packages_of_a_bindings_distribution_stay_roots(tmp_path):
    files = {f"python/{k}": v for k, v in FILES.items() if k.startswith(("src/", "ckern/", "main.py"))}
    files["python/setup.py"] = "from setuptools import setup\nsetup(name='aq', packages=['src', 'ckern'])\n"
    files["CMakeLists.txt"] = "project(Aq)\n"
    tree = audit_tree(write_project(tmp_path, files, ""))
    assert tree.python_root.name == "python"
    found = _found(run_audit(tree)[0])
    assert not any(p.startswith("python/ckern/") and c >= 30 and not p.endswith("setup.py")
                   for p, c in found.items()), found
