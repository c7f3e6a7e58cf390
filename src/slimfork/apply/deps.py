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

from slimfork.index.parse import summarize


def _dotted(path: str) -> str | None:
    if not path.endswith(".py"):
        return None
    dotted = path[:-3].replace("/", ".")
    return dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted


def import_edges(root: Path, paths: Iterable[str]) -> dict[str, set[str]]:
    """For each .py file of ``paths`` (relative to ``root``), the files of ``paths`` it imports."""
    paths = sorted(set(paths))
    by_module = {d: p for p in paths if (d := _dotted(p)) is not None}
    edges: dict[str, set[str]] = {p: set() for p in paths}
    for path in paths:
        module = _dotted(path)
        if module is None:
            continue
        try:
            summary = summarize((root / path).read_bytes())
        except OSError:
            continue
        parts = module.split(".")
        package = parts if path.endswith("__init__.py") else parts[:-1]
        prefixes = [".".join(parts[:i]) + "." if i else "" for i in range(len(parts))]
        for edge in summary.imports:
            if edge.level:
                if edge.level - 1 > len(package):
                    continue
                base = ".".join(package[: len(package) - (edge.level - 1)] + ([edge.module] if edge.module else []))
                bases, roots = [base], [""]
            else:
                if not edge.module:
                    continue
                bases, roots = [edge.module], prefixes
            for base in bases:
                names = [base] + [f"{base}.{n}" for n in edge.names if n != "*"]
                for root_prefix in roots:
                    for name in names:
                        target = by_module.get(root_prefix + name)
                        if target is not None and target != path:
                            edges[path].add(target)
    return edges


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
