"""Every import form of the index and graph, on a fixture project, through the whole shrink."""

from __future__ import annotations

import pytest

from slimfork.api import analyse, shrink

KEPT = [
    "app", "app.main", "app.sub", "app.sub.deep", "app.sub.deep.leaf_abs", "app.rel1", "app.sub.helper",
    "app.sub.deep.leaf_rel2", "app.rel_target", "app.star", "app.star.impl", "app.star.submod",
    "app.ns.inner.nsmod", "app.in_try", "app.in_except", "app.in_if", "app.in_else", "app.in_function",
    "app.in_class", "app.lazy.by_literal", "app.lazy.by_dunder", "app.lazy.by_string", "app.plugins.alpha",
    "app.plugins.beta",
]
REMOVED = ["app.unused.dead", "app.unused", "app.orphan", "app.star.not_exported"]


@pytest.fixture
def forms(copy_fixture):
    return analyse(copy_fixture("graph", "forms") / "slimfork.toml")


def test_every_import_form_is_followed(forms):
    reached = forms.graph.reached
    missing = [m for m in KEPT if m not in reached]
    assert missing == []
    assert [m for m in REMOVED if m in reached] == []


def test_removed_modules_have_reasons(forms):
    removed = {r.module: r for r in forms.plan.removals if r.kind == "unreachable"}
    assert set(removed) == set(REMOVED)
    assert removed["app.orphan"].reason == "unreachable: no module imports it and no root names it"
    assert "only imported by modules that are not kept (app.orphan)" in removed["app.unused.dead"].reason


def test_namespace_packages_are_modules_without_files(forms):
    ns = forms.graph.modules["app.ns"]
    assert ns.path is None and ns.is_package
    chain = [s.module for s in forms.graph.chain("app.ns.inner.nsmod")]
    assert chain == ["app.main", "app.ns.inner.nsmod"]


def test_conditions_and_scopes_are_recorded(forms):
    summary = forms.index.files["src/app/main.py"]
    by_module = {(e.module, e.names): e for e in summary.imports}
    assert by_module[("app", ("in_except",))].condition == "except ImportError"
    assert by_module[("app", ("in_if",))].condition == "if h.FLAG"
    assert by_module[("app", ("in_else",))].condition == "not (h.FLAG)"
    assert by_module[("app", ("in_function",))].scope == "function"
    assert by_module[("app", ("in_class",))].scope == "class"


def test_dynamic_imports_with_a_prefix_keep_the_prefix_and_are_uncertain(forms):
    uncertain = [u for u in forms.plan.uncertain if u.path == "src/app/main.py"]
    assert len(uncertain) == 1 and "prefix 'app.plugins.'" in uncertain[0].why
    assert uncertain[0].line == 37


def test_broken_files_are_reported_and_kept_never_a_crash(forms):
    summaries = forms.index.files
    assert summaries["src/app/broken_syntax.py"].error.startswith("cannot parse (line 1)")
    assert summaries["src/app/bad_encoding.py"].error.startswith("cannot")
    kept = {k.path: k.reason for k in forms.plan.kept}
    assert "unknown means keep" in kept["src/app/broken_syntax.py"]
    assert any("broken_syntax.py" in w for w in forms.plan.warnings)


def test_shrink_writes_the_fork_without_removed_files(copy_fixture, tmp_path):
    project = copy_fixture("graph", "forms")
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    result = shrink(project / "slimfork.toml", tmp_path / "out")
    fork = tmp_path / "out"
    assert (fork / "src/app/main.py").read_bytes() == (project / "src/app/main.py").read_bytes()
    assert not (fork / "src/app/unused").exists()  # empty folders go too
    assert not (fork / "src/app/orphan.py").exists()
    assert (fork / "src/app/ns/inner/nsmod.py").is_file()
    python_files = len(list(project.rglob("*.py")))
    assert result.data["after"]["by_language"]["Python"]["files"] == python_files - len(REMOVED)
    assert len(list(fork.rglob("*.py"))) == python_files - len(REMOVED)
    # the source is never modified
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


def test_import_module_over_a_literal_sequence_reaches_each_name(tmp_path):
    """``for g in _GROUPS: import_module(f"{__name__}.{g}")`` with ``_GROUPS`` a literal tuple (sglang's
    kernels/ops/__init__.py): each named module is reached and not uncertain; the static imports check reports a
    named module that is missing."""
    from slimfork.verify.checks.imports import ImportsCheck
    from slimfork.verify.tree import TreeLayout

    ops = tmp_path / "pkg" / "ops"
    ops.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (ops / "__init__.py").write_text('from importlib import import_module\n\n_GROUPS = ("act", "mm")\n\n'
                                     'for _group in _GROUPS:\n    import_module(f"{__name__}.{_group}")\n\n'
                                     'for _name in ["extra"]:\n    import_module(f"pkg.ops.{_name}")\n')
    for name in ("act", "mm", "extra", "unused"):
        (ops / f"{name}.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "cli.py").write_text("import pkg.ops\n")
    (tmp_path / "slimfork.toml").write_text('source = "."\npackages = ["pkg"]\nroots = ["pkg.cli"]\n')
    analysis = analyse(tmp_path / "slimfork.toml")
    reached = analysis.graph.reached
    assert {"pkg.ops.act", "pkg.ops.mm", "pkg.ops.extra"} <= set(reached) and "pkg.ops.unused" not in reached
    assert analysis.plan.uncertain == []
    check = ImportsCheck(TreeLayout("", ("pkg",)))
    baseline = check.baseline(tmp_path)
    (ops / "mm.py").unlink()
    result = check.run(tmp_path, baseline)
    assert not result.ok and any("no module pkg.ops.mm" in f for f in result.failures)
