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
    plan = plan_builders(analysis.tree.root, kept, native, facts, entries, read_root=scratch)
    if not plan.builders:
        return
    gone = {r.path: r for r in plan.removals}
    stages.plan.kept = [k for k in stages.plan.kept if k.path not in gone]
    stages.plan.removals += list(gone.values())
    for rel in gone:
        stages.rewritten.pop(rel, None)
    lines = [f"{len(plan.builders)} builders read; {len(gone)} native sources ({sum(r.lines for r in gone.values())}"
             " lines) only branches the facts rule out build.", ""]
    for refs in plan.builders:
        lines.append(f"- `{refs.path}`: {refs.conditions_folded} platform conditions decided by the facts, "
                     f"{refs.conditions_left} undecided" + (f"; unknown: {refs.unknown[0]}" if refs.unknown else ""))
    lines += [f"- `{r.path}`: {r.reason}" for r in sorted(gone.values(), key=lambda r: r.path)[:200]]
    stages.reports.append(("Native sources of other platforms", "\n".join(lines)))
    stages.data["native_builders"] = {
        "builders": [{"path": b.path, "conditions_folded": b.conditions_folded, "conditions_left": b.conditions_left,
                      "unknown": b.unknown} for b in plan.builders],
        "removed": {r.path: r.reason for r in gone.values()}}
