"""Names a membership check confines to literal strings: after ``if name not in CHOICES: raise ...`` (or ``return``,
``continue``, ``break``, ``sys.exit(...)``) in the same block, and inside ``if name in CHOICES:``, ``name`` is one of
the strings, where ``CHOICES`` is a literal collection of strings (a dict: its keys) or a name the scope binds once
to one. A CLI's ``__main__`` checks its subcommand so before ``import_module(f"pkg.{subcommand}")``: the import
names those modules, not every module of ``pkg``. A name bound again after the check is unknown again."""

from __future__ import annotations

import ast
from collections import Counter

_EXITS = ("sys.exit", "exit", "quit", "os._exit")
_BLOCKS = ("body", "orelse", "finalbody")


def guarded_values(tree: ast.Module) -> dict[int, dict[str, list[str]]]:
    """Call id -> {name: the strings a membership check confines it to}, for the calls after or inside one."""
    out: dict[int, dict[str, list[str]]] = {}
    _visit_scope(tree, out)
    return out


def _visit_scope(scope: ast.AST, out: dict[int, dict[str, list[str]]]) -> None:
    stores = Counter(n.id for n in ast.walk(scope) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
    choices: dict[str, list[str]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and stores[node.targets[0].id] == 1 and (values := _strings(node.value)):
            choices[node.targets[0].id] = values
    _visit_block(getattr(scope, "body", []), {}, choices, out)


def _visit_block(stmts: list[ast.stmt], active: dict[str, list[str]], choices: dict[str, list[str]],
                 out: dict[int, dict[str, list[str]]]) -> None:
    for stmt in stmts:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _visit_scope(stmt, out)  # runs later, with names of its own
            continue
        if isinstance(stmt, ast.ClassDef):
            _visit_block(stmt.body, {}, choices, out)
            continue
        rebound = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        active = {k: v for k, v in active.items() if k not in rebound}
        if active:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call):
                    out[id(node)] = {**out.get(id(node), {}), **active}
        check = _membership(stmt, choices) if isinstance(stmt, ast.If) else None
        if check is not None and check[2] and isinstance(stmt, ast.If) and not stmt.orelse and _exits(stmt.body):
            active = {**active, check[0]: check[1]}  # if name not in CHOICES: raise
            continue
        for field in _BLOCKS:
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                narrowed = {**active, check[0]: check[1]} if check and not check[2] and field == "body" else active
                _visit_block(inner, narrowed, choices, out)
        for handler in getattr(stmt, "handlers", []):
            _visit_block(handler.body, active, choices, out)


def _membership(stmt: ast.If, choices: dict[str, list[str]]) -> tuple[str, list[str], bool] | None:
    """(name, strings, negated) of ``if name in CHOICES`` / ``if name not in CHOICES``."""
    test = stmt.test
    if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.In, ast.NotIn))):
        return None
    seq = test.comparators[0]
    values = choices.get(seq.id) if isinstance(seq, ast.Name) else _strings(seq)
    return (test.left.id, values, isinstance(test.ops[0], ast.NotIn)) if values else None


def _exits(body: list[ast.stmt]) -> bool:
    last = body[-1]
    if isinstance(last, (ast.Raise, ast.Return, ast.Continue, ast.Break)):
        return True
    return isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and ast.unparse(last.value.func) in _EXITS


def _strings(value: ast.expr) -> list[str] | None:
    elts = value.keys if isinstance(value, ast.Dict) else value.elts \
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else None
    if not elts or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in elts):
        return None
    return [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
