"""Decorators with a literal argument that only wrap what they decorate: `@deprecated("use x instead")`,
`@timer("load font")`. Their arguments are messages, not registry keys, so `init` drafts no registry for them.

A decorator only wraps when its definition (a function, or the `__call__` of the class of the instance it is)
hands back a `functools.wraps` wrapper and stores nothing anywhere: no item assignment, no `append`/`add`/`register`
/`setdefault`-style call, no `setattr`, no `global`, and no call handing a function it defines or is given to
anything but `wraps` (or a builtin that inspects it). Anything else might register, so it stays a draft."""

from __future__ import annotations

import ast
from collections.abc import Callable

STORING_METHODS = frozenset({"append", "add", "setdefault", "update", "insert", "extend", "register", "__setitem__"})
WRAPPERS = frozenset({"wraps", "update_wrapper"})
INSPECTORS = frozenset({"isinstance", "callable", "getattr", "hasattr", "id", "type", "repr", "str", "len", "cast"})

Qualify = Callable[[str, ast.AST], "str | None"]  # (module, expression) -> qualified name


def only_wraps(target: str, trees: dict[str, ast.Module], qualify: Qualify) -> bool:
    definition = _definition(target, trees, qualify)
    if definition is None:
        return False
    functions = _function_names(definition)
    wraps = False
    for node in ast.walk(definition):
        if isinstance(node, (ast.Global, ast.Nonlocal)) or _stores(node) or _hands_on(node, functions):
            return False
        if isinstance(node, ast.Call) and _last_name(node.func) in WRAPPERS:
            wraps = True
    return wraps


def _definition(target: str, trees: dict[str, ast.Module], qualify: Qualify) -> ast.AST | None:
    module, _, name = target.rpartition(".")
    tree = trees.get(module)
    if tree is None:
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
        if isinstance(node, ast.ClassDef) and node.name == name:
            return _method(node, "__call__")
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and isinstance(node.value, ast.Call) and (cls := qualify(module, node.value.func)):
            owner, _, cls_name = cls.rpartition(".")
            found = next((n for n in trees.get(owner, ast.Module(body=[], type_ignores=[])).body
                          if isinstance(n, ast.ClassDef) and n.name == cls_name), None)
            return _method(found, "__call__") if found else None
    return None


def _method(cls: ast.ClassDef, name: str) -> ast.AST | None:
    return next((n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name),
                None)


def _function_names(definition: ast.AST) -> set[str]:
    """What could be the decorated function or its wrapper: the nested definitions and their parameters, and the
    parameters of a `__call__` (a decorator factory's own parameters are its message, level, category)."""
    names = set()
    for node in ast.walk(definition):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if node is definition and getattr(node, "name", "") != "__call__":
                continue
            args = node.args
            names |= {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
            if not isinstance(node, ast.Lambda) and node is not definition:
                names.add(node.name)
    return names - {"self", "cls"}


def _hands_on(node: ast.AST, functions: set[str]) -> bool:
    if not isinstance(node, ast.Call) or _last_name(node.func) in WRAPPERS | INSPECTORS:
        return False
    values = [*node.args, *(k.value for k in node.keywords)]
    return any(isinstance(v, ast.Name) and v.id in functions for v in values)


def _stores(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        return (isinstance(func, ast.Attribute) and func.attr in STORING_METHODS) \
            or (isinstance(func, ast.Name) and func.id == "setattr")
    return False


def _last_name(node: ast.AST) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
