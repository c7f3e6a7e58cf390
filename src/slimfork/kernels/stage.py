"""The kernel stage: fold preprocessor facts into the kept kernel sources (unifdef), drop the kernel sources no
kept Python code names and no kept source includes, and the native sources only a dead branch of setup.py or
CMake builds (kernels/builders.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from slimfork.kernels.builders import NATIVE_SUFFIXES, find_builders, plan_builders
from slimfork.kernels.includes import plan_kernel_sources, resolve_python_refs
from slimfork.kernels.jitrefs import python_kernel_refs
from slimfork.kernels.setup_fold import fold_setup_py
from slimfork.kernels.spec import parse_preprocessor
from slimfork.kernels.unifdef import fold_kernel_sources
from slimfork.plan.stages import Stages

KERNEL_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".cpp", ".c", ".cc", ".hip", ".s", ".S", ".metal")


def kernel_stage(analysis, stages: Stages, facts, scratch: Path, jobs: int | None) -> None:
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
        drop_other_platforms_sources(analysis, stages, facts, scratch)


def _drop_unreached_kernels(analysis, stages: Stages, dirs, scratch: Path, sources: list[str]) -> None:
    removed = stages.plan.removed_paths()
    kept_python = [k.path for k in stages.plan.kept if k.path.endswith(".py") and k.path not in removed]
    kplan = plan_kernel_sources(scratch, kept_python, dirs.csrc, dirs.include, files=sources)
    stages.kernel_plan = kplan
    gone = stages.remove(kplan.removals)
    lines = [f"{len(kplan.closure.reached)} kernel sources reached from kept Python code (load_jit file lists and "
             f"their includes); {len(gone)} removed; {len(kplan.uncertain)} uncertain.", ""]
    lines += [f"- `{r.path}`: {r.reason}" for r in sorted(gone.values(), key=lambda r: r.path)[:200]]
    lines += [f"- uncertain: {u}" for u in kplan.uncertain[:50]]
    stages.reports.append(("Kernel sources no kept code reaches", "\n".join(lines)))
    stages.data["kernel_sources"] = {"reached": dict(sorted(kplan.closure.reached.items())),
                                     "removed": sorted(gone), "uncertain": list(kplan.uncertain)}


def _fold_kernels(stages: Stages, facts, scratch: Path, sources: list[str], jobs: int | None) -> None:
    pre = parse_preprocessor(facts.preprocessor_raw, "facts.preprocessor")
    report = fold_kernel_sources(scratch, sources, pre, jobs=jobs)
    stages.kernel_fold = report
    for fold in report.files:
        if fold.status == "folded":
            stages.rewrite(fold.path, (scratch / fold.path).read_bytes(), f"preprocessor facts folded "
                           f"{fold.directives_folded} directives ({fold.lines_removed} lines)")
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


def drop_other_platforms_sources(analysis, stages, facts, scratch: Path) -> None:
    removed = stages.plan.removed_paths()
    kept = [k.path for k in stages.plan.kept if k.path not in removed]
    if not find_builders(kept):
        return
    native = [f for f in kept if f.endswith(NATIVE_SUFFIXES)]
    for rel in native:
        if not (scratch / rel).is_file():
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(analysis.tree.root / rel, scratch / rel)
    entries: dict[str, str] = {}
    for py in (f for f in kept if f.endswith(".py") and f not in find_builders([f])):
        path = scratch / py if (scratch / py).is_file() else analysis.tree.root / py
        found, _ = resolve_python_refs(py, python_kernel_refs(path.read_bytes().decode("utf-8", "replace")), native)
        for f, why in found.items():
            entries.setdefault(f, why)
    python = sorted({p for p in kept + [r.path for r in stages.plan.removals] if p.endswith(".py")})
    plan = plan_builders(analysis.tree.root, kept, native, facts, entries, read_root=scratch, python_files=python)
    if not plan.builders:
        return
    folded = _fold_setup_files(analysis, stages, facts, plan.builders)
    _check_builder_imports(analysis, stages, plan.builders)
    gone = stages.remove(plan.removals)
    lines = [f"{len(plan.builders)} builders read; {len(gone)} native sources ({sum(r.lines for r in gone.values())}"
             " lines) only branches the facts rule out build.", ""]
    for refs in plan.builders:
        lines.append(f"- `{refs.path}`: {refs.conditions_folded} platform conditions decided by the facts, "
                     f"{refs.conditions_left} undecided" + (f"; unknown: {refs.unknown[0]}" if refs.unknown else ""))
    lines += folded
    lines += [f"- `{r.path}`: {r.reason}" for r in sorted(gone.values(), key=lambda r: r.path)[:200]]
    stages.reports.append(("Native sources of other platforms", "\n".join(lines)))
    stages.data["native_builders"] = {
        "builders": [{"path": b.path, "conditions_folded": b.conditions_folded, "conditions_left": b.conditions_left,
                      "unknown": b.unknown} for b in plan.builders],
        "removed": {r.path: r.reason for r in gone.values()}}


def _fold_setup_files(analysis, stages, facts, builders) -> list[str]:
    """Fold the facts into each setup.py (its flags derived from the modules it imports them from)."""
    lines = []
    for refs in builders:
        if not refs.path.endswith(".py") or refs.unknown and "does not parse" in refs.unknown[0]:
            continue
        try:
            new, fold = fold_setup_py(analysis.tree.root, refs.path, refs.flag_modules, facts)
        except Exception as exc:  # noqa: BLE001 - a builder the fold cannot handle stays as it is
            lines.append(f"- `{refs.path}` left as it is: the fold failed ({exc.__class__.__name__}: {exc})")
            continue
        if new is not None:
            stages.rewritten[refs.path] = new
            stages.rewrite_reasons[refs.path] = f"platform facts folded into the builder: {fold.branches} " \
                                                f"branches ({fold.lines_removed} lines)"
            lines.append(f"- `{refs.path}` folded: {fold.branches} branches, {fold.lines_removed} lines removed")
        elif fold is not None and fold.failure:
            lines.append(f"- `{refs.path}` left as it is: {fold.failure}")
    return lines


def _check_builder_imports(analysis, stages, builders) -> None:
    """Warn where setup.py imports a name (a platform flag) the fork's version of its module no longer defines:
    setup.py is not part of the analysis, so the fold does not know it needs the name."""
    import ast

    removed = stages.plan.removed_paths()
    for refs in builders:
        if refs.path in stages.rewritten:  # only the imports the folded setup.py still has
            still = {a.asname or a.name for n in ast.walk(ast.parse(stages.rewritten[refs.path]))
                     if isinstance(n, ast.ImportFrom) for a in n.names}
            refs.imports = [(p, n) for p, n in refs.imports if n in still]
        for path, name in refs.imports:
            if path in removed:
                warning = f"{refs.path} imports {name} from {path}, which the fork removes: its build fails"
            else:
                data = stages.rewritten.get(path) or (analysis.tree.root / path).read_bytes()
                try:
                    tree = ast.parse(data)
                except SyntaxError:
                    continue
                bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                bound |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                          ast.ClassDef))}
                bound |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
                          if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
                if name in bound or any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
                                        for n in ast.walk(tree)):
                    continue
                warning = f"{refs.path} imports {name} from {path}, which the fork's {path} no longer defines: " \
                          "its build fails (keep the name with [symbols] keep, or drop the fact)"
            if warning not in stages.plan.warnings:
                stages.plan.warnings.append(warning)
