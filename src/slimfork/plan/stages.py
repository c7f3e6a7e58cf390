"""The planning stages that rewrite code: fold facts into a scratch copy of the source, then plan again on the
folded tree (modules that only deleted branches imported become unreachable), then plan kernel sources.

Nothing here touches the source or the output: the scratch copy lives in a temporary folder, and what the stages
decide comes back as data (the folded files' new contents, the new plan, the stage reports).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.fsutil import write_atomic
from slimfork.graph import build_graph
from slimfork.index import build_index
from slimfork.mapping.spec import REWRITING_KINDS
from slimfork.plan.build import build_plan, carried_warnings
from slimfork.plan.globs import first_match
from slimfork.plan.model import Plan
from slimfork.source.cache import cache_dir

STAGES_VERSION = "1"  # bump when what the stages compute changes


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
    extra_batches: list = field(default_factory=list)  # batches of later stages (tests), applied first
    late_batches: list = field(default_factory=list)  # applied after the removals (test data of removed entries)
    symbols: object | None = None  # slimfork.prune.stage.SymbolStage: pruned symbols and dict registries
    vacated: frozenset = frozenset()  # modules a subclass registry cut left with nothing but imports


def run_stages(analysis, jobs: int | None = None) -> Stages:
    spec = analysis.spec
    facts = spec.sections.get("facts")
    if (facts is None or not (facts or facts.preprocessor_raw)) and "kernels" not in spec.sections \
            and not spec.sections.get("registries") and "tests" not in spec.sections \
            and "symbols" not in spec.sections \
            and not any(r.get("kind") in REWRITING_KINDS for r in spec.raw.get("registries", [])):
        return Stages(analysis.plan, analysis.graph)
    cache_file = cache_dir("stages") / f"{_stages_key(analysis)}.pkl"
    if cache_file.is_file():  # the spec and every file are as last time: the stages' result is known
        try:
            return pickle.loads(cache_file.read_bytes())
        except Exception:  # a stale or corrupt cache is only a slower run
            pass
    scratch = Path(tempfile.mkdtemp(prefix="slimfork-stages-"))
    try:
        stages = _run(analysis, facts, scratch, jobs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    write_atomic(cache_file, pickle.dumps(stages, protocol=pickle.HIGHEST_PROTOCOL))
    return stages


def _own_code_digest() -> str:
    """slimfork's own sources: a change to the analysis must not be answered from an old cache."""
    import slimfork

    h = hashlib.blake2b(digest_size=16)
    for path in sorted(Path(slimfork.__file__).parent.rglob("*.py")):
        if "examples" not in path.parts:
            h.update(path.read_bytes())
    return h.hexdigest()


def _stages_key(analysis) -> str:
    """Everything the stages read: slimfork's version, the spec's tables, and every file's content."""
    from slimfork import __version__

    h = hashlib.blake2b(digest_size=16)
    raw = {k: v for k, v in analysis.spec.raw.items() if k not in ("out", "checks", "verify")}
    h.update(json.dumps([__version__, STAGES_VERSION, _own_code_digest(), str(analysis.tree.root), raw,
                         _unifdef_identity(analysis)], sort_keys=True, default=str).encode())
    for rel, summary in sorted(analysis.index.files.items()):
        h.update(f"{rel}\0{summary.sha}\0".encode())
    for rel in analysis.index.other_files:
        st = (analysis.tree.root / rel).stat()
        h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def _unifdef_identity(analysis) -> str:
    """Which unifdef folds the kernel sources (binary and version, or the Python port): part of the cache key."""
    facts = analysis.spec.sections.get("facts")
    if facts is None or not facts.preprocessor_raw:
        return ""
    from slimfork.kernels.unifdef import find_engine

    return find_engine().describe()


def _run(analysis, facts, scratch: Path, jobs: int | None) -> Stages:
    from slimfork.rewrite import fold_tree

    spec, tree, index = analysis.spec, analysis.tree, analysis.index
    for rel in index.files:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tree.root / rel, scratch / rel)
    # Fold only what the first plan keeps: folding deletes branches, so it can only make fewer modules reachable.
    removed = analysis.plan.removed_paths()
    modules = {rel: mod for rel, mod in analysis.graph.mm.by_path.items()
               if analysis.graph.mm.is_internal(mod) and rel not in removed}
    stages = Stages(analysis.plan, analysis.graph)
    cuts, decorated = _cut_registries(analysis, stages, scratch)  # the tests stage reads the mapping cuts
    folding = facts is not None and bool(facts)
    if folding or any(c.new_source for c in cuts + decorated):  # registry cuts change the graph: plan again
        if folding:
            others = {rel: mod for rel, mod in analysis.graph.mm.by_path.items()
                      if analysis.graph.mm.is_internal(mod) and rel not in modules}
            report = fold_tree(scratch, modules, facts, jobs=jobs, others=others,
                               public=_public_api(analysis))
            if getattr(spec, "strict", False):
                report.check_strict()
            stages.fold_report = report
            for fold in report.changed:
                stages.rewritten[fold.path] = (scratch / fold.path).read_bytes()
                stages.rewrite_reasons[fold.path] = f"folded {fold.branches} branches ({fold.lines_removed} lines)"
        folded_index = build_index(scratch, jobs=jobs, use_cache=False, reuse=index,
                                   skip=lambda rel: first_match(spec.drop, rel) is not None)
        folded_tree = dataclasses.replace(tree, root=scratch, python_root=scratch / tree.relpath(tree.python_root)
                                          if tree.python_root != tree.root else scratch)
        excluded = analysis.graph.excluded
        graph = build_graph(folded_tree, folded_index, spec.roots, spec.registries, excluded=excluded,
                            type_checking=spec.type_checking_imports, vacated=stages.vacated)
        graph.roots = [r for r in analysis.graph.roots]  # keep globs and entry points found on the original
        graph.reach(excluded)
        plan = build_plan(spec, graph)
        plan.warnings[:0] = carried_warnings(analysis.plan.warnings, plan.warnings)
        _carry_other_files(analysis, plan)
        stages.plan, stages.graph = plan, graph
        if stages.fold_report is not None:  # counted now that the plan says which folded files stay
            stages.fold_report.later_removed = {f.path for f in stages.fold_report.changed} & plan.removed_paths()
            stages.reports.append(("Facts folded", stages.fold_report.to_markdown()))
            stages.data["facts"] = stages.fold_report.to_dict()
        for rel in list(stages.rewritten):
            if rel in plan.removed_paths():
                del stages.rewritten[rel]  # no point rewriting a file the fork leaves out
    from slimfork.prune.stage import run_symbol_stage

    run_symbol_stage(analysis, stages, scratch, jobs)  # [symbols] and dict registries (None when neither)
    if folding:
        _check_instances(facts, stages, scratch)
    _kernel_stage(analysis, stages, facts, scratch, jobs)
    if "tests" in spec.sections:
        from slimfork.plan.tests import plan_tests

        plan_tests(analysis, stages, scratch, cuts)
    return stages


def _public_api(analysis):
    """The public names the fork keeps as API whatever folds or pruning find unused (graph/public_api.py)."""
    from slimfork.graph.public_api import public_api

    symbols = analysis.spec.sections.get("symbols")
    return public_api(analysis.spec.roots, analysis.graph.mm, symbols.drop if symbols else ())


def _check_instances(facts, stages: Stages, scratch: Path) -> None:
    """Warn where the fork still creates an object of a class ``never_instances`` declares."""
    from slimfork.facts.instances import creation_warnings

    removed = stages.plan.removed_paths()
    files = ((k.path, (scratch / k.path).read_bytes()) for k in stages.plan.kept
             if k.path.endswith(".py") and k.path not in removed and (scratch / k.path).is_file())
    for warning in creation_warnings(facts, files):
        if warning not in stages.plan.warnings:
            stages.plan.warnings.append(warning)


def _cut_registries(analysis, stages: Stages, scratch: Path) -> tuple[list, list]:
    """Mapping (``kind = "mapping"``: entries of a dict) and decorator (``kind = "decorator"``: registrations)
    registries, cut in the scratch copy before the plan is remade. Returns (mapping cuts, decorator cuts)."""
    from slimfork.mapping.decorated import cut_decorator_registries, decorated_data, decorated_report
    from slimfork.mapping.ifchain import cut_if_chain_registries, if_chain_data, if_chain_report
    from slimfork.mapping.imports import cut_imports_registries, imports_data, imports_report
    from slimfork.mapping.stage import cut_mappings, mapping_data, mapping_report
    from slimfork.mapping.subclasses import cut_subclass_registries, subclasses_data, subclasses_report

    mappings, decorated = cut_mappings(analysis, scratch), cut_decorator_registries(analysis, scratch)
    chains = cut_if_chain_registries(analysis, scratch)
    imports = cut_imports_registries(analysis, scratch)
    subclasses = cut_subclass_registries(analysis, scratch)
    reasons = [(cut, f"registry {cut.registry.module}.{cut.registry.variable}: {len(cut.removed)} entries the "
                     "spec does not keep removed") for cut in mappings]
    reasons += [(cut, f"registry {'@' if cut.registry.kind == 'decorator' else ''}{cut.registry.decorator}: "
                      f"{len(cut.removed)} registrations of keys the spec does not keep removed") for cut in decorated]
    reasons += [(cut, f"registry {cut.registry.function} (if-chain on {cut.registry.variable}): the arms of "
                      f"{len(cut.removed)} keys the spec does not keep removed") for cut in chains]
    reasons += [(cut, f"registry {cut.registry.module} (imports of its submodules): the imports of "
                      f"{len(cut.removed)} submodules the spec does not keep removed") for cut in imports]
    reasons += [(cut, f"registry of subclasses of {cut.registry.base}: {len(cut.removed)} subclasses the spec does "
                      "not keep removed") for cut in subclasses]
    mm = analysis.graph.mm
    stages.vacated = frozenset(mm.by_path[c.path] for c in subclasses if c.vacated and c.path in mm.by_path)
    for cut, reason in reasons:
        if cut.new_source is not None:
            stages.rewritten[cut.path] = cut.new_source
            stages.rewrite_reasons[cut.path] = reason
    for title, key, cuts, report, data in (
            ("Mapping registries", "mapping_registries", mappings, mapping_report, mapping_data),
            ("Decorator registries", "decorator_registries", decorated, decorated_report, decorated_data),
            ("If-chain registries", "if_chain_registries", chains, if_chain_report, if_chain_data),
            ("Import registries", "imports_registries", imports, imports_report, imports_data),
            ("Subclass registries", "subclass_registries", subclasses, subclasses_report, subclasses_data)):
        if cuts:
            stages.reports.append((title, report(cuts)))
            stages.data[key] = data(cuts)
    return mappings + [c for c in subclasses if c.removed or c.tables], decorated + chains + imports


def remove_from_plan(stages: Stages, removals: list) -> dict:
    """Move files the kernel or native stage removes out of the kept list (and the rewrites); path -> Removal."""
    gone = {r.path: r for r in removals}
    stages.plan.kept = [k for k in stages.plan.kept if k.path not in gone]
    stages.plan.removals += list(gone.values())
    for rel in gone:
        stages.rewritten.pop(rel, None)
    return gone


def _carry_other_files(analysis, plan: Plan) -> None:
    """The scratch copy holds only Python files: non-Python files keep their decisions from the first plan."""
    have = {k.path for k in plan.kept} | {r.path for r in plan.removals}
    plan.kept += [k for k in analysis.plan.kept if k.path not in have]
    plan.removals += [r for r in analysis.plan.removals if r.path not in have]


KERNEL_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".c", ".cc", ".hip", ".s", ".S", ".metal")


def _kernel_stage(analysis, stages: Stages, facts, scratch: Path, jobs: int | None) -> None:
    """Fold preprocessor facts into the kept kernel sources (unifdef), then drop the kernel sources that no kept
    Python code names and no kept kernel source includes (the include graph of the folded sources)."""
    sources = [k.path for k in stages.plan.kept if k.path.endswith(KERNEL_SUFFIXES)]
    for rel in sources:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(analysis.tree.root / rel, scratch / rel)
    if facts is not None and facts.preprocessor_raw:
        _fold_kernels(stages, facts, scratch, sources, jobs)
    dirs = analysis.spec.sections.get("kernels")
    if dirs is not None:
        _drop_unreached_kernels(analysis, stages, dirs, scratch, sources)
    if facts is not None and facts:
        from slimfork.kernels.stage import drop_other_platforms_sources

        drop_other_platforms_sources(analysis, stages, facts, scratch)


def _drop_unreached_kernels(analysis, stages: Stages, dirs, scratch: Path, sources: list[str]) -> None:
    from slimfork.kernels.includes import plan_kernel_sources

    removed = stages.plan.removed_paths()
    kept_python = [k.path for k in stages.plan.kept if k.path.endswith(".py") and k.path not in removed]
    kplan = plan_kernel_sources(scratch, kept_python, dirs.csrc, dirs.include, files=sources)
    stages.kernel_plan = kplan
    gone = remove_from_plan(stages, kplan.removals)
    lines = [f"{len(kplan.closure.reached)} kernel sources reached from kept Python code (load_jit file lists and "
             f"their includes); {len(gone)} removed; {len(kplan.uncertain)} uncertain.", ""]
    lines += [f"- `{r.path}`: {r.reason}" for r in sorted(gone.values(), key=lambda r: r.path)[:200]]
    lines += [f"- uncertain: {u}" for u in kplan.uncertain[:50]]
    stages.reports.append(("Kernel sources no kept code reaches", "\n".join(lines)))
    stages.data["kernel_sources"] = {"reached": dict(sorted(kplan.closure.reached.items())),
                                     "removed": sorted(gone), "uncertain": list(kplan.uncertain)}


def _fold_kernels(stages: Stages, facts, scratch: Path, sources: list[str], jobs: int | None) -> None:
    from slimfork.kernels.spec import parse_preprocessor
    from slimfork.kernels.unifdef import fold_kernel_sources

    pre = parse_preprocessor(facts.preprocessor_raw, "facts.preprocessor")
    report = fold_kernel_sources(scratch, sources, pre, jobs=jobs)
    stages.kernel_fold = report
    for fold in report.files:
        if fold.status == "folded":
            stages.rewritten[fold.path] = (scratch / fold.path).read_bytes()
            stages.rewrite_reasons[fold.path] = (f"preprocessor facts folded {fold.directives_folded} directives "
                                                 f"({fold.lines_removed} lines)")
    folded = [f for f in report.files if f.status == "folded"]
    left = [f for f in report.files if f.status not in ("folded", "unchanged")]
    engine = (f"{report.unifdef_version} ({report.engine_path})" if report.engine_path
              else f"slimfork's Python port of {report.unifdef_version} (no unifdef binary found)")
    lines = [f"{len(folded)} of {len(report.files)} kernel sources folded with {engine}: "
             f"{sum(f.directives_folded for f in folded)} directives, "
             f"{sum(f.lines_removed for f in folded)} lines removed; {len(left)} left alone.", "",
             "| file | directives folded | lines removed |", "|---|---:|---:|"]
    lines += [f"| `{f.path}` | {f.directives_folded} | {f.lines_removed} |" for f in folded]
    lines += ["", *[f"- left alone: `{f.path}` ({f.status}): {f.message}" for f in left]]
    stages.reports.append(("Kernel sources folded (unifdef)", "\n".join(lines)))
    stages.data["kernel_fold"] = report.to_dict()
