"""Turn a plan's removals into batches: one per removal group, in an order where cheap, safe kinds go first."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

from slimfork.apply.deps import import_edges
from slimfork.decisions import DELETING, Batch, Edit
from slimfork.apply.with_rewrites import deletions_with_rewrites
from slimfork.errors import SlimforkError
from slimfork.decisions import Removal

# Rewrites that cut imports (registry filtering, folding) go first: they make modules unreachable; then the
# deletions, importers first; then symbol pruning, once no deleted module uses the pruned definitions. A deletion
# of a file that imports a name a rewrite removes goes with the rewrite (slimfork.apply.with_rewrites).
KIND_ORDER = ("registry", "folded", "dropped", "kernel", "unreachable", "symbol")
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
    placed: set[str] = set()  # a deleted path goes to one batch: the first by kind order
    for r in sorted(removals, key=lambda r: KIND_ORDER.index(r.kind) if r.kind in KIND_ORDER else len(KIND_ORDER)):
        if r.kind in DELETING:
            if r.path in placed or not ((root / r.path).is_file() or (root / r.path).is_symlink()):
                continue
            placed.add(r.path)
        elif r.kind in ("empty-dir",) or r.path in deleted:
            continue
        elif r.path not in rewritten:
            raise SlimforkError(f"{r.path}: a '{r.kind}' removal has no rewritten content",
                                hint="pass the rewritten files (path -> bytes) with the removals")
        order = KIND_ORDER.index(r.kind) if r.kind in KIND_ORDER else len(KIND_ORDER)
        name = r.kind + (f" {r.group}" if r.group and r.group != r.kind else "")
        grouped[(order, name)][r.path].append(r)
    deleting = {key: by_path for key, by_path in grouped.items() if _deletes(by_path)}
    rewriting = [(order, name, by_path) for (order, name), by_path in sorted(grouped.items())
                 if (order, name) not in deleting]
    first = [(name, by_path) for order, name, by_path in rewriting if order < KIND_ORDER.index("dropped")]
    last = [(name, by_path) for order, name, by_path in rewriting if order >= KIND_ORDER.index("dropped")]
    moved = _move_deletions_to_rewrites(first, deleting, root, rewritten)
    batches = []
    for name, by_path in first + _deletions_importers_first(deleting, root) + last:
        edits = []
        for path, items in sorted(by_path.items()):
            kind = items[0].kind
            reason = "; ".join(dict.fromkeys(r.reason for r in items))
            edits.append(Edit(path, None if kind in DELETING else rewritten[path], reason, kind))
        message = f"Remove {_describe(name)}: {len(edits)} file(s)."
        if joined := sum(path in moved for path in by_path):
            message = message[:-1] + f" ({joined} planned deletion(s) among them: they import what a rewrite removes)."
        batches.append(Batch(name, message, edits))
    return batches


def _deletes(by_path: dict[str, list[Removal]]) -> bool:
    return next(iter(by_path.values()))[0].kind in DELETING


def _move_deletions_to_rewrites(first, deleting, root: Path, rewritten: Mapping[str, bytes]) -> set[str]:
    """Move into the rewriting batches ``first`` the deletions that must go with them (see
    ``slimfork.apply.with_rewrites``), each with why; drop the deletion groups this empties. Returns the paths."""
    owner = {path: key for key, by_path in deleting.items() for path in by_path}
    rewrites = [(name, {path: rewritten[path] for path in by_path}) for name, by_path in first]
    moved = deletions_with_rewrites(owner, rewrites, root)
    for path, (index, why) in sorted(moved.items()):
        items = deleting[owner[path]].pop(path)
        first[index][1][path] = [dataclasses.replace(r, reason=f"{r.reason}; {why}") for r in items]
    for key in [key for key, by_path in deleting.items() if not by_path]:
        del deleting[key]
    return set(moved)


def _describe(name: str) -> str:
    """"unreachable app" -> "modules nothing kept imports under app"; merged groups ("dropped + unreachable a +
    unreachable b") list each kind once, with its folders."""
    wheres: dict[str, list[str]] = {}
    for member in name.split(" + "):
        kind, _, where = member.partition(" ")
        wheres.setdefault(kind, []).extend([where] if where else [])
    return "; ".join(TITLES.get(kind, kind) + (f" under {', '.join(places)}" if places else "")
                     for kind, places in wheres.items())


def _deletions_importers_first(deleting, root: Path) -> list[tuple[str, dict[str, list[Removal]]]]:
    """The deleting groups ((order, name) -> path -> removals), each before the groups whose files it imports
    (groups in an import cycle merge): a batch never deletes a file that a file of a later batch still imports."""
    groups = {name: by_path for (_, name), by_path in deleting.items()}
    rank = {name: (order, name) for (order, name) in deleting}
    owner = {path: name for name, by_path in groups.items() for path in by_path}
    edges = import_edges(root, owner)
    after: dict[str, set[str]] = {name: set() for name in groups}  # group -> groups it imports
    for path, targets in edges.items():
        after[owner[path]].update(owner[t] for t in targets if owner[t] != owner[path])
    components = _components(sorted(groups, key=lambda n: rank[n]), after)
    result = []
    for members in components:
        if len(members) == 1:
            result.append((members[0], groups[members[0]]))
        else:
            merged: dict[str, list[Removal]] = {}
            for member in members:
                merged.update(groups[member])
            result.append((" + ".join(members), merged))
    return result


def _components(nodes: list[str], after: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components, importers before what they import, ties in the order of ``nodes``."""
    position = {n: i for i, n in enumerate(nodes)}
    before: dict[str, set[str]] = {n: set() for n in nodes}
    for n, targets in after.items():
        for t in targets:
            before[t].add(n)
    reach = {n: _reachable(n, after) for n in nodes}
    comp = {n: tuple(sorted((m for m in nodes if m in reach[n] and n in reach[m]), key=position.__getitem__)) for n in nodes}
    remaining = sorted(set(comp.values()), key=lambda c: position[c[0]])
    ordered: list[list[str]] = []
    done: set[str] = set()
    while remaining:  # Kahn's algorithm on the components, first ready component in node order
        for c in remaining:
            if all(p in done or p in c for m in c for p in before[m]):
                ordered.append(list(c))
                done.update(c)
                remaining.remove(c)
                break
    return ordered


def _reachable(start: str, after: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in after.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
