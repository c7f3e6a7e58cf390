"""A test passing the name of an entry point the spec drops tests a removed entry: pybtex 0.26.1's
``Text(...).render_as("latex")`` loads ``[pybtex.backends] latex`` from the installed metadata, and with that entry
dropped 43 tests and doctests failed in the fork. Such a test goes, as one naming a removed registry key; a name a
kept entry point also has, or a console script's, decides nothing."""

from __future__ import annotations

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

PYPROJECT = """[project]
name = "pkg"
version = "1.0"

[project.scripts]
pkg-text = "pkg.render:main"

[project.entry-points."pkg.backends"]
latex = "pkg.backends.latex:Backend"
text = "pkg.backends.text:Backend"
"""
RENDER = """from importlib.metadata import entry_points


def render(name):
    return next(iter(entry_points(group="pkg.backends", name=name))).load()().name


def main():
    print(render("text"))
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "pkg/__init__.py": "",
    "pkg/render.py": RENDER,
    "pkg/backends/__init__.py": "",
    "pkg/backends/latex.py": "class Backend:\n    name = 'latex'\n",
    "pkg/backends/text.py": "class Backend:\n    name = 'text'\n",
    "tests/__init__.py": "",
    "tests/test_render.py": "from pkg.render import render\n\n\ndef test_latex():\n"
                            "    assert render('latex') == 'latex'\n\n\ndef test_text():\n"
                            "    assert render('text') == 'text'\n\n\ndef test_command():\n    assert 'pkg-text'\n",
}
SPEC = ('source = "."\nroots = ["pkg.render:render"]\ntests = ["tests"]\n'
        'drop = ["entry-point:pkg.backends:latex"]\n[symbols]\npublic_api = "roots"\npackage_api = false\n')


def test_a_test_naming_a_dropped_entry_point_goes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/backends/latex.py").exists() and (fork / "pkg/backends/text.py").exists()
    tests = (fork / "tests/test_render.py").read_text()
    assert "test_latex" not in tests and "test_text" in tests and "test_command" in tests
    why = [r.reason for r in result.analysis.stages.test_removals if r.symbol == "test_latex"]
    assert why and "an entry point of [pkg.backends] the spec drops" in why[0]
