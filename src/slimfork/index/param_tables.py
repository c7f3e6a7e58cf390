"""Module-level tables of a test file that only parametrize its tests: ``ALGS = (pkg.bag, pkg.mra)`` read by
nothing but ``@pytest.mark.parametrize("alg", ALGS)``. An entry naming removed code can be cut from the table:
the tests it parametrizes are tests of that code (``testsuite``), so the entry keeps nothing at import time."""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class ParamTable:
    name: str
    line: int
    entries: tuple[ast.expr, ...]  # the tuple's or list's elements, in order
    users: tuple[tuple[str, str], ...]  # (qualname of a test function or method, the argument it parametrizes)

    def cuttable(self, index: int) -> bool:
        """An entry that is a plain reference (``pkg.mra``, ``mra``): cutting it runs nothing less at import."""
        node = self.entries[index]
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name)


def param_tables(tree: ast.Module) -> dict[str, ParamTable]:
    """The tables of ``tree``: a module-level ``NAME = (...)`` or ``[...]`` (no starred entry), ``NAME`` bound
    nowhere else in the file, and every other read of it the values of a ``parametrize`` decorator, with one
    argument name, of a function or a method. Anything else (a loop over it, a ``len(ALGS)``, a second binding)
    makes it no table."""
    candidates: dict[str, tuple[ast.Name, ast.Tuple | ast.List]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, (ast.Tuple, ast.List)) \
                and not any(isinstance(e, ast.Starred) for e in stmt.value.elts):
            candidates[stmt.targets[0].id] = (stmt.targets[0], stmt.value)  # a second one: a read below drops it
    if not candidates:
        return {}
    users: dict[str, list[tuple[str, str]]] = {n: [] for n in candidates}
    allowed: set[int] = {id(target) for target, _ in candidates.values()}
    for qualname, func in _functions(tree):
        for deco in func.decorator_list:
            arg = _parametrized(deco)
            if arg is not None and isinstance(deco, ast.Call) and isinstance(deco.args[1], ast.Name) \
                    and deco.args[1].id in users:
                users[deco.args[1].id].append((qualname, arg))
                allowed.add(id(deco.args[1]))
    for node in ast.walk(tree):
        bound = names_bound_or_read(node)
        for name in bound & candidates.keys() if id(node) not in allowed else ():
            users.pop(name, None)
    return {n: ParamTable(n, candidates[n][0].lineno, tuple(candidates[n][1].elts), tuple(u))
            for n, u in users.items() if u}


def _functions(tree: ast.Module):
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt.name, stmt
        elif isinstance(stmt, ast.ClassDef):
            for sub in stmt.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{stmt.name}.{sub.name}", sub


def _parametrized(deco: ast.expr) -> str | None:
    """The one argument name of ``@pytest.mark.parametrize("alg", VALUES)`` (positional, no keyword: a list of
    ``ids`` goes by position), else None."""
    if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "parametrize"
            and len(deco.args) == 2 and not deco.keywords):
        return None
    names = deco.args[0]
    if isinstance(names, ast.Constant) and isinstance(names.value, str) and names.value.strip().isidentifier():
        return names.value.strip()
    return None


def names_bound_or_read(node: ast.AST) -> set[str]:
    """Every name ``node`` itself reads, binds or declares (a parameter, an import, a def, ``global``)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.arg):
        return {node.arg}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return set(node.names)
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.ExceptHandler) and node.name:
        return {node.name}
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return {node.name}
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return {node.value}  # globals()["ALGS"], getattr(module, "ALGS"): a read by name
    return set()
