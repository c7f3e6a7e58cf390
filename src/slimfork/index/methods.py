"""What one module says about methods (stdlib ``ast``, read-only): the methods its top-level classes define
(dunders aside), every identifier it could reach a method by (attribute names, names, imported names, words in string
constants) and the identifier pieces it builds names from (``f"_create_{name}_backend"``, ``"_on_" + event``).

A private method (``_name``, not a dunder, not a sunder such as ``_missing_``) that no kept module names in any
of these ways is never called: symbol pruning removes it (``slimfork.prune.methods``); so is a public one when
the spec asks for it (``public_methods``)."""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from slimfork.index.name_pieces import edges, interleave, pieces
from slimfork.index.open_classes import OpenClass, open_classes
from slimfork.index.walk import walk

_WORD = re.compile(r"[A-Za-z_]\w*")


class MethodDef(NamedTuple):
    class_index: int  # the class statement's position in the module body
    class_name: str
    position: int  # the method's position in the class body
    name: str
    line: int  # first line, decorators included
    end: int
    decorators: tuple[str, ...]  # as written, without arguments


class MethodUsage(NamedTuple):
    methods: tuple[MethodDef, ...]
    words: frozenset[str]
    prefixes: frozenset[str]  # identifier text right before a computed piece of a string: a name may start so
    suffixes: frozenset[str]  # ... right after one: a name may end so
    open_classes: tuple[OpenClass, ...] = ()  # classes whose methods enumerate their namespace (dir(self))
    private_lookup: str = ""  # where a lookup builds a private name too short a piece narrows: "_" + name


_LOOKUPS = frozenset({"getattr", "hasattr", "methodcaller", "attrgetter", "__getattribute__", "getattr_static"})


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and not name.endswith("_")


def is_candidate(name: str) -> bool:
    """A private or a public method name: not a dunder (``__init__``) and not a sunder (``_missing_``)."""
    return is_private(name) or not name.startswith("_")


def method_usage(tree: ast.Module) -> MethodUsage:
    """Pieces of computed strings count only in a module that looks an attribute up by a computed name
    (``getattr(obj, name)``, ``operator.methodcaller(name)``): that is where a name built at run time is used."""
    methods = []
    for i, node in enumerate(tree.body):
        if not isinstance(node, ast.ClassDef):
            continue
        for j, stmt in enumerate(node.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_candidate(stmt.name):
                first = min([stmt.lineno] + [d.lineno for d in stmt.decorator_list])
                decorators = tuple(_decorator(d) for d in stmt.decorator_list)
                methods.append(MethodDef(i, node.name, j, stmt.name, first, stmt.end_lineno or stmt.lineno,
                                         decorators))
    words: set[str] = set()
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    computed = False
    private = ""
    for part in walk(tree):
        if isinstance(part, ast.Attribute):
            words.add(part.attr)
        elif isinstance(part, ast.Name):
            words.add(part.id)
        elif isinstance(part, ast.alias):
            words.update(_WORD.findall(part.name))
            if part.asname:
                words.add(part.asname)
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            words.update(_WORD.findall(part.value))
        elif isinstance(part, ast.JoinedStr):
            pieces(part.values, prefixes, suffixes)
        elif isinstance(part, ast.BinOp) and isinstance(part.op, (ast.Add, ast.Mod)):
            pieces([part.left, part.right], prefixes, suffixes)
        elif isinstance(part, ast.Subscript) and _namespace(part.value) and not _literal(part.slice):
            computed = True  # Impl.__dict__["_on_" + name], vars(cls)[name]
            private = private or (_private_piece(part.slice, part.lineno) if not _own(part.value) else "")
        elif isinstance(part, ast.Call):
            if _computed_lookup(part):
                computed = True
                owner = part.args[0] if part.args and _call_name(part) in ("getattr", "hasattr") else None
                private = private or (_private_piece(_name_arg(part), part.lineno) if not _own(owner) else "")
            if isinstance(part.func, ast.Attribute) and part.func.attr == "format" \
                    and isinstance(part.func.value, ast.Constant) and isinstance(part.func.value.value, str):
                pieces(interleave(re.split(r"\{[^{}]*\}", part.func.value.value)), prefixes, suffixes)
    if not computed:
        prefixes, suffixes = set(), set()
    return MethodUsage(tuple(methods), frozenset(words), frozenset(prefixes), frozenset(suffixes),
                       open_classes(tree), private)


def _namespace(node: ast.expr) -> bool:
    """``X.__dict__`` or ``vars(X)``: a class's (or an object's) namespace, read by key."""
    return isinstance(node, ast.Attribute) and node.attr == "__dict__" or isinstance(node, ast.Call) \
        and isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _own(node: ast.expr | None) -> bool:
    """``self``, ``cls``, ``type(self)``, ``self.__class__`` (and their ``__dict__``): the class's own lookups,
    which the open-class rule keeps its methods for (``index.open_classes``)."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        node = node.value
    return node is not None and ast.unparse(node) in ("self", "cls", "type(self)", "self.__class__")


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _private_piece(node: ast.expr | None, line: int) -> str:
    """``"_" + name``, ``f"_{name}"``: a private name whose literal piece narrows nothing (the prefix rule wants
    two letters or digits): where it is, else ""."""
    if node is None:
        return ""
    prefixes, _ = edges(node)
    found = next((p for p in prefixes if p.startswith("_") and sum(c.isalnum() for c in p) < 2), None)
    return f"'{ast.unparse(node)}' (line {line})" if found is not None else ""


def _name_arg(node: ast.Call) -> ast.expr | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    position = 0 if name in ("methodcaller", "attrgetter", "__getattribute__", "get", "pop", "setdefault") else 1
    return node.args[position] if len(node.args) > position else None


def _computed_lookup(node: ast.Call) -> bool:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name in ("get", "pop", "setdefault") and isinstance(func, ast.Attribute) and _namespace(func.value):
        return bool(node.args) and not _literal(node.args[0])  # Impl.__dict__.get("_on_" + event)
    if name not in _LOOKUPS:
        return False
    position = 0 if name in ("methodcaller", "attrgetter", "__getattribute__") else 1
    if len(node.args) <= position:
        return False
    arg = node.args[position]
    return not (isinstance(arg, ast.Constant) and isinstance(arg.value, str))


def _decorator(node: ast.AST) -> str:
    node = node.func if isinstance(node, ast.Call) else node
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - an odd decorator expression: named by its kind
        return type(node).__name__
