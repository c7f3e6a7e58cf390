"""A module that puts its own folder on ``sys.path`` and imports a computed bare name from it (FlagGems'
``sys.path.append(dirname(__file__))`` then ``import_module("_" + vendor_name)``): every module the name may mean
stays, listed as uncertain; the audit does not call those vendor backends unreached."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.audit.run import run_audit
from slimfork.index.scans import sys_path_folders
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "vg"\nversion = "1.0"\n',
    "src/vg/__init__.py": "from vg import backend\n",
    "src/vg/backend/__init__.py": """
        import importlib
        import os
        import sys

        sys.path.append(os.path.dirname(__file__))


        def load(vendor):
            return importlib.import_module("_" + vendor).NAME
    """,
    "src/vg/backend/_nvidia/__init__.py": 'NAME = "nvidia"\n',
    "src/vg/backend/_amd/__init__.py": 'NAME = "amd"\n',
    "src/vg/backend/other.py": "X = 1\n",
}


def test_bare_names_on_a_folder_put_on_sys_path_are_kept(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["vg.backend"]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert "src/vg/backend/other.py" in removed
    assert not removed & {"src/vg/backend/_nvidia/__init__.py", "src/vg/backend/_amd/__init__.py"}
    [place] = analysis.graph.uncertain
    assert place.path == "src/vg/backend/__init__.py" and "puts on sys.path" in place.why
    result, _table = run_audit(open_tree(project))
    findings = {f.subject for f in result.findings if f.kind == "unused-file"}
    assert findings == {"src/vg/backend/other.py"}


def test_the_folders_a_module_puts_on_sys_path():
    source = """
import os, sys
from pathlib import Path
sys.path.append(os.path.dirname(__file__))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "vendor"))
sys.path.insert(0, str(Path(__file__).parent.parent / "extra"))
sys.path.append("/abs")


def get_module(name):
    current_file_path = os.path.abspath(__file__)
    current_dir_path = os.path.dirname(current_file_path)
    sys.path.append(current_dir_path)
"""
    assert sys_path_folders(ast.parse(source)) == [(".", 4), ("vendor", 6), ("../extra", 7), (".", 14)]
