"""Names the code finds at run time, outside the imports symbol pruning follows: submodules a star import brings
in through `__all__`, subclasses a metaclass registers, a module imported from a folder put on sys.path, a module
an environment variable picks (its default names a sibling), a handler a package's JSON config names, a plugin
only setup.cfg's entry points declare, `pkgutil.resolve_name(f"pkg.sub.{name}:NAME")` and a sibling file loaded by
`spec_from_file_location` from `join(dirname(__file__), name + ".py")`. The fork must behave as the original."""

from __future__ import annotations

from slimfork.api import analyse
from tests.soundness.soundkit import shrink_and_compare, uncertain_not_kept


def test_the_fork_finds_every_name_the_original_finds(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "runtimenames")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    src = tmp_path / "fork/src/rtnames"
    assert "NAME" in (src / "subs/sub_one.py").read_text()  # sub_one.NAME through `from rtnames.subs import *`
    assert "NAME" in (src / "extra/extra_mod.py").read_text()  # loaded by its path: its names stay
    assert "_XKind" in (src / "metaregistry.py").read_text()
    assert not (src / "subs/sub_three.py").exists()  # __all__ does not name it
    assert not (src / "plugins/unlisted.py").exists()  # no entry point names it


def test_run_time_names_are_edges_or_roots(copy_fixture):
    analysis = analyse(copy_fixture("soundness", "runtimenames") / "slimfork.toml", jobs=1)
    reached = analysis.graph.reached
    assert reached["rtnames.backends.other"].edge.kind == "dynamic"  # a sibling of the env var's default
    assert reached["rtnames.handlers.jsonh"].edge.detail == "the data file src/rtnames/logging.json names it"
    assert reached["rtnames.extra.extra_mod"].edge.kind == "path"  # `import extra_mod`, on sys.path: read whole
    assert reached["rtnames.resolved.b"].edge.kind == "dynamic"  # the resolver's f-string prefix
    assert reached["rtnames.byfile.b"].edge.kind == "path"  # a computed file name beside the loader
    assert any("rtnames.plugins.foo" == r.module and "entry point [rtnames.plugins]" in r.reason
               for r in analysis.graph.roots)
    default = [u for u in analysis.plan.uncertain if "default names" in u.why]
    assert [u.kept for u in default] == [("rtnames.backends", "rtnames.backends.default", "rtnames.backends.other")]
    assert uncertain_not_kept(analysis) == []
