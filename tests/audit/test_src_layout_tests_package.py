"""A ``tests`` package at the source's top beside ``src/`` (webargs 8.7.1): its absolute imports
(``from tests.apps.aiohttp_app import create_app``) resolve to its files, so its helpers are reached from the
tests (they were "unreached" at 60 and 70 under ``audit --spec``), and a test folder's helper is no code under
test (a test importing only helpers is no orphan)."""

from __future__ import annotations

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree
from slimfork.spec.model import Root


def test_absolute_imports_of_a_top_level_tests_package(tmp_path):
    files = {"src/pkg/__init__.py": "X = 1\n", "tests/__init__.py": "", "tests/apps/__init__.py": "",
             "tests/apps/a.py": "def f():\n    pass\n", "tests/apps/b.py": "def g():\n    pass\n",
             "tests/test_x.py": "from tests.apps.a import f\nimport pkg\n\ndef test_x():\n    f()\n",
             "tests/test_y.py": "from .apps.b import g\n\ndef test_y():\n    g()\n",
             "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\n'}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    tree = open_tree(tmp_path)
    result, _ = run_audit(tree, roots=[Root("module", "pkg", text="pkg")], tests=["tests"],
                          options=AuditOptions(kinds={"unused-file", "orphaned-test"}))
    assert [(f.kind, f.subject) for f in result.findings] == []
