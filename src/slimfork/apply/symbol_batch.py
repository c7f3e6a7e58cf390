"""The "symbols" batch: every file the symbol stage rewrote (pruned definitions and imports, cut dict
registries) together with the modules that left because of it. Applied last: until then kept code may still use
what goes, and the modules only pruned imports loaded are still imported.

The exception (``early_edits``): a kept file whose pruning removes its import of a module that an earlier batch
deletes (a dropped path; a function only a cut registry entry named imported it) is rewritten with the folded
files, first, or that earlier batch could not pass the imports check.
"""

from __future__ import annotations

from pathlib import Path

from slimfork.decisions import DELETING, Batch, Edit
from slimfork.index.build import summary_of
from slimfork.index.relative import absolute_module
from slimfork.index.summary import GUARDED_TRY


def early_edits(stage, removals, module_of, root: Path, rewritten: dict[str, bytes]) -> dict[str, str]:
    """Path -> the deleted modules it stops importing, for each file of ``stage.contents`` that an earlier
    batch's deletion needs rewritten first. ``module_of(path)``: the original tree's module name of a file."""
    gone = {module_of(r.path) for r in removals if r.kind in DELETING and r.group != "symbols"} - {None}
    deleted = {r.path for r in removals if r.kind in DELETING}
    out = {}
    for path, content in sorted(stage.contents.items()):
        if path in deleted or (module := module_of(path)) is None:
            continue
        before = rewritten.get(path)
        if before is None:
            try:
                before = (root / path).read_bytes()
            except OSError:
                continue
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        lost = _imported(before, package, gone) - _imported(content, package, gone)
        if lost:
            out[path] = ", ".join(sorted(lost))
    return out


def _imported(source: bytes, package: str, gone: set[str]) -> set[str]:
    """The modules of ``gone`` that ``source`` imports in any scope, outside TYPE_CHECKING and ImportError
    guards (the imports check accepts those)."""
    found = set()
    for edge in summary_of(source).imports:
        if edge.type_checking or GUARDED_TRY in (edge.condition or ""):
            continue
        base = absolute_module(package, edge.level, edge.module)
        for name in (base, *(f"{base}.{n}" for n in edge.names)) if base else ():
            if name in gone:
                found.add(name)
    return found


def symbol_batch(stage, removals, skip=frozenset()) -> Batch | None:
    """``removals``: the plan's removals of group "symbols" (the modules that left because of the pruning);
    ``skip``: files rewritten earlier (``early_edits``)."""
    reasons: dict[str, list[str]] = {}
    for p in stage.pruned:
        if p.path not in skip:
            reasons.setdefault(p.path, []).extend(p.names)
    registry_paths = {reg["path"]: reg for reg in stage.registries if reg["removed"]}
    edits = []
    for path, content in sorted(stage.contents.items()):
        if path in skip:
            continue
        why = []
        if path in registry_paths:
            reg = registry_paths[path]
            why.append(f"registry {reg['variable']}: removed {', '.join(reg['removed'])}")
        names = reasons.get(path, [])
        if names:
            why.append(f"pruned {len(names)} names nothing kept uses: " + ", ".join(dict.fromkeys(names)))
        edits.append(Edit(path, content, "; ".join(why) or "symbol pruning", "registry" if path in registry_paths
                          else "symbol"))
    deleted = sorted({r.path: r for r in removals if r.kind == "unreachable"}.values(), key=lambda r: r.path)
    edits += [Edit(r.path, None, r.reason, "unreachable") for r in deleted]
    if not edits:
        return None
    pruned = sum(len(v) for v in reasons.values())
    return Batch("symbols", f"Prune {pruned} definitions and imports nothing kept uses in {len(edits) - len(deleted)} "
                            f"files; remove {len(deleted)} modules only they imported", edits)
