"""Class 1 of issue 25: modules named by relative strings (`import_module(".x", __name__)`, a dict or tuple of
relative names, `package=__package__`, a literal prefix `"." + name`, `__import__(..., level=1)`) are kept."""

from __future__ import annotations

from slimfork.api import analyse
from tests.soundness.soundkit import shrink_and_compare, uncertain_not_kept


def test_the_fork_loads_every_module_a_relative_string_names(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "relstrings")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    assert not (tmp_path / "fork/src/lazypkg/unused.py").exists()  # what no string can name still goes


def test_relative_strings_are_edges_and_only_the_unresolved_one_is_uncertain(copy_fixture):
    analysis = analyse(copy_fixture("soundness", "relstrings") / "slimfork.toml", jobs=1)
    reached = analysis.graph.reached
    for name in ("heavy", "codecs.base", "extras.one", "extras.two", "oldstyle", "direct", "tupled",
                 "dyn.alpha", "dyn.deep.gamma"):
        assert reached[f"lazypkg.{name}"].edge.kind == "dynamic", name
    assert "lazypkg.unused" not in reached
    # ("." + name) in dyn/__init__.py, import_module(name, __name__) in far/__init__.py; package=<argument>; a
    # parameter that hides the module-level tuple of the same name
    assert {(u.path.rsplit("/", 2)[-2:][0], u.line) for u in analysis.plan.uncertain} == \
        {("dyn", 5), ("far", 5), ("lazypkg", 33), ("lazypkg", 37)}
    uncertain = {(u.path.rsplit("/", 2)[-2], u.line): u for u in analysis.plan.uncertain}
    assert uncertain[("lazypkg", 33)].kept == ("lazypkg.far.beta",)
    assert uncertain[("far", 5)].kept == ("lazypkg.far", "lazypkg.far.beta")
    assert "entirely at run time" in uncertain[("lazypkg", 37)].why
    assert set(uncertain[("dyn", 5)].kept) == {"lazypkg.dyn.alpha", "lazypkg.dyn.deep", "lazypkg.dyn.deep.gamma"}
    assert uncertain_not_kept(analysis) == []
