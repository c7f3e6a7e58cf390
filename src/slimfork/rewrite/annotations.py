"""Drop the annotations of function-local assignments that name what the prune removed.

``self.manager: Optional[Manager] = None`` inside a function: Python never evaluates that annotation (PEP 526), so
symbol reachability does not count it as a use of ``Manager`` (``slimfork.index.symbols``). When the prune then
removes the import or definition of ``Manager``, the annotation would name an undefined global (pyflakes F821, and
a type checker's error): it goes, and the statement becomes ``self.manager = None``, byte for byte otherwise.
"""

from __future__ import annotations

import ast

from slimfork.index.parse import parse_python
from slimfork.index.scopes import ScopedVisitor


def drop_local_annotations(data: bytes, names: set[str]) -> tuple[bytes, int]:
    """``data`` without the annotations of function-local ``target: T = value`` statements whose ``T`` loads one
    of ``names``; also the number of statements changed."""
    if not names:
        return data, 0
    tree = parse_python(data)
    found = _Finder(names)
    found.visit(tree)
    if not found.spans:
        return data, 0
    starts = _line_starts(data)
    out = data
    for node in sorted(found.spans, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        target, annotation = node.target, node.annotation
        assert target.end_lineno is not None and target.end_col_offset is not None  # parsed: positions are set
        assert annotation.end_lineno is not None and annotation.end_col_offset is not None
        target_end = starts[target.end_lineno - 1] + target.end_col_offset
        colon = out.rfind(b":", target_end, starts[annotation.lineno - 1] + annotation.col_offset)
        equals = out.find(b"=", starts[annotation.end_lineno - 1] + annotation.end_col_offset)
        out = out[:target_end] + out[target_end:colon].rstrip() + b" " + out[equals:]
    return out, len(found.spans)


class _Finder(ScopedVisitor):
    def __init__(self, names: set[str]):
        super().__init__()
        self.names = names
        self.spans: list[ast.AnnAssign] = []

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if self.is_local_annotation(node) and _loads(node.annotation) & self.names:
            self.spans.append(node)
        self.generic_visit(node)


def _loads(node: ast.AST) -> set[str]:
    """The names an annotation loads, string annotations (``"Manager"``) included."""
    out = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    for const in ast.walk(node):
        if isinstance(const, ast.Constant) and isinstance(const.value, str):
            try:
                out |= _loads(ast.parse(const.value, mode="eval"))
            except (SyntaxError, ValueError, RecursionError):
                pass
    return out


def _line_starts(data: bytes) -> list[int]:
    starts, pos = [], 0
    for line in data.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return starts
