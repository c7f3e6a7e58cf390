"""Planned deletions that go with a rewriting batch instead of their own, later one.

A rewrite (a registry cut, a fact fold, symbol pruning applied early) can remove a function that a file the plan
deletes later still imports, even inside a function: sglang's ``dots_hybrid_backend.py`` imports
``create_dsa_backend`` from the attention registry whose "dsa" entry is cut. Between the two batches that file
would import a name its module no longer binds, and the rewrite's batch fails the imports check. So the file is
deleted in the rewrite's batch, and with it, transitively, every planned deletion that imports it: no file of
the fork outlives a file it imports.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from slimfork.apply.deps import dotted, import_bases, import_edges
from slimfork.index.build import summary_of


def deletions_with_rewrites(deleted: Iterable[str], rewrites: Sequence[tuple[str, Mapping[str, bytes]]],
                            root: Path) -> dict[str, tuple[int, str]]:
    """Path -> (index in ``rewrites`` of the batch it goes with, why) for each file of ``deleted`` that must go
    with a rewriting batch. ``rewrites``: the rewriting batches applied before the deletions, in order, each as
    (name, path -> new content); ``root``: the original tree.

    A file goes when it imports, in any scope, a name that one of the batch's rewrites removes: the imports check
    fails on a missing name even under ``if TYPE_CHECKING:`` or an ImportError guard, so those imports count too.
    So does, transitively, each planned deletion that imports a file that goes (there, imports under those two
    guards do not count: the check accepts a missing module under them).
    """
    deleted = sorted(set(deleted))
    losses = _losses(rewrites, root)
    moved: dict[str, tuple[int, str]] = {}
    if not losses:
        return moved
    needles = {name.encode() for _, _, lost in losses.values() for name in lost}
    for path in deleted:
        try:
            data = (root / path).read_bytes()
        except OSError:
            continue
        if dotted(path) is None or not any(needle in data for needle in needles):
            continue
        hits = imported_losses(path, data, losses)
        if hits:
            batch = min(b for b, _ in hits)
            what = "; ".join(f"{', '.join(sorted(names))}, which the rewrite of {rewritten} removes"
                             for (b, rewritten), names in sorted(hits.items()) if b == batch)
            moved[path] = (batch, f"deleted with the {rewrites[batch][0]} files: it imports {what}")
    if moved:
        _add_importers(moved, deleted, rewrites, root)
    return moved


def lost_names(root: Path, path: str, content: bytes) -> set[str]:
    """Names bound at module level in the original ``path`` that ``content`` no longer binds; none when either
    does not parse (the parse check's business) or the new content has a module ``__getattr__``; a package's
    submodules stay importable by name."""
    try:
        before = summary_of((root / path).read_bytes())
    except OSError:
        return set()
    after = summary_of(content)
    answers = after.symbols.getattr_answers  # a module __getattr__ that writes out its names answers only those
    if before.error or after.error or after.module_getattr and answers is None:
        return set()
    lost = set(before.defs) - set(after.defs) - set(answers or ())
    if path.endswith("__init__.py"):
        folder = (root / path).parent
        lost = {n for n in lost if not ((folder / f"{n}.py").is_file() or (folder / n).is_dir())}
    return lost


def _losses(rewrites, root: Path) -> dict[str, tuple[int, str, set[str]]]:
    """Module name (as ``dotted`` reads the path) -> (batch index, path, names lost), for each rewritten .py file
    that loses names; a file several batches rewrite counts in the first (the later ones write the same content)."""
    out: dict[str, tuple[int, str, set[str]]] = {}
    for index, (_, contents) in enumerate(rewrites):
        for path, content in sorted(contents.items()):
            module = dotted(path)
            if module is None or module in out or content is None:
                continue
            lost = lost_names(root, path, content)
            if lost:
                out[module] = (index, path, lost)
    return out


def imported_losses(path: str, data: bytes, losses) -> dict[tuple[int, str], set[str]]:
    """(batch index, rewritten file) -> the names it loses that ``path`` (its content: ``data``) imports."""
    hits: dict[tuple[int, str], set[str]] = defaultdict(set)
    for edge in summary_of(data).imports:
        if edge.kind != "from":
            continue
        for base in import_bases(path, edge):
            if base in losses:
                batch, rewritten, lost = losses[base]
                names = lost & set(edge.names)
                if names:
                    hits[batch, rewritten] |= names
    return hits


def _add_importers(moved: dict[str, tuple[int, str]], deleted: list[str], rewrites, root: Path) -> None:
    """Every planned deletion that imports a moved file goes with the earliest batch among those files."""
    importers: dict[str, set[str]] = defaultdict(set)
    for path, targets in import_edges(root, deleted, runtime_only=True).items():
        for target in targets:
            importers[target].add(path)
    for batch in sorted({b for b, _ in moved.values()}):
        todo = sorted(p for p, (b, _) in moved.items() if b == batch)
        while todo:
            gone = todo.pop()
            for importer in sorted(importers[gone]):
                if importer not in moved or moved[importer][0] > batch:
                    moved[importer] = (batch, f"deleted with the {rewrites[batch][0]} files: it imports {gone}, "
                                              "which goes with them")
                    todo.append(importer)
