"""A package outside the top-level packages (``benchmarks/fvd/`` with an ``__init__.py`` beside a namespace folder
``benchmarks/``) whose script imports one module, which imports its siblings relatively (``from .video_utils
import load``): the relative imports named nothing, since the graph resolved only names of the top-level
packages, so the siblings were "unreached" at 60 while the module the script imports was a script's (30)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='vid', packages=['vid'])\n",
    "vid/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from vid import f\n\n\ndef test_f():\n    assert f()\n",
    "benchmarks/fvd/__init__.py": "from .fvd import score\n",
    "benchmarks/fvd/run_fvd.py": "from benchmarks.fvd.fvd import score\n\nif __name__ == '__main__':\n    score()\n",
    "benchmarks/fvd/fvd.py": "from .video_utils import load\n\n\ndef score():\n    return load()\n",
    "benchmarks/fvd/video_utils.py": "def load():\n    return 1\n",
}


def test_relative_imports_of_a_script_package_reach_its_siblings(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert not [s for s, c in found.items() if c >= 50], found
    assert found.get("benchmarks/", found.get("benchmarks/fvd/video_utils.py")) == 30
