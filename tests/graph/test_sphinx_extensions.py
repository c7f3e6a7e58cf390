"""A Sphinx extension of the project that ``docs/conf.py`` names in ``extensions`` is imported by the docs build,
which the fork keeps with its ``conf.py``: it is a root (session 30's adversarial round, F1: the fork's docs failed
with ``No module named 'fpkg._sphinxext'``)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "fpkg"\nversion = "1.0"\n',
    "src/fpkg/__init__.py": "",
    "src/fpkg/api.py": "def f():\n    return 1\n",
    "src/fpkg/_sphinxext.py": "def setup(app):\n    return {}\n",
    "src/fpkg/_roles.py": "def setup(app):\n    return {}\n",
    "src/fpkg/_unused.py": "",
    "docs/conf.py": """
        import os
        import sys

        sys.path.insert(0, os.path.abspath("../src"))
        extensions = ["sphinx.ext.autodoc", "fpkg._sphinxext"]
        if os.environ.get("ROLES"):
            pass
        extensions.append("fpkg._roles")
        html_theme = "fpkg._unused_theme"
    """,
}


def test_the_extensions_a_conf_py_names_are_roots(tmp_path):
    spec = 'source = "."\npackages = ["fpkg"]\nroots = ["fpkg.api"]\n'
    analysis = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml")
    roots = {r.module: r.reason for r in analysis.graph.roots}
    assert roots["fpkg._sphinxext"] == ("a Sphinx extension docs/conf.py loads (its `extensions`): the docs build "
                                        "imports it")
    assert "fpkg._roles" in roots
    assert "fpkg._unused" not in analysis.graph.reached
