"""A read-only ``ast`` visitor that knows which definitions enclose the node it visits."""

from __future__ import annotations

import ast


class ScopedVisitor(ast.NodeVisitor):
    """Tracks the functions, classes and lambdas around the visited node in ``scopes`` (their node types)."""

    def __init__(self):
        self.scopes: list[type] = []

    def _scoped(self, node: ast.AST) -> None:
        self.scopes.append(type(node))
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _scoped

    def is_local_annotation(self, node: ast.AnnAssign) -> bool:
        """``x: T = v`` (or ``self.x: T = v``) directly in a function body: Python never evaluates ``T`` (PEP 526)."""
        return node.value is not None and bool(self.scopes) \
            and self.scopes[-1] in (ast.FunctionDef, ast.AsyncFunctionDef)
