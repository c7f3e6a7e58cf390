"""Name tables of a subclass registry: a module-level list, tuple or set whose every string names a registered
subclass (its class name or one of its keys), as a lazy loader's table of what it may import
(sqlglot's ``DIALECTS = ["Athena", "BigQuery", ...]``). The cut deletes the entries of removed subclasses, so
the loader treats their keys as keys it never had instead of importing a module the fork no longer has. An enum
of them (``class Dialects(str, Enum): BIGQUERY = "bigquery"``, every member named after a subclass, its key or the
base) loses the removed subclasses' members: iterating it gives only what the fork has."""

from __future__ import annotations

import libcst as cst

from slimfork.mapping.cut import _Cut
from slimfork.mapping.spec import key_form


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
            value: cst.BaseExpression | None
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


def cut_enum_tables(source: bytes, names: dict[str, bool], base: str) -> tuple[bytes | None, list[dict]]:
    """Classes whose body is only ``MEMBER = "string"`` lines, each naming a subclass (by the member's name or
    value) or the base class ``base``: the members of removed subclasses go."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None, []
    cut, body = [], []
    for stmt in module.body:
        members = _members(stmt)
        gone = []
        if members is not None and all(key_form(n) == key_form(base) or _keys(n, v, names) for n, v, _ in members):
            gone = [n for n, v, _ in members if _keys(n, v, names) and all(names[k] for k in _keys(n, v, names))]
        if members is not None and gone and len(gone) < len(members):
            assert isinstance(stmt, cst.ClassDef) and isinstance(stmt.body, cst.IndentedBlock)  # as _members found
            drop = {id(line) for n, _, line in members if n in gone}
            stmt = stmt.with_changes(body=stmt.body.with_changes(
                body=[s for s in stmt.body.body if id(s) not in drop]))
            cut.append({"variable": stmt.name.value, "removed": gone})
        body.append(stmt)
    if not cut:
        return None, []
    new = module.with_changes(body=body)
    return (new.code.encode(module.encoding) if isinstance(new.code, str) else new.code), cut


def _keys(name: str, value: str, names: dict[str, bool]) -> list[str]:
    return [k for k in {key_form(name), key_form(value)} if k in names]


def _members(stmt) -> list[tuple[str, str, cst.CSTNode]] | None:
    """(name, value, line) of each ``NAME = "value"`` of a class whose body (a docstring aside) is only those."""
    if not isinstance(stmt, cst.ClassDef) or not isinstance(stmt.body, cst.IndentedBlock):
        return None
    out: list[tuple[str, str, cst.CSTNode]] = []
    for i, line in enumerate(stmt.body.body):
        small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if i == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue  # the docstring
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
            return None
        target, value = small.targets[0].target, small.value
        if not (isinstance(target, cst.Name) and isinstance(value, cst.SimpleString)
                and isinstance(value.evaluated_value, str)):
            return None
        out.append((target.value, value.evaluated_value, line))
    return out if len(out) >= 2 else None
