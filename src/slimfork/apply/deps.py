"""Which files of a set import which others: the order in which deleting and restoring them stays consistent.

Bisection restores prefixes of a batch's edits. A restored module whose imports are still deleted is broken in
its own right, so a prefix must bring back what its files import: edits are ordered dependencies first. Batches
are ordered the other way (a batch that imports another's files is applied first), so no batch deletes a file
that a later batch still has an import of. Resolution is by module name from file paths (``a/b.py`` is
``a.b``, under any folder prefix that the importing file shares): a heuristic that only orders, never decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from slimfork.index.build import summary_of
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.summary import GUARDED_TRY, ImportEdge


def dotted(path: str) -> str | None:
    """``a/b.py`` -> ``a.b``, ``a/__init__.py`` -> ``a``; None for a file that is not Python."""
    if not path.endswith(".py"):
        return None
    dotted = path[:-3].replace("/", ".")
    return dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted


def import_edges(root: Path, paths: Iterable[str], *, runtime_only: bool = False) -> dict[str, set[str]]:
    """For each .py file of ``paths`` (relative to ``root``), the files of ``paths`` it imports.
    ``runtime_only``: leave out the imports the imports check lets go missing (under ``if TYPE_CHECKING:``, or in a
    ``try:`` whose handler catches ImportError)."""
    paths = sorted(set(paths))
    by_module = {d: p for p in paths if (d := dotted(p)) is not None}
    edges: dict[str, set[str]] = {p: set() for p in paths}
    for path in paths:
        if dotted(path) is None:
            continue
        try:
            summary = summary_of((root / path).read_bytes())
        except OSError:
            continue
        for edge in summary.imports:
            if runtime_only and (edge.type_checking or GUARDED_TRY in (edge.condition or "")):
                continue
            for base in import_bases(path, edge):
                for name in [base] + [f"{base}.{n}" for n in edge.names if n != "*"]:
                    target = by_module.get(name)
                    if target is not None and target != path:
                        edges[path].add(target)
    return edges


def import_bases(path: str, edge: ImportEdge) -> list[str]:
    """The dotted names the module ``edge`` imports (``a.b`` of ``from a.b import c``) may have as a file path
    (see ``dotted``): a relative import's one module, an absolute import's under each folder prefix of ``path``."""
    module = dotted(path)
    if module is None:
        return []
    parts = module.split(".")
    if edge.level:
        base = absolute_module(package_of(module, path.endswith("__init__.py")), edge.level, edge.module)
        return [base] if base else []
    if not edge.module:
        return []
    return [".".join(parts[:i]) + "." + edge.module if i else edge.module for i in range(len(parts))]


def dependencies_first(paths: list[str], edges: dict[str, set[str]]) -> list[int]:
    """Indices of ``paths`` in an order where each file comes after the files it imports (cycles: by path)."""
    index = {p: i for i, p in enumerate(paths)}
    order: list[int] = []
    state: dict[str, int] = {}
    for start in sorted(paths):
        if start in state:
            continue
        stack = [(start, iter(sorted(edges.get(start, ()))))]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                state[node] = 2
                order.append(index[node])
            elif child in index and child not in state:
                state[child] = 1
                stack.append((child, iter(sorted(edges.get(child, ())))))
    return order
