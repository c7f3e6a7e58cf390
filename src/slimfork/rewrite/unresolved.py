"""Mentions of the standard-library platform facts (``sys.platform``, ``os.name``, ``platform.system``) that the
fold did not match, each with the reason: a file that spells a fact but keeps its branch is never silent."""

from __future__ import annotations

import ast

from slimfork.facts.bindings import ModuleBindings
from slimfork.facts.evaluate import STDLIB_FACTS

_SPELLINGS = {fact.rpartition(".")[2]: fact for fact in STDLIB_FACTS}  # platform -> sys.platform, ...


def unresolved_mentions(tree: ast.Module, bindings: ModuleBindings, known: set[str],
                        matched_lines: set[int], reason: str | None = None) -> list[tuple[int, str]]:
    """(line, why) for each read of ``known`` stdlib facts, spelled ``<base>.<attr>``, that no fold matched.
    ``matched_lines``: the statement lines where the fold matched a fact; ``reason``: why none was (a whole-file
    failure), instead of the reason of each mention."""
    out: list[tuple[int, str]] = []
    for stmt, node, local in _mentions(tree):
        fact = _SPELLINGS.get(node.attr)
        base = node.value.id
        if fact is None or fact not in known or fact.split(".")[0] != _module_of(base, bindings, fact):
            continue
        start = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])
        if any(start <= line <= node.lineno for line in matched_lines):
            continue
        spelled = f"{base}.{node.attr}"
        if reason:
            why = reason
        elif isinstance(node.ctx, (ast.Store, ast.Del)):
            why = "assigned or deleted here, not read"
        elif base in local:
            why = f"`{base}` is a local name of the function here (not the module `{fact.split('.')[0]}`)"
        elif base in bindings.ambiguous:
            why = f"`{base}` is bound more than once in this module (rebound, or imported from several places)"
        else:
            why = "its value is used in a way no fold decides (kept as written)"
        out.append((node.lineno, f"`{spelled}` ({fact}) not folded: {why}"))
    return out


def _module_of(base: str, bindings: ModuleBindings, fact: str) -> str | None:
    """The module ``base`` names: its import, or (when bound several ways) the fact's module if it is spelled so."""
    target = bindings.imports.get(base)
    if target is not None:
        return target
    return base if base in bindings.ambiguous or base == fact.split(".")[0] else None


def _mentions(tree: ast.Module):
    """(innermost statement, ``name.attr`` node, names the enclosing functions bind) for every such node."""
    def walk(node: ast.AST, stmt: ast.stmt | None, local: frozenset[str]):
        for child in ast.iter_child_nodes(node):
            inner_local = local
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner_local = local | _bound(child)
            inner_stmt = child if isinstance(child, ast.stmt) else stmt
            if isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name) and inner_stmt is not None:
                yield inner_stmt, child, local
            yield from walk(child, inner_stmt, inner_local)

    yield from walk(tree, None, frozenset())


def _bound(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    args = function.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a}
    for node in ast.walk(function) if not isinstance(function, ast.Lambda) else ():
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return frozenset(names)
