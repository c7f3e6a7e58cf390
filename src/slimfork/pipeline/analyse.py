"""Analyse: load the spec, open the source, index it, build the import graph from the roots and plan; then, unless
told not to, run the planning stages on a folded copy (pipeline/stages.py). Read-only."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.decisions import Plan
from slimfork.errors import Stale
from slimfork.globs import first_match, first_path_keep, is_module_glob
from slimfork.graph import ModuleGraph, build_graph
from slimfork.graph.modules import build_module_map
from slimfork.graph.public_api import outside_callers
from slimfork.graph.roots import RootModule, glob_modules
from slimfork.index import Index, build_index
from slimfork.pipeline.stages import run_stages
from slimfork.pipeline.stale import settle, stale_after, stale_before, without_stale
from slimfork.plan.build import build_plan
from slimfork.plan.stages import Stages
from slimfork.progress import progress
from slimfork.source import SourceTree, open_tree, resolve_source
from slimfork.source.entry_drops import apply_drops
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
    stages: Stages | None = None  # what the planning stages decided (None: analysed without them)
    stale: list[Stale] = field(default_factory=list)  # entries that match nothing (warnings: stale allowed)


def open_source(spec: Spec) -> SourceTree:
    root = resolve_source(spec.source, spec.base_dir, spec.dist)
    kind = spec.dist if spec.source.startswith("pypi:") else "folder"
    return apply_drops(open_tree(root, spec.python_root, spec.packages or None, kind=kind), spec.drop)


def analyse(spec: Spec | str | Path, jobs: int | None = None, fold: bool = True, strict: bool = False,
            allow_stale: bool | None = None, precheck=None) -> Analysis:
    """Read-only: load the spec, index the source, build the graph and the plan; with ``fold``, fold the facts
    into a scratch copy and plan again on the folded code (what ``shrink`` will remove). A spec entry that matches
    nothing in the source stops with exit 2 (``StaleError``) unless ``allow_stale`` (default: the spec's
    ``allow_stale``; ``strict`` overrides the spec) makes it a warning (pipeline/stale.py). ``precheck(analysis)``
    runs on the first plan, before the stages: a command's own input (``why``'s TARGET) fails before that work."""
    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    allow = (spec.allow_stale and not strict) if allow_stale is None else allow_stale
    t0 = time.perf_counter()
    tree = open_source(spec)
    t1 = time.perf_counter()
    index = build_index(tree.root, jobs=jobs, skip=_dropped_path(spec))
    t2 = time.perf_counter()
    mm = build_module_map(tree, index)
    stale = stale_before(spec, tree, index, mm)
    warnings = settle(stale, allow)
    spec = without_stale(spec, stale) if stale else spec
    graph = build_graph(tree, index, spec.roots, spec.registries, excluded=_dropped_modules(spec, mm), mm=mm,
                        type_checking=spec.type_checking_imports, outside_imports=tuple(spec.outside_imports),
                        declared=spec.registry_packages,
                        api=outside_callers(spec.roots, mm, spec.sections.get("symbols")))
    _add_keep_roots(spec, graph, {e.key for e in stale})
    plan = build_plan(spec, graph)
    plan.warnings += warnings
    t3 = time.perf_counter()
    analysis = Analysis(spec, tree, index, graph, plan, {"source": t1 - t0, "index": t2 - t1, "plan": t3 - t2},
                        stale=stale)
    if precheck is not None:
        precheck(analysis)
    if fold:
        with progress("registries, facts, symbols, kernels and tests: planning on a folded copy"):
            analysis.stages = run_stages(analysis, jobs=jobs)
        analysis.plan, analysis.graph = analysis.stages.plan, analysis.stages.graph
        analysis.timings["stages"] = time.perf_counter() - t3
        later, named = stale_after(analysis.stages, tree.root, list(index.files))
        analysis.plan.warnings += [w for w in settle(later, allow) + named if w not in analysis.plan.warnings]
        analysis.stale += later
        _unmatched_facts(analysis)
    return analysis


def _dropped_path(spec: Spec):
    """Files the spec drops are removed whatever they contain: the index need not parse them."""
    if not spec.drop:
        return None
    return lambda rel: first_match(spec.drop, rel) is not None


def _unmatched_facts(analysis: Analysis) -> None:
    """A fact that matched nothing though its name exists (kept code never uses it the way it says) is a warning
    saying why; one whose name exists nowhere is stale (pipeline/stale.py)."""
    report = analysis.stages.fold_report if analysis.stages is not None else None
    if report is None or not report.unmatched:
        return
    typos = {f.key for f in report.typos}
    for fact in report.unmatched:
        warning = f"{fact.key}: {report.unmatched_message(fact)}"
        if fact.key not in typos and warning not in analysis.plan.warnings:
            analysis.plan.warnings.append(warning)


def _dropped_modules(spec: Spec, mm) -> set[str]:
    if not spec.drop:
        return set()
    return {name for name, info in mm.modules.items()
            if info.path and first_match(spec.drop, info.path) is not None}


def _add_keep_roots(spec: Spec, graph: ModuleGraph, stale: set[str]) -> None:
    """Modules the spec keeps by glob are roots too: what they import must stay (a stale glob keeps nothing)."""
    if not spec.keep:
        return
    top = graph.mm.top_names
    extra = [RootModule(name, f"kept by keep[{i}] '{spec.keep[i]}'")
             for name, info in sorted(graph.modules.items())
             if info.path and (i := first_path_keep(spec.keep, info.path, top)) is not None]
    for i, pattern in enumerate(spec.keep):
        if is_module_glob(pattern, top) and f"keep[{i}]" not in stale:
            extra += [RootModule(name, f"kept by keep[{i}] '{pattern}'")
                      for name in glob_modules(pattern, graph.mm, f"keep[{i}]")]
    graph.roots.extend(extra)
    graph.reach(graph.excluded)
