"""Fixture projects under a test folder that the tests name by a string (pdm-backend 2.4.5's
``tests/fixtures/projects/*``: ``FIXTURES / "projects/demo-package-with-tests"``, or
``parametrize("name", ["demo-pep420-package"])`` joined to a path) are test data the tests read or build, not code
they import: reported at a low confidence with the string that names them (they were "unreached" at 70). A folder
no test names, and a name only the data itself mentions, stay as before."""

from __future__ import annotations

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree
from slimfork.spec.model import Root


def _audit(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _ = run_audit(open_tree(tmp_path), roots=[Root("module", "pkg", text="pkg")], tests=["tests"],
                          options=AuditOptions(kinds={"unused-file"}))
    return {f.subject: f for f in result.findings}


def test_fixture_projects_the_tests_name_are_test_data(tmp_path):
    found = _audit(tmp_path, {
        "pkg/__init__.py": "X = 1\n",
        "tests/__init__.py": "from pathlib import Path\nFIXTURES = Path(__file__).parent / 'fixtures'\n",
        "tests/test_build.py": "import pytest\nimport pkg\nfrom tests import FIXTURES\n\n"
                               "def test_path():\n    assert (FIXTURES / 'projects/demo-with-tests').is_dir()\n\n"
                               "@pytest.mark.parametrize('name', ['demo-pep420'])\n"
                               "def test_name(name):\n    assert (FIXTURES / 'projects' / name).is_dir()\n",
        "tests/fixtures/projects/demo-with-tests/mypkg/__init__.py": "A = 1\n",
        "tests/fixtures/projects/demo-with-tests/mypkg/core.py": "B = 2\n",
        "tests/fixtures/projects/demo-pep420/ns/mod.py": "from my_helper import C\n",
        "tests/fixtures/projects/demo-pep420/ns/my_helper.py": "C = 'demo-unnamed'\n",
        "tests/fixtures/projects/demo-unnamed/lib/__init__.py": "D = 4\n",
    })
    named = found["tests/fixtures/projects/demo-with-tests/"]
    assert named.confidence == 30 and '"projects/demo-with-tests" at tests/test_build.py:6' in named.reason
    pep420 = found["tests/fixtures/projects/demo-pep420/"]
    assert pep420.confidence == 30 and '"demo-pep420" at tests/test_build.py:8' in pep420.reason
    # only a file of the data names it: nothing the tests read, as unknown as before
    unnamed = found["tests/fixtures/projects/demo-unnamed/"]
    assert unnamed.confidence == 70 and "test data" not in unnamed.reason
