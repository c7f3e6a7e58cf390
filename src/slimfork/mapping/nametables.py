"""Name tables of a subclass registry: a module-level list, tuple or set whose every string names a registered
subclass (its class name or one of its keys), as a lazy loader's table of what it may import
(sqlglot's ``DIALECTS = ["Athena", "BigQuery", ...]``). The cut deletes the entries of removed subclasses, so
the loader treats their keys as keys it never had instead of importing a module the fork no longer has."""

from __future__ import annotations

import libcst as cst

from slimfork.mapping.cut import _Cut
from slimfork.testsuite.library import key_form


def cut_name_tables(source: bytes, names: dict[str, bool]) -> tuple[bytes | None, list[dict]]:
    """``names``: key_form of every subclass name and key -> whether it leaves. Returns the new source (None when
    no table changed) and, for each table cut, its variable and the removed strings."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None, []
    cut: list[dict] = []
    for variable, node in _tables(module):
        strings = [e.value.evaluated_value for e in node.elements]
        if len(strings) < 2 or any(key_form(s) not in names for s in strings):
            continue
        keep = {id(e) for e, s in zip(node.elements, strings) if not names[key_form(s)]}
        if len(keep) == len(strings):
            continue
        module = module.visit(_Cut(node, keep))
        cut.append({"variable": variable, "removed": [s for s in strings if names[key_form(s)]]})
    if not cut:
        return None, []
    return (module.code.encode(module.encoding) if isinstance(module.code, str) else module.code), cut


def _tables(module: cst.Module):
    """(variable, literal) of each ``NAME = [...]`` (or tuple, set; annotated or not) whose entries are all
    plain strings."""
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target, value = small.targets[0].target, small.value
            elif isinstance(small, cst.AnnAssign):
                target, value = small.target, small.value
            else:
                continue
            if isinstance(target, cst.Name) and isinstance(value, (cst.List, cst.Tuple, cst.Set)) and all(
                    isinstance(e, cst.Element) and isinstance(e.value, cst.SimpleString)
                    and isinstance(e.value.evaluated_value, str) for e in value.elements):
                yield target.value, value
