"""Session 34 (quack ``8288fc6^``): the package ships a pytest plugin (``quack/testing/pytest_plugin.py``, with
``pytest_addoption``/``pytest_configure`` hooks, which users name in their ``pytest_plugins``) and a tracing helper
beside it; only the project's tests use them, so ``quack/testing/`` was reported at 50, "remove with it:
tests/conftest.py ...". A test-only module that defines pytest hooks, and the test-only files beside it, are test
support (30); other test-only files stay at 50."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "fastk"\nversion = "1"\n',
    "fastk/__init__.py": "from fastk.gemm import gemm\n",
    "fastk/gemm.py": "def gemm(a, b):\n    return a\n",
    "fastk/old_gemm.py": "def old_gemm(a, b):\n    return b\n",
    "fastk/testing/__init__.py": '"""Add pytest_plugins = ["fastk.testing.pytest_plugin"] to your conftest."""\n',
    "fastk/testing/pytest_plugin.py": """
        def pytest_addoption(parser):
            parser.addoption("--async-compile", action="store_true")


        def pytest_configure(config):
            config.addinivalue_line("markers", "slow: slow")
    """,
    "fastk/testing/trace.py": "def run_traced(fn):\n    return fn()\n",
    "tests/conftest.py": 'pytest_plugins = ["fastk.testing.pytest_plugin"]\n',
    "tests/test_gemm.py": """
        from fastk import gemm
        from fastk.old_gemm import old_gemm
        from fastk.testing.trace import run_traced


        def test_gemm():
            assert run_traced(lambda: gemm(1, 2)) == 1 and old_gemm(1, 2) == 2
    """,
}


def test_a_shipped_pytest_plugin_is_test_support(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    testing = found.get("fastk/testing/") or found.get("fastk/testing/pytest_plugin.py")
    assert testing is not None and testing.confidence == 30
    assert found["fastk/old_gemm.py"].confidence >= 40
