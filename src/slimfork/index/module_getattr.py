"""The names a module ``__getattr__`` may answer, when it writes them out.

jsonschema's deprecated names: ``def __getattr__(name): if name == "ErrorTree": ... return ErrorTree`` and
``format_checkers = {"draft3_format_checker": ...}; format_checkers.get(name)``. When every use of the parameter
is a comparison with literal strings (``name == "X"``, ``name in ("X", "Y")``), the key of a ``.get(name)`` /
``[name]`` on a dict literal the function binds once (or its module, where the module only looks keys up in it:
dramatiq's ``_module_importers.get(name)``), a value formatted into an f-string (an error message) or
the argument of an exception (``AttributeError(name)``),
the function can answer only those literals: any other name raises ``AttributeError`` (or returns what the
function returns for it, which the literals do not name: still no name of the module). None when not known.
Symbol pruning then keeps only what the function names (``index.symbols``), and the tests stage and the import
check know which names of the module are gone: a pruned name the function does not answer is gone.
"""

from __future__ import annotations

import ast

__all__ = ["getattr_answers", "module_tables"]


def getattr_answers(node: ast.FunctionDef | ast.AsyncFunctionDef,
                    module: dict[str, frozenset[str]] | None = None) -> frozenset[str] | None:
    """The literal names ``node`` (a module ``__getattr__``) may answer; None when not known. ``module``: the
    module's own dict literals that only such lookups read (``module_tables``), unless the function binds the name."""
    args = node.args
    if len(args.args) + len(args.posonlyargs) != 1 or args.vararg or args.kwarg or args.kwonlyargs:
        return None
    param = (args.posonlyargs + args.args)[0].arg
    tables = _local_tables(node)
    if tables is None:
        return None
    bound = {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load)}
    tables = {**{n: keys for n, keys in (module or {}).items() if n not in bound}, **tables}
    parents = {id(child): parent for parent in ast.walk(node) for child in ast.iter_child_nodes(parent)}
    out: set[str] = set()
    for sub in ast.walk(node):
        if not (isinstance(sub, ast.Name) and sub.id == param) or sub is (args.posonlyargs + args.args)[0]:
            continue
        if not isinstance(sub.ctx, ast.Load):
            return None  # rebound
        parent = parents.get(id(sub))
        found = _compared(parent, sub) if isinstance(parent, ast.Compare) else frozenset() if _error(parent) else \
            _looked_up(parent, parents, tables) if isinstance(parent, (ast.Call, ast.Subscript)) else \
            frozenset() if isinstance(parent, ast.FormattedValue) else None
        if found is None:
            return None
        out |= found
    return frozenset(out)


def _error(parent: ast.AST | None) -> bool:
    """``AttributeError(name)``: an exception built with the name (its message) answers nothing."""
    if not isinstance(parent, ast.Call):
        return False
    func = parent.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name.endswith(("Error", "Exception", "Warning")) and name[:1].isupper()


def _compared(cmp: ast.Compare, name: ast.Name) -> frozenset[str] | None:
    if len(cmp.ops) != 1:
        return None
    other = cmp.comparators[0] if cmp.left is name else cmp.left
    op = cmp.ops[0]
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(other, ast.Constant) and isinstance(other.value, str):
        return frozenset({other.value})
    if isinstance(op, (ast.In, ast.NotIn)) and cmp.left is name and isinstance(other, (ast.Tuple, ast.List, ast.Set)) \
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in other.elts):
        return frozenset(e.value for e in other.elts)  # type: ignore[attr-defined]
    return None


def _looked_up(parent: ast.AST, parents: dict[int, ast.AST], tables: dict[str, frozenset[str]]) \
        -> frozenset[str] | None:
    """``table.get(name)`` or ``table[name]`` on a dict literal the function or its module binds once."""
    if isinstance(parent, ast.Subscript) and isinstance(parent.value, ast.Name) and parent.value.id in tables:
        return tables[parent.value.id]
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and parent.func.attr == "get" \
            and isinstance(parent.func.value, ast.Name) and parent.func.value.id in tables and not parent.keywords \
            and len(parent.args) == 1:
        return tables[parent.func.value.id]
    return None


def _local_tables(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, frozenset[str]] | None:
    """Local names bound once, by ``name = {"lit": ..., ...}``, never rebound, declared global or deleted."""
    counts: dict[str, int] = {}
    tables: dict[str, frozenset[str]] = {}
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            return None
        if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load):
            counts[sub.id] = counts.get(sub.id, 0) + 1
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name) \
                and isinstance(sub.value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                            for k in sub.value.keys):
            tables[sub.targets[0].id] = frozenset(k.value for k in sub.value.keys)  # type: ignore[union-attr]
    return {n: keys for n, keys in tables.items() if counts.get(n) == 1}


def module_tables(tree: ast.Module) -> dict[str, frozenset[str]]:
    """Module-level names bound once in the whole module, by ``NAME = {"lit": ..., ...}`` at module level, and only
    looked up anywhere in it (``NAME.get(x)``, ``NAME[x]``, ``x in NAME``): dramatiq's ``_module_importers =
    {"RedisBackend": import_redis, ...}`` that its ``__getattr__`` reads. A name declared ``global``, deleted,
    stored into, read any other way (``NAME.update``, passed on, iterated: its keys may change or leave) is none."""
    tables: dict[str, frozenset[str]] = {}
    for top in tree.body:
        if isinstance(top, ast.Assign) and len(top.targets) == 1 and isinstance(top.targets[0], ast.Name) \
                and isinstance(top.value, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                            for k in top.value.keys):
            tables[top.targets[0].id] = frozenset(k.value for k in top.value.keys)  # type: ignore[union-attr]
    if not tables:
        return {}
    parents = {id(child): parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    counts: dict[str, int] = {}
    for sub in ast.walk(tree):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            counts.update({n: 2 for n in sub.names})
        elif isinstance(sub, ast.Name) and sub.id in tables:
            if not isinstance(sub.ctx, ast.Load):
                counts[sub.id] = counts.get(sub.id, 0) + 1
            elif not _only_looked_up(sub, parents.get(id(sub)), parents):
                counts[sub.id] = 2
    return {n: keys for n, keys in tables.items() if counts.get(n) == 1}


def _only_looked_up(name: ast.Name, parent: ast.AST | None, parents: dict[int, ast.AST]) -> bool:
    if isinstance(parent, ast.Subscript) and parent.value is name:
        return isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.In, ast.NotIn)):
        return parent.comparators[0] is name
    call = parents.get(id(parent)) if isinstance(parent, ast.Attribute) and parent.attr == "get" else None
    return isinstance(call, ast.Call) and call.func is parent
