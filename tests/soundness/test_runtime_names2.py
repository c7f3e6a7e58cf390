"""More names only run time sees (session 27's adversarial projects): a module's namespace read through
``__dict__`` and a frame's ``f_globals``, an import inside an ``exec`` string, ``python -c``/``-m`` in a command
line held in a string, a JSON file in a data folder without ``__init__.py``, a CSV file and a pickle naming code,
logging's ``ext://`` prefix, a module imported into a class body and read through ``self``, a data-only
subpackage read with ``pkgutil.get_data``, and console scripts a ``setup.py`` builds with a comprehension."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.index.dynamic_imports import scan_calls
from slimfork.index.summary import ModuleSummary
from slimfork.testsuite.scan import scan_test_file
from tests.soundness.soundkit import shrink_and_compare


def test_the_fork_finds_every_name_the_original_finds(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "runtimenames2")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    src = tmp_path / "fork/src/rt2"
    assert "op_b" in (src / "dictops.py").read_text()  # read through __dict__: every name stays
    assert (src / "tpl/__init__.py").exists()


def test_console_scripts_a_comprehension_builds_are_roots(copy_fixture):
    analysis = analyse(copy_fixture("soundness", "runtimenames2") / "slimfork.toml", jobs=1)
    roots = {r.module: r.reason for r in analysis.graph.roots}
    assert roots["rt2.cli_a"] == ("console script rt2-a = rt2.cli_a:main (declared in the build metadata, which "
                                  "the fork keeps)")
    assert "rt2.cli_b" in roots and "rt2.cli_c" not in analysis.graph.reached


def test_lazy_loader_attach_imports_its_submodules_relative_to_the_package():
    summary = ModuleSummary("", 3)
    scan_calls(ast.parse("import lazy_loader as lazy\n"
                         "__getattr__, __dir__, __all__ = lazy.attach(__name__, submodules=['sub'],"
                         " submod_attrs={'funcs': ['f']})\n"
                         "g, d, a = lazy.attach_stub(__name__, __file__)\n"), summary)
    assert [(d.target, d.package) for d in summary.dynamic_imports] == [
        (".sub", "{__name__}"), (".funcs", "{__name__}"), (None, "{__name__}")]  # a stub: the whole package


def test_every_form_of_patching_names_what_it_patches():
    source = b"""
from unittest import mock
from pkg import util


def test_forms(monkeypatch):
    monkeypatch.delattr("pkg.util.helper_x")
    monkeypatch.delattr(util, "helper_y")
    mock.patch.dict("pkg.util._CACHE", {})
    mock.patch.multiple("pkg.util", _RETRIES=0)
    mock.patch.multiple(util, _LIMIT=0)
    mock.patch(target="pkg.util.helper_z")
"""
    unit = scan_test_file("tests/test_util.py", source, {"pkg"}).units["test_forms"]
    assert {u.dotted for u in unit.uses} >= {"pkg.util.helper_x", "pkg.util.helper_y", "pkg.util._CACHE",
                                              "pkg.util._RETRIES", "pkg.util._LIMIT", "pkg.util.helper_z"}
