"""Metaclasses that only rewrite the class they create, so defining a class with one (or a subclass of such a class)
registers nothing anywhere::

    class _CustomCalendarType(type):
        def __new__(cls, name, bases, namespace):
            for attr in (key for key in tuple(namespace.keys()) if key[0] != "_"):
                namespace[f"{attr}_CUSTOM"] = namespace[attr]
                del namespace[attr]
            return super().__new__(cls, name, bases, namespace)

A class statement whose metaclass is one of these has no import-time effect beyond binding its name, and its
subclasses in other modules neither (``TopStatement.hook`` stays false). Answered only when every part is known:

- the metaclass is a class of the same module bound once there, undecorated, with ``type`` or ``ABCMeta`` as its only
  base and no keyword; its body holds a docstring, literal assignments and undecorated methods, none of them
  ``__prepare__``, ``__init_subclass__`` or ``__set_name__``;
- its ``__new__`` and ``__init__`` store only into local names and into the items of their own parameters but the
  first (``namespace[k] = v``, ``del namespace[k]``), bind no global, define no function, and call only
  ``super().__new__``/``__init__`` (``type.__new__``, ...), side-effect-free builtins, and methods of their
  parameters and locals that change nothing outside them.
"""

from __future__ import annotations

import ast

from slimfork.index.metaclass_guard import dotted, module_classes

_BASES = frozenset({"type", "ABCMeta", "abc.ABCMeta"})
_CREATION = frozenset({"__new__", "__init__"})
_FORBIDDEN = frozenset({"__prepare__", "__init_subclass__", "__set_name__"})
_PURE_BUILTINS = frozenset({"tuple", "list", "dict", "set", "frozenset", "len", "isinstance", "issubclass", "str",
                            "repr", "sorted", "reversed", "enumerate", "zip", "range", "getattr", "hasattr", "any",
                            "all", "min", "max", "bool", "int", "callable", "iter", "next", "type", "id", "super"})
_READING_METHODS = frozenset({"keys", "values", "items", "get", "copy", "startswith", "endswith", "format", "join",
                              "lower", "upper", "replace", "split", "rsplit", "strip", "lstrip", "rstrip", "count",
                              "index", "partition", "rpartition", "isidentifier", "isupper", "islower"})
_CHANGING_METHODS = frozenset({"pop", "setdefault", "update", "append", "extend", "insert", "remove", "add",
                               "discard", "clear", "popitem"})


def namespace_only_metaclasses(tree: ast.Module) -> frozenset[str]:
    """Names of the module's metaclasses whose class creation only rewrites the class being made."""
    candidates = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.bases
                  and all(dotted(b) in _BASES for b in n.bases)]
    if not candidates:
        return frozenset()
    once = module_classes(tree)
    return frozenset(n.name for n in candidates if once.get(n.name) is n and _only_rewrites(n))


def _only_rewrites(meta: ast.ClassDef) -> bool:
    if meta.decorator_list or meta.keywords:
        return False
    for stmt in meta.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets) \
                and isinstance(stmt.value, ast.Constant):
            continue
        if not isinstance(stmt, ast.FunctionDef) or stmt.decorator_list or stmt.name in _FORBIDDEN:
            return False
        if stmt.name in _CREATION and not _method_only_rewrites(stmt):
            return False
    return True


def _method_only_rewrites(func: ast.FunctionDef) -> bool:
    params = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    params += [a.arg for a in (func.args.vararg, func.args.kwarg) if a is not None]
    if not params:
        return False
    writable = set(params[1:])
    for node in (n for stmt in func.body for n in ast.walk(stmt)):
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                             ast.Lambda, ast.Yield, ast.YieldFrom, ast.Await, ast.Import, ast.ImportFrom)):
            return False
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) \
                and not (isinstance(node.value, ast.Name) and node.value.id in writable):
            return False
        if isinstance(node, ast.Call) and not _harmless_call(node, writable):
            return False
    return True


def _harmless_call(call: ast.Call, writable: set[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _PURE_BUILTINS
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    if func.attr in _CREATION:  # super().__new__(cls, ...), type.__init__(cls, ...)
        return isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super" \
            or dotted(owner) in _BASES
    if func.attr in _READING_METHODS:
        return True  # reads its owner; the owner's own calls are checked apart
    return func.attr in _CHANGING_METHODS and isinstance(owner, ast.Name) and owner.id in writable
