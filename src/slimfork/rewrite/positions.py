"""Statement lines and local names for LibCST statements, taken from a parallel walk of the stdlib ``ast``.

LibCST's PositionProvider costs more than parsing; statements of both trees correspond one to one, in order,
so walking them side by side gives every LibCST statement its line span for the price of an ``ast.parse``.
Functions and classes also get the names they bind locally (which shadow module-level names).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from slimfork.index.purity import dotted_name


@dataclass(frozen=True, slots=True)
class StmtInfo:
    line: int
    end: int
    local_names: frozenset[str] = frozenset()
    # Function names bound exactly once: (name, (line, end of its block), how, what), how is "import"
    # (what = (level, module, attribute or None)), "alias" (what = the dotted name assigned) or "value" (what = the
    # ast expression assigned: a call or an operator, whose value the facts may decide).
    aliases: tuple = ()


def statement_info(module: cst.Module, tree: ast.Module) -> dict[int, StmtInfo]:
    out: dict[int, StmtInfo] = {}
    _body(list(module.body), list(tree.body), out)
    return out


def _body(cst_body, ast_body, out) -> None:
    i = 0
    for stmt in cst_body:
        if isinstance(stmt, cst.SimpleStatementLine):
            n = len(stmt.body)
            part = ast_body[i:i + n]
            if len(part) != n:
                return
            out[id(stmt)] = StmtInfo(part[0].lineno, part[-1].end_lineno or part[-1].lineno)
            i += n
            continue
        if i >= len(ast_body):
            return
        node = ast_body[i]
        i += 1
        _compound(stmt, node, out)


def _suite(block, ast_body, out) -> None:
    if isinstance(block, cst.IndentedBlock):
        _body(list(block.body), ast_body, out)


def _compound(stmt, node, out) -> None:
    line = node.lineno
    names: frozenset[str] = frozenset()
    if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.decorators and hasattr(node, "decorator_list"):
        line = min([line] + [d.lineno for d in node.decorator_list])
    aliases: tuple = ()
    if isinstance(stmt, cst.FunctionDef) and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        names = function_locals(node)
        aliases = function_aliases(node)
    elif isinstance(stmt, cst.ClassDef) and isinstance(node, ast.ClassDef):
        names = class_locals(node)
    out[id(stmt)] = StmtInfo(line, node.end_lineno or node.lineno, names, aliases)
    if isinstance(stmt, cst.If) and isinstance(node, ast.If):
        _suite(stmt.body, node.body, out)
        if isinstance(stmt.orelse, cst.If) and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            _compound(stmt.orelse, node.orelse[0], out)
        elif isinstance(stmt.orelse, cst.Else):
            _suite(stmt.orelse.body, node.orelse, out)
    elif isinstance(stmt, (cst.For, cst.While)) and isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        _suite(stmt.body, node.body, out)
        if stmt.orelse is not None:
            _suite(stmt.orelse.body, node.orelse, out)
    elif isinstance(stmt, (cst.Try, cst.TryStar)) and isinstance(node, (ast.Try, ast.TryStar)):
        _suite(stmt.body, node.body, out)
        handlers: Sequence[cst.ExceptHandler | cst.ExceptStarHandler] = stmt.handlers
        for handler, ast_handler in zip(handlers, node.handlers):
            _suite(handler.body, ast_handler.body, out)
        if stmt.orelse is not None:
            _suite(stmt.orelse.body, node.orelse, out)
        if stmt.finalbody is not None:
            _suite(stmt.finalbody.body, node.finalbody, out)
    elif isinstance(stmt, (cst.With, cst.FunctionDef, cst.ClassDef)) and hasattr(node, "body"):
        _suite(stmt.body, node.body, out)
    elif isinstance(stmt, cst.Match) and isinstance(node, ast.Match):
        for case, ast_case in zip(stmt.cases, node.cases):
            _suite(case.body, ast_case.body, out)


def function_locals(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """Every name bound anywhere inside a function (nested scopes included: an over-approximation that can
    only stop a fold, never cause a wrong one)."""
    names: set[str] = set()
    args = node.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
        if arg is not None:
            names.add(arg.arg)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not node:
            names.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            for alias in sub.names:
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            names.update(sub.names)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            names.add(sub.name)
        elif isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, (ast.MatchAs, ast.MatchStar)) and sub.name:
            names.add(sub.name)
        elif isinstance(sub, ast.MatchMapping) and sub.rest:
            names.add(sub.rest)
    return frozenset(names)


def function_aliases(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple:
    """Local names that only stand for something else: bound once in the whole function (nested scopes
    included), by a plain statement, as ``from m import f [as g]``, ``import a.b as c`` or ``x = a.b``
    (``platform = platforms.current_platform``). A fact about the target then applies to the name after that
    line and within the block that holds the statement (an ``if`` arm, say: code after the arm may run without
    it). Names declared ``global``/``nonlocal`` anywhere are not aliases."""
    counts: dict[str, int] = {}
    for sub in ast.walk(node):
        for name in _bound_names(sub):
            counts[name] = counts.get(name, 0) + 1
    out: list = []
    _block_aliases(node.body, counts, out)
    return tuple(out)


def _block_aliases(body: list, counts: dict[str, int], out: list) -> None:
    """Aliases bound by a statement of ``body``, valid from their line to the end of ``body`` (the block: a
    use there runs after the binding), and those of the blocks nested in it (not in nested functions)."""
    end = max((s.end_lineno or s.lineno) for s in body) if body else 0
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                local = alias.asname or alias.name
                if alias.name != "*" and counts.get(local) == 1:
                    out.append((local, (stmt.lineno, end), "import", (stmt.level, stmt.module, alias.name)))
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname and counts.get(alias.asname) == 1:
                    out.append((alias.asname, (stmt.lineno, end), "import", (0, alias.name, None)))
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            dotted_value = dotted_name(stmt.value)
            if counts.get(stmt.targets[0].id) != 1:
                continue
            if dotted_value:
                out.append((stmt.targets[0].id, (stmt.lineno, end), "alias", dotted_value))
            elif isinstance(stmt.value, (ast.Call, ast.UnaryOp, ast.BoolOp, ast.Compare)):
                out.append((stmt.targets[0].id, (stmt.lineno, end), "value", stmt.value))
        elif isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            for block in (stmt.body, getattr(stmt, "orelse", [])):
                _block_aliases(block, counts, out)
        elif isinstance(stmt, (ast.Try, ast.TryStar)):
            for block in (stmt.body, stmt.orelse, stmt.finalbody, *[h.body for h in stmt.handlers]):
                _block_aliases(block, counts, out)


def _bound_names(sub: ast.AST) -> list[str]:
    if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
        return [sub.id]
    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [sub.name]
    if isinstance(sub, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.split(".")[0] for alias in sub.names]
    if isinstance(sub, (ast.Global, ast.Nonlocal)):
        return list(sub.names) * 2  # never an alias
    if isinstance(sub, ast.ExceptHandler) and sub.name:
        return [sub.name]
    if isinstance(sub, ast.arg):
        return [sub.arg]
    if isinstance(sub, (ast.MatchAs, ast.MatchStar)) and sub.name:
        return [sub.name]
    return []


def class_locals(node: ast.ClassDef) -> frozenset[str]:
    names: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            continue
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                names.add(sub.id)
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                for alias in sub.names:
                    names.add(alias.asname or alias.name.split(".")[0])
    return frozenset(names)
