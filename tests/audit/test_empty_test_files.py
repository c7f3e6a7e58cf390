"""Session 37 (pytorch_cluster ``9a1f781^``, "clean up"): the clean-up deleted ``test/utils/test_perm.py``, an
empty file. A test file that binds no name and imports nothing holds no test (reported at 60); an empty
``__init__.py`` of a test folder, or a test that only runs statements after an import, is not reported so."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "def grid(x):\n    return x\n",
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\n',
    "test/__init__.py": "",
    "test/test_grid.py": "from pkg import grid\n\n\ndef test_grid():\n    assert grid(1) == 1\n",
    "test/utils/test_perm.py": "",
    "test/utils/test_notes.py": "# nothing here yet\n",
    "test/test_smoke.py": "import pkg\nassert pkg.grid(2) == 2\n",
}


def test_an_empty_test_file_holds_no_test(tmp_path):
    result, _ = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    tests = {f.subject: f.confidence for f in result.findings if f.kind == "orphaned-test"}
    assert tests.get("test/utils/test_perm.py") == 60, tests
    assert tests.get("test/utils/test_notes.py") == 60, tests
    assert "test/__init__.py" not in tests and "test/test_smoke.py" not in tests and "test/test_grid.py" not in tests
