"""The names a module ``__getattr__`` may answer, when it writes them out.

jsonschema's deprecated names: ``def __getattr__(name): if name == "ErrorTree": ... return ErrorTree`` and
``format_checkers = {"draft3_format_checker": ...}; format_checkers.get(name)``. When every use of the parameter
is a comparison with literal strings (``name == "X"``, ``name in ("X", "Y")``), the key of a ``.get(name)`` /
``[name]`` on a dict literal the function binds once, a value formatted into an f-string (an error message) or
the argument of an exception (``AttributeError(name)``),
the function can answer only those literals: any other name raises ``AttributeError`` (or returns what the
function returns for it, which the literals do not name: still no name of the module). None when not known.
Symbol pruning then keeps only what the function names (``index.symbols``), and the tests stage and the import
check know which names of the module are gone: a pruned name the function does not answer is gone.
"""

from __future__ import annotations

import ast

__all__ = ["getattr_answers"]


def getattr_answers(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str] | None:
    """The literal names ``node`` (a module ``__getattr__``) may answer; None when not known."""
    args = node.args
    if len(args.args) + len(args.posonlyargs) != 1 or args.vararg or args.kwarg or args.kwonlyargs:
        return None
    param = (args.posonlyargs + args.args)[0].arg
    tables = _local_tables(node)
    if tables is None:
        return None
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
    """``table.get(name)`` or ``table[name]`` on a dict literal the function binds once."""
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
