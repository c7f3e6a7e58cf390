"""The literal pieces of a name built at run time (``f"_create_{name}_backend"``, ``"_on_" + event``,
``"_handle_%s" % kind``): the identifier text right before a computed piece (a name may start so) and right
after one (it may end so)."""

from __future__ import annotations

import ast
import re

_EDGE_START = re.compile(r"^\w+")
_EDGE_END = re.compile(r"\w+$")


def edges(node: ast.AST) -> tuple[set[str], set[str]]:
    """The prefixes and suffixes an f-string, ``+`` or ``%`` expression builds names with (none for others)."""
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    if isinstance(node, ast.JoinedStr):
        pieces(node.values, prefixes, suffixes)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        for part in _operands(node):
            if isinstance(part, ast.BinOp):
                pieces([part.left, part.right], prefixes, suffixes)
    return prefixes, suffixes


def _operands(node: ast.BinOp):
    yield node
    for side in (node.left, node.right):
        if isinstance(side, ast.BinOp) and isinstance(side.op, (ast.Add, ast.Mod)):
            yield from _operands(side)


def pieces(values: list, prefixes: set[str], suffixes: set[str]) -> None:
    """The identifier characters of each literal piece next to a computed one (a ``None`` or any node that is
    not a string constant); ``%s`` inside a literal is a computed piece too."""
    texts: list[str | None] = []
    for value in values:
        if isinstance(value, str):
            texts.extend(split_percent(value))
        elif isinstance(value, ast.Constant) and isinstance(value.value, str):
            texts.extend(split_percent(value.value))
        else:
            texts.append(None)
    for k, text in enumerate(texts):
        if text is None:
            continue
        if k > 0 and texts[k - 1] is None and (m := _EDGE_START.match(text)):
            suffixes.add(m.group())
        if k + 1 < len(texts) and texts[k + 1] is None and (m := _EDGE_END.search(text)):
            prefixes.add(m.group())


def split_percent(text: str) -> list[str | None]:
    return interleave(re.split(r"%[sdr]", text))


def interleave(parts: list[str]) -> list[str | None]:
    """Literal parts with a computed piece (None) between each two."""
    out: list[str | None] = []
    for k, part in enumerate(parts):
        if k:
            out.append(None)
        out.append(part)
    return out


