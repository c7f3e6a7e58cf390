"""aiter (``2f773f826c^``): ``aiter/dist/`` is a subpackage (``aiter.dist.parallel_state``), but folders named
``dist`` and ``build`` were skipped at any depth as build outputs, so 18 tests importing it were reported at 85
("imports aiter.dist.parallel_state, which is not in the tree"). A ``build``/``dist`` folder holding an
``__init__.py`` is source; the build outputs at the root (``build/lib/...``, ``dist/``) are still not read."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.index.build import python_files
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ait', packages=['ait'])\n",
    "ait/__init__.py": "",
    "ait/dist/__init__.py": "",
    "ait/dist/parallel_state.py": "def group():\n    return 1\n",
    "tests/test_dist.py": "from ait.dist.parallel_state import group\n\n\ndef test_group():\n    assert group() == 1\n",
    "build/lib/ait/__init__.py": "",
    "build/lib/ait/old.py": "X = 1\n",
    "dist/make_wheel.py": "print('x')\n",
}


def test_a_package_named_dist_is_source_and_build_outputs_are_not(tmp_path):
    root = write_project(tmp_path, FILES, "")
    py, _other = python_files(root)
    assert "ait/dist/parallel_state.py" in py
    assert not [p for p in py if p.startswith(("build/", "dist/"))]
    result, _table = run_audit(open_tree(root))
    assert not [f for f in result.findings if "not in the tree" in f.message + f.reason]
