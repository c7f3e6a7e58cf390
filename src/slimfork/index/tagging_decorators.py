"""Decorators that only tag what they decorate: ``def iso_register(code): def wrapper(cls): cls.__iso_code =
(code, cls.__name__); return cls; return wrapper`` (workalendar 17.0.0), or ``def mark(cls): cls.marked = True;
return cls``. Applying one sets attributes of the class and returns it: nothing else learns of the class, so it
registers nothing, and a class it decorates may leave when no kept code uses it (prune/inputs.py)."""

from __future__ import annotations

import ast

from slimfork.index.purity import is_pure


def tags_only(node: ast.stmt) -> bool:
    """A module-level function that only tags its one argument and returns it, or that returns such a function
    (a decorator factory), every value it stores calling nothing."""
    if not isinstance(node, ast.FunctionDef) or node.decorator_list:
        return False
    body = _without_docstring(node.body)
    if len(body) == 2 and isinstance(body[0], ast.FunctionDef) and isinstance(body[1], ast.Return) \
            and isinstance(body[1].value, ast.Name) and body[1].value.id == body[0].name:
        return not body[0].decorator_list and _tags_argument(body[0])
    return _tags_argument(node)


def _tags_argument(node: ast.FunctionDef) -> bool:
    args = node.args
    if len(args.args) != 1 or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return False
    name = args.args[0].arg
    body = _without_docstring(node.body)
    if not body:
        return False
    *stores, last = body
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == name):
        return False
    return all(isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(target := st.targets[0],
               ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == name
               and is_pure(st.value) for st in stores)


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body
