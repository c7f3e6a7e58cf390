"""Turn a plan's removals into batches: one per removal group, in an order where cheap, safe kinds go first."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

from slimfork.apply.model import Batch, Edit
from slimfork.errors import SlimforkError
from slimfork.plan.model import Removal

DELETING = ("dropped", "kernel", "unreachable")  # kinds whose removal deletes the file
KIND_ORDER = ("dropped", "kernel", "unreachable", "registry", "folded", "symbol")
TITLES = {"dropped": "paths the spec drops", "kernel": "kernel sources nothing kept reaches",
          "unreachable": "modules nothing kept imports", "registry": "registry entries the spec filters out",
          "folded": "files rewritten by fact folding", "symbol": "definitions nothing kept uses"}


def batches_from_removals(removals: list[Removal], root: Path,
                          rewritten: Mapping[str, bytes] | None = None) -> list[Batch]:
    """Batches for ``removals`` of the source at ``root``.

    Deleting kinds become deletions of files (folders and missing paths are skipped: git keeps no folder, and a
    folder emptied by its files' deletion goes with them). Rewriting kinds ("folded", "symbol", "registry")
    need the new bytes in ``rewritten`` (path -> content); several removals in one file make one edit whose
    reason lists them all. A path both deleted and rewritten is only deleted.
    """
    rewritten = rewritten or {}
    deleted = {r.path for r in removals if r.kind in DELETING}
    grouped: dict[tuple[int, str], dict[str, list[Removal]]] = defaultdict(lambda: defaultdict(list))
    for r in removals:
        if r.kind in DELETING:
            if not (root / r.path).is_file() and not (root / r.path).is_symlink():
                continue
        elif r.kind in ("empty-dir",) or r.path in deleted:
            continue
        elif r.path not in rewritten:
            raise SlimforkError(f"{r.path}: a '{r.kind}' removal has no rewritten content",
                                hint="pass the rewritten files (path -> bytes) with the removals")
        order = KIND_ORDER.index(r.kind) if r.kind in KIND_ORDER else len(KIND_ORDER)
        name = r.kind + (f" {r.group}" if r.group and r.group != r.kind else "")
        grouped[(order, name)][r.path].append(r)
    batches = []
    for (_, name), by_path in sorted(grouped.items()):
        edits = []
        for path, items in sorted(by_path.items()):
            kind = items[0].kind
            reason = "; ".join(dict.fromkeys(r.reason for r in items))
            edits.append(Edit(path, None if kind in DELETING else rewritten[path], reason, kind))
        kind = name.split(" ")[0]
        title = TITLES.get(kind, kind)
        where = name[len(kind) + 1:]
        message = f"Remove {title}" + (f" under {where}" if where else "") + f": {len(edits)} file(s)."
        batches.append(Batch(name, message, edits))
    return batches
