"""A symbolic link whose target is gone (keops ``7b3f1d75^``: ``rkeops/inst/include/keops/keops_includes.h ->
../../../../keops/keops_includes.h`` after ``keops/`` was moved) stopped the audit with a FileNotFoundError: the
index listed it as a file, and reading it failed. Such a link is no file of the tree."""

from __future__ import annotations

import os

from slimfork.audit.run import run_audit
from slimfork.index.build import python_files
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='lk', packages=['lk'])\n",
    "lk/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from lk import f\n\n\ndef test_f():\n    assert f()\n",
    "csrc/kernel.cu": "__global__ void k() {}\n",
}


def test_dangling_links_are_no_files(tmp_path):
    root = write_project(tmp_path, FILES, "")
    os.symlink("../gone/includes.h", root / "csrc" / "includes.h")
    os.symlink("gone.py", root / "lk" / "shim.py")
    py, other = python_files(root)
    assert "lk/shim.py" not in py and "csrc/includes.h" not in other and "csrc/kernel.cu" in other
    result, _table = run_audit(open_tree(root))
    assert not [f for f in result.findings if "shim" in f.subject or "includes.h" in f.subject]
