"""Turn the plan into batches the engine applies and verifies one at a time: the stages' own batches (tests),
then the removals in the engine's order (rewrites that cut imports, then deletions importers first, then symbol
pruning; see slimfork.apply.from_plan), then the test data of removed registry entries, then packaging."""

from __future__ import annotations

import dataclasses
import sys

from slimfork.apply.metadata import bump_pyproject_version, fork_pyproject
from slimfork.apply.from_plan import batches_from_removals
from slimfork.apply.model import Batch, Edit
from slimfork.plan.model import Removal
from slimfork.plan.requirements import import_names_of, requirement_uses, string_mentions, third_party_imports, \
    used_by_dependencies


def build_batches(analysis, stages) -> list[Batch]:
    plan, tree = stages.plan, analysis.tree
    batches: list[Batch] = list(getattr(stages, "extra_batches", []))  # tests first: they only shrink the suite
    rewritten, reasons = dict(stages.rewritten), dict(stages.rewrite_reasons)
    symbols = getattr(stages, "symbols", None)  # pruning and what it removed: one batch, applied last
    early: dict[str, str] = {}
    if symbols is not None:  # except the pruned files an earlier deletion needs rewritten first
        from slimfork.prune.batch import early_edits, symbol_batch

        early = early_edits(symbols, plan.removals, analysis.graph.mm.module_of, tree.root, rewritten)
        for path, lost in early.items():
            rewritten[path] = symbols.contents[path]
            reasons[path] = "; ".join(filter(None, [reasons.get(path), f"symbol pruning applied early: it removes "
                                                    f"the imports of {lost}, which an earlier batch deletes"]))
    removals = list(plan.removals) + [Removal("folded", path, reasons[path], group="folded")
                                      for path in sorted(rewritten)]
    if symbols is not None:
        own = [r for r in removals if r.group == "symbols"]
        removals = [r for r in removals if r.group != "symbols"]
    batches += batches_from_removals(removals, tree.root, rewritten)
    if symbols is not None and (batch := symbol_batch(symbols, own, frozenset(early))) is not None:
        batches.append(batch)
    batches += getattr(stages, "late_batches", [])  # test data of removed registry entries: after the entries
    if tree.kind == "wheel":
        batches.append(_packaging(analysis, plan, stages))
    elif (tree.root / "pyproject.toml").is_file():
        text, changed = bump_pyproject_version((tree.root / "pyproject.toml").read_text(encoding="utf-8"))
        if changed:
            batches.append(Batch("packaging", "Packaging: the version gets the +slimfork local suffix",
                                 [Edit("pyproject.toml", text.encode(), "local version suffix", "packaging")]))
        else:
            plan.warnings.append("pyproject.toml has no static version: the fork keeps the original's version")
    return batches


def _packaging(analysis, plan, stages) -> Batch:
    """A wheel's dist-info becomes the fork's pyproject.toml (name, version+slimfork, scripts, and the
    dependencies kept code still imports)."""
    tree = analysis.tree
    kept_modules = {k.module for k in plan.kept if k.module}
    uses = _requirement_uses(analysis, stages, plan)
    text, notes = fork_pyproject(tree, kept_modules, [u.requirement for u in uses if u.kept])
    plan.warnings.extend(notes)
    if uses:
        stages.data["requirements"] = [dataclasses.asdict(u) for u in uses]
        stages.reports.append(("Requirements", requirements_markdown(uses)))
    # The wheel's dist-info stays (the tree on PYTHONPATH keeps the original's metadata for importlib.metadata);
    # pip builds the fork from the pyproject and ignores it.
    edits = [Edit("pyproject.toml", text.encode(), "the original's metadata as an installable project", "packaging")]
    return Batch("packaging", "Packaging: pyproject.toml from the wheel's metadata (version +slimfork)", edits)


def _requirement_uses(analysis, stages, plan):
    """Each declared requirement, kept or dropped with its reason (import names from the verification
    environment when the spec has one, else from the interpreter running slimfork)."""
    tree = analysis.tree
    if tree.dist is None or not tree.dist.requires:
        return []
    if analysis.spec.sections.get("verify") is not None:
        from slimfork.verify.build import verify_env

        python = verify_env(analysis.spec).python  # the venv the checks use (built once, cached)
    else:
        python = sys.executable
    graph = getattr(stages, "graph", None) or analysis.graph
    index = graph.index
    kept = [k.path for k in plan.kept if k.path in index.files]
    imported = third_party_imports(((rel, index.files[rel]) for rel in kept), graph.mm.is_internal)
    return requirement_uses(tree.dist.requires, imported, import_names_of(python),
                            string_mentions(graph.tree.root, kept),
                            lambda keep, candidates: used_by_dependencies(python, keep, candidates))


def requirements_markdown(uses) -> str:
    dropped = [u for u in uses if not u.kept]
    out = [f"{len(uses) - len(dropped)} of {len(uses)} declared requirements kept; {len(dropped)} dropped from the "
           "fork's metadata (nothing kept imports them).", "", "| requirement | kept | why |", "|---|---|---|"]
    out += [f"| `{u.requirement}` | {'yes' if u.kept else 'no'} | {u.reason} |"
            for u in sorted(uses, key=lambda u: (u.kept, u.name))]
    return "\n".join(out) + "\n"
