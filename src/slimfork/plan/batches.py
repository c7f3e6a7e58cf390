"""Turn the plan into batches the engine applies and verifies one at a time: the stages' own batches (tests),
then the removals in the engine's order (rewrites that cut imports, then deletions importers first, then symbol
pruning; see slimfork.apply.from_plan), then packaging."""

from __future__ import annotations

from slimfork.apply.metadata import bump_pyproject_version, fork_pyproject
from slimfork.apply.from_plan import batches_from_removals
from slimfork.apply.model import Batch, Edit
from slimfork.plan.model import Removal


def build_batches(analysis, stages) -> list[Batch]:
    plan, tree = stages.plan, analysis.tree
    batches: list[Batch] = list(getattr(stages, "extra_batches", []))  # tests first: they only shrink the suite
    removals = list(plan.removals) + [Removal("folded", path, stages.rewrite_reasons[path], group="folded")
                                      for path in sorted(stages.rewritten)]
    symbols = getattr(stages, "symbols", None)  # pruning and what it removed: one batch, applied last
    if symbols is not None:
        from slimfork.prune.batch import symbol_batch

        own = [r for r in removals if r.group == "symbols"]
        removals = [r for r in removals if r.group != "symbols"]
    batches += batches_from_removals(removals, tree.root, stages.rewritten)
    if symbols is not None and (batch := symbol_batch(symbols, own)) is not None:
        batches.append(batch)
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
