"""Session 34 (exllamav3 ``ae0514a^``): ``tests/test_quant_fn.py`` imports ``from util import assert_close_mr``;
pytest's default (prepend) import mode puts ``tests/`` first on ``sys.path``, so that is ``tests/util.py``, though
the tree also has a top-level ``util/`` package. The import was resolved to ``util/`` alone and ``tests/util.py``
was reported unreached at 60. A bare import a folder pytest puts on ``sys.path`` answers is an edge to that module
also when the tree answers it elsewhere."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": 'from setuptools import setup\n\nsetup(name="fastk", packages=["fastk"])\n',
    "fastk/__init__.py": "def run(x):\n    return x\n",
    "util/__init__.py": "",
    "util/convert.py": "def convert(x):\n    return x\n",
    "tests/util.py": "def assert_close(a, b):\n    assert a == b\n",
    "tests/test_run.py": """
        from fastk import run
        from util import assert_close


        def test_run():
            assert_close(run(1), 1)
    """,
}


def test_a_helper_beside_the_test_shadows_a_top_level_package(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert "tests/util.py" not in found, found
