"""Submodules a module names from its own name: ``f"{__name__}.ops"`` and ``__package__ + ".impl"`` become the
placeholders ``{__name__}.ops`` and ``{__package__}.impl``, which the graph fills in (``ModuleInfo.fill_own``)."""

from __future__ import annotations

import ast
import re

_TAIL = re.compile(r"(?:\.[A-Za-z_]\w*)+")


def own_submodule(node: ast.AST) -> str | None:
    """The placeholder name an f-string or a concatenation of ``__name__``/``__package__`` and a literal gives."""
    if isinstance(node, ast.JoinedStr) and len(node.values) == 2:
        head, tail = node.values
        head = head.value if isinstance(head, ast.FormattedValue) else head
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        head, tail = node.left, node.right
    else:
        return None
    if isinstance(head, ast.Name) and head.id in ("__name__", "__package__") and isinstance(tail, ast.Constant) \
            and isinstance(tail.value, str) and _TAIL.fullmatch(tail.value):
        return f"{{{head.id}}}{tail.value}"
    return None


def own_submodules(tree: ast.AST) -> list[tuple[str, int]]:
    """Every such name in ``tree``, with its line."""
    return [(name, getattr(node, "lineno", 0)) for node in ast.walk(tree) if (name := own_submodule(node)) is not None]
