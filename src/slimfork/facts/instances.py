"""The check behind ``[facts] never_instances``: kept code that still calls a declared class (``C(...)``)
contradicts the declaration. slimfork cannot prove the declaration; it can say where the fork itself disagrees
with it (a warning naming the fact and the line). A call inside a method of a declared class never runs (no object of
it exists to call the method on; its static and class methods aside). A factory on the class (``C.create(...)``) or the class passed
around and called later is not seen: the declaration stays the user's claim."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from slimfork.facts.model import INSTANCE
from slimfork.index.parse import parse_python


def creation_warnings(facts, files: Iterable[tuple[str, bytes]]) -> list[str]:
    """``files``: (path, content) of every kept Python file of the fork."""
    declared = {f.target.rsplit(".", 1)[-1]: f for f in (facts.by_kind(INSTANCE) if facts else [])}
    if not declared:
        return []
    pattern = re.compile(rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(declared)) + rb")\b")
    out = []
    for rel, data in files:
        if not pattern.search(data):
            continue
        try:
            tree = parse_python(data)
        except (SyntaxError, ValueError):
            continue
        for node in _calls(tree, frozenset(declared)):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in declared:
                fact = declared[name]
                out.append(f"{fact.key}: {fact.target} is declared to have no objects, but {rel}:{node.lineno} "
                           f"creates one")
    return out


def _calls(node: ast.AST, declared: frozenset[str], inside: bool = False):
    """The calls under ``node``, except those in the instance methods of a declared class."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef) and child.name in declared:
            for item in child.body:
                static = isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in item.decorator_list)
                if static or not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield from _calls(item, declared)
                    if isinstance(item, ast.Call):
                        yield item
            continue
        if isinstance(child, ast.Call):
            yield child
        yield from _calls(child, declared)
