"""The check behind ``[facts] never_instances``: kept code that still calls a declared class (``C(...)``)
contradicts the declaration. slimfork cannot prove the declaration; it can say where the fork itself disagrees
with it (a warning naming the fact and the line). A factory on the class (``C.create(...)``) or the class passed
around and called later is not seen: the declaration stays the user's claim."""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable

from slimfork.facts.model import INSTANCE


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
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name in declared:
                fact = declared[name]
                out.append(f"{fact.key}: {fact.target} is declared to have no objects, but {rel}:{node.lineno} "
                           f"creates one")
    return out
