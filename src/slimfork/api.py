"""The Python API behind the CLI: load a spec, plan, shrink, explain, count."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from slimfork.graph import ModuleGraph, build_graph
from slimfork.graph.roots import RootModule
from slimfork.index import Index, build_index
from slimfork.plan import Plan
from slimfork.plan.build import build_plan, empty_globs
from slimfork.graph.modules import build_module_map
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
    stages: object | None = None  # slimfork.plan.stages.Stages: folded files, stage reports


def open_source(spec: Spec) -> SourceTree:
    root = resolve_source(spec.source, spec.base_dir, spec.dist)
    kind = spec.dist if spec.source.startswith("pypi:") else "folder"
    return open_tree(root, spec.python_root, spec.packages or None, kind=kind)


def analyse(spec: Spec | str | Path, jobs: int | None = None, fold: bool = True, strict: bool = False) -> Analysis:
    """Read-only: load the spec, index the source, build the graph and the plan; with ``fold``, fold the facts
    into a scratch copy and plan again on the folded code (what ``shrink`` will remove)."""
    import time

    from slimfork.plan.stages import run_stages

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    t0 = time.perf_counter()
    tree = open_source(spec)
    t1 = time.perf_counter()
    index = build_index(tree.root, jobs=jobs, skip=_dropped_path(spec))
    t2 = time.perf_counter()
    mm = build_module_map(tree, index)
    graph = build_graph(tree, index, spec.roots, spec.registries, excluded=_dropped_modules(spec, mm), mm=mm,
                        type_checking=spec.type_checking_imports)
    _check_registries(spec, graph)
    _add_keep_roots(spec, graph)
    plan = build_plan(spec, graph)
    plan.warnings += empty_globs(spec, list(index.files) + index.other_files)  # on the original tree only
    t3 = time.perf_counter()
    analysis = Analysis(spec, tree, index, graph, plan, {"source": t1 - t0, "index": t2 - t1, "plan": t3 - t2})
    if fold:
        from slimfork.progress import progress

        with progress("registries, facts, symbols, kernels and tests: planning on a folded copy"):
            analysis.stages = run_stages(analysis, jobs=jobs)
        analysis.plan, analysis.graph = analysis.stages.plan, analysis.stages.graph
        analysis.timings["stages"] = time.perf_counter() - t3
        _unmatched_facts(analysis, strict)
    return analysis


def _dropped_path(spec: Spec):
    """Files the spec drops are removed whatever they contain: the index need not parse them."""
    if not spec.drop:
        return None
    return lambda rel: first_match(spec.drop, rel) is not None


def _unmatched_facts(analysis: Analysis, strict: bool) -> None:
    """A fact that matched nothing is a warning saying why; with ``strict``, one whose name exists nowhere (a
    likely typo) is an error (exit 2)."""
    report = analysis.stages.fold_report if analysis.stages is not None else None
    if report is None or not report.unmatched:
        return
    if strict:
        report.check_strict()
    for fact in report.unmatched:
        warning = f"{fact.key}: {report.unmatched_message(fact)}"
        if warning not in analysis.plan.warnings:
            analysis.plan.warnings.append(warning)


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


def _dropped_modules(spec: Spec, mm) -> set[str]:
    if not spec.drop:
        return set()
    return {name for name, info in mm.modules.items()
            if info.path and first_match(spec.drop, info.path) is not None}


def _add_keep_roots(spec: Spec, graph: ModuleGraph) -> None:
    """Modules the spec keeps by glob are roots too: what they import must stay."""
    if not spec.keep:
        return
    from slimfork.graph.modglob import first_path_keep, is_module_glob
    from slimfork.graph.roots import glob_modules

    top = graph.mm.top_names
    extra = [RootModule(name, f"kept by keep[{i}] '{spec.keep[i]}'")
             for name, info in sorted(graph.modules.items())
             if info.path and (i := first_path_keep(spec.keep, info.path, top)) is not None]
    for i, pattern in enumerate(spec.keep):
        if is_module_glob(pattern, top):
            extra += [RootModule(name, f"kept by keep[{i}] '{pattern}'")
                      for name in glob_modules(pattern, graph.mm, f"keep[{i}]")]
    graph.roots.extend(extra)
    graph.reach(graph.excluded)


@dataclass
class ShrinkResult:
    analysis: Analysis
    data: dict  # the report (report.json)
    out: Path | None
    report_dir: Path | None
    apply: object | None = None  # the batch engine's ApplyReport


def shrink(spec: Spec | str | Path, out: Path | str | None = None, *, dry_run: bool = False,
           jobs: int | None = None, verify: bool = True, strict: bool = False) -> ShrinkResult:
    """Plan, fold facts, then (unless ``dry_run``) write the fork to ``out`` as a git history of verified batches
    and the reports to ``<out>.report``. ``verify=False`` skips the checks (every planned edit is committed)."""
    import time

    from slimfork.apply.engine import run_batches
    from slimfork.plan.batches import build_batches
    from slimfork.preflight import run_preflight
    from slimfork.report.write import write_reports

    if not isinstance(spec, Spec):
        spec = load_spec(spec)
    # Tools, the verification requirements and the source, before any work: a missing one is exit 2 now.
    ready = run_preflight(spec, write=not dry_run, verify=verify and not dry_run)
    analysis = analyse(spec, jobs=jobs, strict=strict)
    spec, stages = analysis.spec, analysis.stages
    if out is not None:
        spec.out = Path(out).resolve()
    batches = build_batches(analysis, stages)
    if dry_run:
        data = write_reports(analysis, None, None, stages.reports, stages.data)
        return ShrinkResult(analysis, data, None, None)
    checks = []
    if verify:
        from slimfork.verify.build import build_checks

        checks = build_checks(spec, analysis.tree, skipped=ready.skipped)
        from slimfork.testsuite.check import planned_checks

        checks = planned_checks(checks, stages)  # tests the plan removed are meant to be gone
    _claim_output(spec.out)
    t1 = time.perf_counter()
    applied = run_batches(analysis.tree.root, spec.out, batches, checks, jobs=jobs)
    analysis.timings["batches"] = time.perf_counter() - t1
    _restore_in_plan(analysis.plan, applied, stages)
    sections = stages.reports + [("Verified batches", applied.to_markdown())]
    data = write_reports(analysis, spec.out, spec.report_dir, sections, {**stages.data, "batches": applied.to_dict()})
    return ShrinkResult(analysis, data, spec.out, spec.report_dir, applied)


def _claim_output(out: Path) -> None:
    """Refuse to write into a folder slimfork did not create (a fork has its report beside it)."""
    from slimfork.errors import SlimforkError

    ours = (out.with_name(out.name + ".report") / "report.json").exists() or (out / ".git" / "slimfork-journal.json").exists()
    if out.exists() and any(out.iterdir()) and not ours:
        raise SlimforkError(f"output folder {out} exists and was not written by slimfork", key="out",
                            hint="choose another --out or remove that folder")


def _restore_in_plan(plan: Plan, applied, stages=None) -> None:
    """Edits a check needed undone are kept files again, with the failing check as their reason (and no longer
    removals of the plan or of the tests stage)."""
    from slimfork.plan.model import Kept

    restored = {r.path: r for _, r in applied.restored}
    if not restored:
        return
    plan.removals = [r for r in plan.removals if r.path not in restored]
    if getattr(stages, "test_removals", None):
        stages.test_removals = [r for r in stages.test_removals if r.path not in restored]
    for path, r in sorted(restored.items()):
        if r.action == "delete":
            first = r.failures[0] if r.failures else "failed"
            plan.kept.append(Kept(path, None, f"restored: the {r.check} check failed without it ({first})"))


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


def weigh(spec: Spec | str | Path) -> list:
    """Every kept module with the lines that would leave with it (``slimfork.graph.weigh``), heaviest first;
    lines are the fork's (after folding and symbol pruning)."""
    from slimfork.graph.weigh import weigh as weigh_graph

    analysis = analyse(spec)
    graph, stages = analysis.graph, analysis.stages
    contents = dict(getattr(stages, "rewritten", None) or {})
    contents.update(getattr(getattr(stages, "symbols", None), "contents", None) or {})

    def lines_of(module: str) -> int:
        info = graph.modules.get(module)
        if info is None or info.path is None:
            return 0
        if info.path in contents:
            return contents[info.path].count(b"\n")
        summary = analysis.index.files.get(info.path)
        return summary.lines if summary is not None else 0

    return weigh_graph(graph, lines_of)


def stats(path: Path | str):
    from slimfork.report.stats import tree_stats, walk_files

    root = Path(path)
    return tree_stats(root, walk_files(root))
