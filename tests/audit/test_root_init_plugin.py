"""An ``__init__.py`` at the top of the tree (FastVideo's, exporting ``NODE_CLASS_MAPPINGS`` for ComfyUI, which
imports the cloned folder as a package) was "unreached" at 60: nothing in the tree can import it, but a host
application that loads the folder as a plugin runs it. An empty one is still reported as it was."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='px', packages=['px'])\n",
    "px/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from px import f\n\n\ndef test_f():\n    assert f()\n",
    "__init__.py": "from .px import f\nNODE_CLASS_MAPPINGS = {'f': f}\n",
}


def test_a_root_init_is_a_plugin_entry(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("__init__.py") == 30, found


def test_an_empty_root_init_is_reported_as_before(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, {**FILES, "__init__.py": ""}, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("__init__.py", 0) >= 60, found
