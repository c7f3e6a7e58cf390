"""unsloth-zoo (``20ea2625^``): a snapshot with ``pyproject.toml`` and the package ``unsloth_zoo`` but no tests;
the package's modules, which ``unsloth`` imports, were 22 "unreached" files at 60, since a library package was one
its tests import. An installable tree with no tests at all ships the package named like its distribution: its
unreached public modules are at 40 ("public, no internal user"); with tests, a package they do not import is not a
library's."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": "[project]\nname = 'zoo'\nversion = '1'\n[tool.setuptools]\npackages = ['zoo']\n",
    "zoo/__init__.py": "from zoo.core import run\n",
    "zoo/core.py": "def run():\n    return 1\n",
    "zoo/saving.py": "def save(m):\n    return m\n",
    "zoo/_private.py": "X = 1\n",
}


def test_an_untested_library_ships_its_packages(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found["zoo/saving.py"] == 40
    assert found["zoo/_private.py"] >= 60


def test_with_tests_a_package_they_do_not_import_is_no_library(tmp_path):
    files = dict(FILES, **{"tests/test_x.py": "def test_x():\n    assert True\n"})
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found["zoo/saving.py"] >= 60
