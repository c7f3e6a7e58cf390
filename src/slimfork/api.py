"""The Python API behind the CLI: load a spec, plan, shrink, explain, count."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slimfork.graph import ModuleGraph, build_graph
from slimfork.graph.roots import RootModule
from slimfork.index import Index, build_index
from slimfork.plan import Plan
from slimfork.plan.build import build_plan
from slimfork.plan.globs import first_match
from slimfork.source import SourceTree, open_tree, resolve_source
from slimfork.spec import Spec, load_spec


@dataclass
class Analysis:
    """Everything read-only: the spec, the source tree, its index, the graph and the plan."""

    spec: Spec
    tree: SourceTree
    index: Index
    graph: ModuleGraph
    plan: Plan
    timings: dict[str, float] = field(default_factory=dict)


def open_source(spec: Spec) -> SourceTree:
    root = resolve_source(spec.source, spec.base_dir, spec.dist)
    kind = spec.dist if spec.source.startswith("pypi:") else "folder"
    return open_tree(root, spec.python_root, spec.packages or None, kind=kind)


def analyse(spec: Spec | str | Path, jobs: int | None = None) -> Analysis:
    import time

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    t0 = time.perf_counter()
    tree = open_source(spec)
    t1 = time.perf_counter()
    index = build_index(tree.root, jobs=jobs)
    t2 = time.perf_counter()
    graph = build_graph(tree, index, spec.roots, spec.registries, excluded=_dropped_modules(spec, index, tree))
    _check_registries(spec, graph)
    _add_keep_roots(spec, graph)
    plan = build_plan(spec, graph)
    t3 = time.perf_counter()
    return Analysis(spec, tree, index, graph, plan, {"source": t1 - t0, "index": t2 - t1, "plan": t3 - t2})


def _check_registries(spec: Spec, graph: ModuleGraph) -> None:
    from slimfork.errors import SpecError, did_you_mean
    from slimfork.graph.edges import registry_members

    for i, reg in enumerate(spec.registries):
        info = graph.modules.get(reg.package)
        if info is None or not info.is_package:
            packages = [n for n, m in graph.modules.items() if m.is_package]
            raise SpecError(f"no package '{reg.package}' in the source", key=f"registries[{i}].package",
                            hint=did_you_mean(reg.package, packages, "name the scanned package"))
        if not registry_members(graph.mm, reg):
            raise SpecError(f"keep matches no module of {reg.package}", key=f"registries[{i}].keep",
                            hint="modules: " + ", ".join(m[len(reg.package) + 1:] for m in graph.mm.children.get(reg.package, [])[:12]))


def _dropped_modules(spec: Spec, index: Index, tree: SourceTree) -> set[str]:
    from slimfork.graph.modules import build_module_map

    if not spec.drop:
        return set()
    mm = build_module_map(tree, index)
    return {name for name, info in mm.modules.items()
            if info.path and first_match(spec.drop, info.path) is not None}


def _add_keep_roots(spec: Spec, graph: ModuleGraph) -> None:
    """Modules the spec keeps by glob are roots too: what they import must stay."""
    if not spec.keep:
        return
    extra = [RootModule(name, f"kept by keep[{i}] '{spec.keep[i]}'")
             for name, info in sorted(graph.modules.items())
             if info.path and (i := first_match(spec.keep, info.path)) is not None]
    graph.roots.extend(extra)
    graph.reach(graph.excluded)


@dataclass
class ShrinkResult:
    analysis: Analysis
    data: dict  # the report (report.json)
    out: Path | None
    report_dir: Path | None


def shrink(spec: Spec | str | Path, out: Path | str | None = None, *, dry_run: bool = False,
           jobs: int | None = None) -> ShrinkResult:
    """Plan, then (unless ``dry_run``) write the fork to ``out`` and the reports to ``<out>.report``."""
    import time

    from slimfork.apply.fork import copy_kept, replace_dir, staging_dir, write_metadata
    from slimfork.report.write import write_reports

    analysis = analyse(spec, jobs=jobs)
    spec = analysis.spec
    if out is not None:
        spec.out = Path(out).resolve()
    kept = [k.path for k in analysis.plan.kept]
    kept_modules = {k.module for k in analysis.plan.kept if k.module}
    t0 = time.perf_counter()
    notes: list[str] = []
    if not dry_run:
        staging = staging_dir(spec.out)
        try:
            copy_kept(analysis.tree, kept, staging)
            notes = write_metadata(analysis.tree, staging, kept_modules)
            replace_dir(staging, spec.out)
        except BaseException:
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
            raise
    analysis.plan.warnings.extend(notes)
    analysis.timings["write"] = time.perf_counter() - t0
    data = write_reports(analysis, None if dry_run else spec.out, spec.report_dir if not dry_run else None)
    return ShrinkResult(analysis, data, None if dry_run else spec.out, None if dry_run else spec.report_dir)


@dataclass
class WhyAnswer:
    target: str
    module: str | None
    path: str | None
    kept: bool
    chain: list[dict]  # for a kept target: each step from a root, with file:line
    reason: str  # one line a user can read

    def to_dict(self) -> dict:
        return {"target": self.target, "module": self.module, "path": self.path, "kept": self.kept,
                "reason": self.reason, "chain": self.chain}


def why(spec: Spec | str | Path, target: str) -> WhyAnswer:
    from slimfork.explain import explain

    return explain(analyse(spec), target)


def stats(path: Path | str):
    from slimfork.report.stats import tree_stats, walk_files

    root = Path(path)
    return tree_stats(root, walk_files(root))
