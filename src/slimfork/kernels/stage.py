"""The planning step of kernels/builders.py: native sources only a dead branch of setup.py or CMake builds."""

from __future__ import annotations

import shutil
from pathlib import Path


def drop_other_platforms_sources(analysis, stages, facts, scratch: Path) -> None:
    from slimfork.kernels.builders import NATIVE_SUFFIXES, find_builders, plan_builders
    from slimfork.kernels.includes import resolve_python_refs
    from slimfork.kernels.jitrefs import python_kernel_refs

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
    from slimfork.plan.stages import remove_from_plan

    gone = remove_from_plan(stages, plan.removals)
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
    from slimfork.kernels.setup_fold import fold_setup_py

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
