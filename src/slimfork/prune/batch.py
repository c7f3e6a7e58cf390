"""The "symbols" batch: every file the symbol stage rewrote (pruned definitions and imports, cut dict
registries) together with the modules that left because of it. Applied last: until then kept code may still use
what goes, and the modules only pruned imports loaded are still imported."""

from __future__ import annotations

from slimfork.apply.model import Batch, Edit


def symbol_batch(stage, removals) -> Batch | None:
    """``removals``: the plan's removals of group "symbols" (the modules that left because of the pruning)."""
    reasons: dict[str, list[str]] = {}
    for p in stage.pruned:
        reasons.setdefault(p.path, []).extend(p.names)
    registry_paths = {reg["path"]: reg for reg in stage.registries if reg["removed"]}
    edits = []
    for path, content in sorted(stage.contents.items()):
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
    return Batch("symbols", f"Prune {pruned} definitions and imports nothing kept uses in {len(stage.contents)} "
                            f"files; remove {len(deleted)} modules only they imported", edits)
