"""Turn the plan into batches the engine applies and verifies one at a time, cheapest to trust first:
dropped paths; folded files; unreachable modules, one batch per top-level folder; kernel sources; packaging."""

from __future__ import annotations

from slimfork.apply.metadata import bump_pyproject_version, fork_pyproject
from slimfork.apply.model import Batch, Edit


def build_batches(analysis, stages) -> list[Batch]:
    plan, tree = stages.plan, analysis.tree
    batches: list[Batch] = list(getattr(stages, "extra_batches", []))  # tests first: they only shrink the suite
    dropped = [r for r in plan.removals if r.kind == "dropped"]
    if dropped:
        batches.append(_deletes("drop", "the spec's drop globs", dropped))
    py_rewrites = {p: c for p, c in stages.rewritten.items() if p.endswith(".py")}
    if py_rewrites:
        edits = [Edit(p, c, stages.rewrite_reasons[p], "folded") for p, c in sorted(py_rewrites.items())]
        batches.append(Batch("fold", f"Fold platform facts into {len(edits)} files", edits))
    groups: dict[str, list] = {}
    for r in plan.removals:
        if r.kind == "unreachable":
            groups.setdefault(r.group, []).append(r)
    for group, removals in sorted(groups.items()):
        batches.append(_deletes(f"unreachable {group}", f"modules under {group} that nothing kept imports", removals))
    kernels = [r for r in plan.removals if r.kind == "kernel"]
    kernel_rewrites = {p: c for p, c in stages.rewritten.items() if not p.endswith(".py")}
    if kernels or kernel_rewrites:
        edits = [Edit(r.path, None, r.reason, "kernel") for r in kernels]
        edits += [Edit(p, c, stages.rewrite_reasons[p], "folded") for p, c in sorted(kernel_rewrites.items())]
        batches.append(Batch("kernels", f"Kernel sources: remove {len(kernels)}, fold {len(kernel_rewrites)}", edits))
    if tree.kind == "wheel":
        batches.append(_packaging(analysis, plan))
    elif (tree.root / "pyproject.toml").is_file():
        text, changed = bump_pyproject_version((tree.root / "pyproject.toml").read_text(encoding="utf-8"))
        if changed:
            batches.append(Batch("packaging", "Packaging: the version gets the +slimfork local suffix",
                                 [Edit("pyproject.toml", text.encode(), "local version suffix", "packaging")]))
        else:
            plan.warnings.append("pyproject.toml has no static version: the fork keeps the original's version")
    return batches


def _deletes(name: str, what: str, removals) -> Batch:
    lines = sum(r.lines for r in removals)
    edits = [Edit(r.path, None, r.reason, r.kind) for r in sorted(removals, key=lambda r: r.path)]
    return Batch(name, f"Remove {len(edits)} files ({lines:,} Python lines): {what}", edits)


def _packaging(analysis, plan) -> Batch:
    """A wheel's dist-info becomes the fork's pyproject.toml (name, version+slimfork, scripts, dependencies)."""

    tree = analysis.tree
    kept_modules = {k.module for k in plan.kept if k.module}
    text, notes = fork_pyproject(tree, kept_modules)
    plan.warnings.extend(notes)
    # The wheel's dist-info stays (the tree on PYTHONPATH keeps the original's metadata for importlib.metadata);
    # pip builds the fork from the pyproject and ignores it.
    edits = [Edit("pyproject.toml", text.encode(), "the original's metadata as an installable project", "packaging")]
    return Batch("packaging", "Packaging: pyproject.toml from the wheel's metadata (version +slimfork)", edits)
