"""One walk per syntax tree while a file is summarised: the summary's passes each look at every node of the module
(about 50 walks a file), and walking is most of their cost. ``walk(tree)`` is ``ast.walk(tree)`` as a list, taken
once per tree inside ``shared_walks()`` (the passes never change the tree) and afresh outside it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager

_WALKS: dict[int, tuple[ast.AST, list[ast.AST]]] | None = None


def walk(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in ``ast.walk``'s order."""
    if _WALKS is None:
        return list(ast.walk(tree))
    known = _WALKS.get(id(tree))
    if known is None or known[0] is not tree:
        known = _WALKS[id(tree)] = (tree, list(ast.walk(tree)))
    return known[1]


@contextmanager
def shared_walks() -> Iterator[None]:
    """Within the block, each tree is walked once (nested blocks share the outer one's walks)."""
    global _WALKS
    outer = _WALKS
    if outer is None:
        _WALKS = {}
    try:
        yield
    finally:
        if outer is None:
            _WALKS = None
