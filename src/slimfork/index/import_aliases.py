"""Other names of the import functions: ``from importlib import import_module as im``, ``_load =
importlib.import_module``, ``load = functools.partial(importlib.import_module, package=__package__)``. A call
through one is read as a call of the function itself, with what the ``partial`` fixed put first; so is a ``partial``
called or mapped where it is made (``map(partial(import_module, package=__package__), [".x"])``, session 45)."""

from __future__ import annotations

import ast
from slimfork.index.walk import walk

IMPORTERS = ("import_module", "__import__", "run_module")


def import_aliases(tree: ast.Module) -> dict[str, tuple[str, list[ast.expr], list[ast.keyword]]]:
    """Local name -> (the import function, positional arguments and keywords a ``partial`` fixed)."""
    out: dict[str, tuple[str, list[ast.expr], list[ast.keyword]]] = {}
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("importlib", "runpy", "builtins"):
            out.update({a.asname: (a.name, [], []) for a in node.names if a.asname and a.name in IMPORTERS})
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if (name := _importer(value)) is not None:
                out[node.targets[0].id] = (name, [], [])
            elif (fixed := _partial(value)) is not None:
                out[node.targets[0].id] = fixed
    return out


def _partial(node: ast.expr) -> tuple[str, list[ast.expr], list[ast.keyword]] | None:
    """``functools.partial(importlib.import_module, package=__package__)``: the function and what it fixes."""
    if isinstance(node, ast.Call) and _name(node.func) == "partial" and node.args \
            and (name := _importer(node.args[0])) is not None:
        return name, list(node.args[1:]), list(node.keywords)
    return None


def through_alias(call: ast.Call, aliases) -> ast.Call:
    """The call as a call of the import function its name stands for (the call itself when it is no alias); ``map(
    importlib.import_module, [f"{__package__}.plugins.{n}" for n in NAMES])`` as a call on the comprehension's
    element (or on the iterable, a name of a literal list)."""
    if isinstance(call.func, ast.Name) and call.func.id == "map" and 2 <= len(call.args) <= 3 and not call.keywords \
            and (_importer(call.args[0]) is not None or _name(call.args[0]) in aliases
                 or _partial(call.args[0]) is not None):
        func, *iterables = call.args  # map(import_module, NAMES, [__package__] * len(NAMES)): one call per item
        return through_alias(ast.copy_location(ast.Call(func, [_element(i) for i in iterables], []), call), aliases)
    if (fixed := _partial(call.func)) is not None:  # partial(importlib.import_module, package=__package__)(".x")
        name, args, keywords = fixed
        func = ast.copy_location(ast.Name(name, ast.Load()), call.func)
        return ast.copy_location(ast.Call(func, [*args, *call.args], [*keywords, *call.keywords]), call)
    if not (isinstance(call.func, ast.Name) and call.func.id in aliases) or call.func.id in IMPORTERS:
        return call
    name, args, keywords = aliases[call.func.id]
    func = ast.copy_location(ast.Name(name, ast.Load()), call.func)
    return ast.copy_location(ast.Call(func, [*args, *call.args], [*keywords, *call.keywords]), call)


def _element(items: ast.expr) -> ast.expr:
    """What a mapped iterable gives each call: a comprehension's element, the item of ``[x] * n``; else the
    iterable (a name of a literal list reads as its items)."""
    if isinstance(items, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        return items.elt
    if isinstance(items, ast.BinOp) and isinstance(items.op, ast.Mult):
        for side in (items.left, items.right):
            if isinstance(side, (ast.List, ast.Tuple)) and len(side.elts) == 1:
                return side.elts[0]
    return items


def _importer(node: ast.expr) -> str | None:
    name = _name(node)
    return name if name in IMPORTERS else None


def _name(node: ast.expr) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
