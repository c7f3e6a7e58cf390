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
    uncertain = {u.line: u for u in analysis.plan.uncertain}
    assert set(uncertain) == {5, 33}, uncertain  # ("." + name) in dyn/__init__.py; package=<argument>
    assert uncertain[33].kept == ("lazypkg.far.beta",)
    assert set(uncertain[5].kept) == {"lazypkg.dyn.alpha", "lazypkg.dyn.deep", "lazypkg.dyn.deep.gamma"}
    assert uncertain_not_kept(analysis) == []
