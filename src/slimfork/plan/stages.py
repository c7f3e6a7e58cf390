"""The planning stages that rewrite code: fold facts into a scratch copy of the source, then plan again on the
folded tree (modules that only deleted branches imported become unreachable), then plan kernel sources.

Nothing here touches the source or the output: the scratch copy lives in a temporary folder, and what the stages
decide comes back as data (the folded files' new contents, the new plan, the stage reports).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.graph import build_graph
from slimfork.index import build_index
from slimfork.plan.build import build_plan
from slimfork.plan.model import Plan


@dataclass
class Stages:
    plan: Plan  # the plan after folding (what the batches remove)
    graph: object  # the graph of the folded tree
    rewritten: dict[str, bytes] = field(default_factory=dict)  # rel path -> new content (folded files)
    rewrite_reasons: dict[str, str] = field(default_factory=dict)
    fold_report: object | None = None
    kernel_fold: object | None = None
    kernel_plan: object | None = None
    reports: list[tuple[str, str]] = field(default_factory=list)  # (title, markdown) for report.md
    data: dict = field(default_factory=dict)  # extra top-level fields of report.json


def run_stages(analysis, jobs: int | None = None) -> Stages:
    spec, tree = analysis.spec, analysis.tree
    facts = spec.sections.get("facts")
    if facts is None or not (facts.facts or facts.preprocessor_raw):
        return Stages(analysis.plan, analysis.graph)
    scratch = Path(tempfile.mkdtemp(prefix="slimfork-stages-"))
    try:
        return _run(analysis, facts, scratch, jobs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(analysis, facts, scratch: Path, jobs: int | None) -> Stages:
    from slimfork.rewrite import fold_tree

    spec, tree, index = analysis.spec, analysis.tree, analysis.index
    for rel in index.files:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tree.root / rel, scratch / rel)
    modules = {rel: mod for rel, mod in analysis.graph.mm.by_path.items() if analysis.graph.mm.is_internal(mod)}
    stages = Stages(analysis.plan, analysis.graph)
    if facts.facts:
        report = fold_tree(scratch, modules, facts, jobs=jobs)
        if getattr(spec, "strict", False):
            report.check_strict()
        stages.fold_report = report
        for fold in report.changed:
            stages.rewritten[fold.path] = (scratch / fold.path).read_bytes()
            stages.rewrite_reasons[fold.path] = f"folded {fold.branches} branches ({fold.lines_removed} lines)"
        stages.reports.append(("Facts folded", report.to_markdown()))
        stages.data["facts"] = report.to_dict()
        folded_index = build_index(scratch, jobs=jobs, use_cache=False, reuse=index)
        folded_tree = dataclasses.replace(tree, root=scratch, python_root=scratch / tree.relpath(tree.python_root)
                                          if tree.python_root != tree.root else scratch)
        excluded = analysis.graph.excluded
        graph = build_graph(folded_tree, folded_index, spec.roots, spec.registries, excluded=excluded)
        graph.roots = [r for r in analysis.graph.roots]  # keep globs and entry points found on the original
        graph.reach(excluded)
        plan = build_plan(spec, graph)
        plan.warnings[:0] = [w for w in analysis.plan.warnings if w not in plan.warnings]
        _carry_other_files(analysis, plan)
        stages.plan, stages.graph = plan, graph
        for rel in list(stages.rewritten):
            if rel in plan.removed_paths():
                del stages.rewritten[rel]  # no point rewriting a file the fork leaves out
    _kernel_stage(analysis, stages, facts, scratch, jobs)
    return stages


def _carry_other_files(analysis, plan: Plan) -> None:
    """The scratch copy holds only Python files: non-Python files keep their decisions from the first plan."""
    have = {k.path for k in plan.kept} | {r.path for r in plan.removals}
    plan.kept += [k for k in analysis.plan.kept if k.path not in have]
    plan.removals += [r for r in analysis.plan.removals if r.path not in have]


def _kernel_stage(analysis, stages: Stages, facts, scratch: Path, jobs: int | None) -> None:
    """Fold preprocessor facts into the kept kernel sources (unifdef)."""
    if not facts.preprocessor_raw:
        return
    from slimfork.kernels.spec import parse_preprocessor
    from slimfork.kernels.unifdef import fold_kernel_sources

    pre = parse_preprocessor(facts.preprocessor_raw, "facts.preprocessor")
    removed = stages.plan.removed_paths()
    sources = [k.path for k in stages.plan.kept if k.path.endswith((".cu", ".cuh", ".h", ".hpp", ".cpp", ".c", ".cc"))
               and k.path not in removed]
    for rel in sources:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(analysis.tree.root / rel, scratch / rel)
    report = fold_kernel_sources(scratch, sources, pre, jobs=jobs)
    stages.kernel_fold = report
    for fold in report.files:
        if fold.status == "folded":
            stages.rewritten[fold.path] = (scratch / fold.path).read_bytes()
            stages.rewrite_reasons[fold.path] = (f"preprocessor facts folded {fold.directives_folded} directives "
                                                 f"({fold.lines_removed} lines)")
    if hasattr(report, "to_markdown"):
        stages.reports.append(("Kernel sources folded (unifdef)", report.to_markdown()))
    if hasattr(report, "to_dict"):
        stages.data["kernels"] = report.to_dict()
