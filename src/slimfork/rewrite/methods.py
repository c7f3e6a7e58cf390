"""Unused methods (``[facts] unused_methods``): methods the deployment never calls, because the code picks them
by a computed name (``getattr(self, f"forward_{platform}")``, a table of method names per platform) that the
facts fix to another platform. No condition names them, so folding alone cannot see they are dead.

A declared name is removed from every class body that defines it, unless code that stays still names it as an
attribute (``self.forward_cpu(x)``) outside the methods being removed: then the fact is contradicted somewhere,
and unknown means keep (the report lists where). A class body that binds one under another name
(``forward_native = forward_cpu``) keeps it in that class. Strings naming the method (a dispatch table) do not count:
that is the computed dispatch the fact is about. The names only those methods used then go with the fold's
clean-up (``if _is_npu: import torch_npu`` arms, helpers, imports).
"""

from __future__ import annotations

import ast
from collections import Counter

import libcst as cst

from slimfork.rewrite.comments import comments_of
from slimfork.rewrite.fold_nodes import Fold


def method_uses(tree: ast.AST, names: frozenset[str]) -> tuple[list[tuple[str, str, int]], list[tuple[str, int]]]:
    """In one file: the declared methods it defines ((class, name, line)) and the attribute reads of a declared
    name outside those methods ((name, line))."""
    defs: list[tuple[str, str, int]] = []
    spans: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in names:
                    defs.append((node.name, stmt.name, stmt.lineno))
                    spans.append((_first_line(stmt), stmt.end_lineno or stmt.lineno))
    refs = [(node.attr, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in names
            and not any(a <= node.lineno <= b for a, b in spans)]
    return defs, refs


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


class MethodRemover(cst.CSTTransformer):
    """Delete the methods named in ``names`` from every class body (a body left empty becomes ``pass``)."""

    def __init__(self, names: frozenset[str], lines: dict[tuple[str, str], int]):
        super().__init__()
        self.names = names
        self.lines = lines  # (class, method) -> its line in the original, for the report
        self.folds: list[Fold] = []
        self.dropped: Counter[str] = Counter()

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        body = updated_node.body
        if not isinstance(body, cst.IndentedBlock):
            return updated_node
        bound = _names_read(body.body) & self.names  # `forward_native = forward_cpu`: an alias reads it
        kept = []
        for stmt in body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in self.names - bound:
                line = self.lines.get((updated_node.name.value, stmt.name.value), 0)
                self.folds.append(Fold(line, "method", f"{updated_node.name.value}.{stmt.name.value}: never "
                                                       "called (unused_methods)"))
                self.dropped.update(comments_of(stmt))
                continue
            kept.append(stmt)
        if len(kept) == len(body.body):
            return updated_node
        if not kept:
            kept = [cst.SimpleStatementLine([cst.Pass()])]
        return updated_node.with_changes(body=body.with_changes(body=kept))


def _names_read(body) -> set[str]:
    """The names a class body reads outside its methods' bodies (an alias, a decorator's argument)."""
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    for stmt in body:
        parts = stmt.decorators if isinstance(stmt, cst.FunctionDef) else [stmt]
        for part in parts:
            part.visit(_Names())
    return found
