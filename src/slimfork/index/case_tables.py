"""Module-level tables of a test file whose entries are cases its code loops over: mutagen's ``_FILETYPES =
{OggVorbis: [...], MP3: [...]}``, read only by ``for kind, paths in _FILETYPES.items()`` (``create_filetype_tests()``
makes a test class per entry at import, ``TFile.filenames`` yields each path) and filled by module-level item
stores (``_FILETYPES[ID3FileType] = _FILETYPES[MP3]``). An entry that names removed code is a case of that code:
the tests stage cuts it, and each store that names it, so the loops run the other cases and the file no longer
needs the removed modules to import."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from slimfork.index.param_tables import names_bound_or_read

_LOOPED = ("items", "keys", "values")


@dataclass(frozen=True)
class CaseTable:
    name: str
    line: int
    entries: tuple[tuple[ast.expr, ...], ...]  # each entry's parts: a dict's key and value, a list's element
    stores: tuple[ast.Assign, ...]  # the module-level ``NAME[key] = value`` statements, in order


def case_tables(tree: ast.Module) -> dict[str, CaseTable]:
    """The tables of ``tree``: a module-level ``NAME = {...}`` (no ``**``), ``[...]`` or ``(...)`` (no starred
    entry), bound nowhere else, filled only by module-level ``NAME[ref] = value`` statements whose value reads
    entries by references too (``NAME[MP3]``), and every other read of it a loop's (``for`` or a comprehension)
    over ``NAME`` or ``NAME.items()``/``.keys()``/``.values()``, one at least. Anything else (``len(NAME)``,
    ``NAME[k]`` elsewhere, passing it on) makes it no table: a cut entry could change what such code sees."""
    candidates: dict[str, tuple[ast.Assign, tuple[tuple[ast.expr, ...], ...]]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            entries = _entries(stmt.value)
            if entries is not None:
                candidates[stmt.targets[0].id] = (stmt, entries)
    if not candidates:
        return {}
    allowed = {id(stmt.targets[0]) for stmt, _ in candidates.values()}
    stores: dict[str, list[ast.Assign]] = {name: [] for name in candidates}
    for stmt in tree.body:
        name = _store_of(stmt, candidates)
        if name is not None:
            assert isinstance(stmt, ast.Assign)  # _store_of checked it
            stores[name].append(stmt)
            allowed.add(id(stmt.targets[0].value))  # type: ignore[attr-defined]  # a Subscript, checked
            allowed.update(id(n.value) for n in ast.walk(stmt.value) if isinstance(n, ast.Subscript))
    looped: set[str] = set()
    for node in ast.walk(tree):
        iters = [node.iter] if isinstance(node, (ast.For, ast.AsyncFor)) else \
            [g.iter for g in node.generators] if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp,
                                                                      ast.GeneratorExp)) else []
        for it in iters:
            if isinstance(it, ast.Call) and not it.args and not it.keywords and isinstance(it.func, ast.Attribute) \
                    and it.func.attr in _LOOPED:
                it = it.func.value
            if isinstance(it, ast.Name) and it.id in candidates:
                allowed.add(id(it))
                looped.add(it.id)
    for node in ast.walk(tree):
        if id(node) not in allowed:
            for name in names_bound_or_read(node) & candidates.keys():
                looped.discard(name)
    return {name: CaseTable(name, candidates[name][0].lineno, candidates[name][1], tuple(stores[name]))
            for name in sorted(looped)}


def _entries(value: ast.expr) -> tuple[tuple[ast.expr, ...], ...] | None:
    if isinstance(value, ast.Dict) and all(k is not None for k in value.keys):
        return tuple((k, v) for k, v in zip(value.keys, value.values) if k is not None)
    if isinstance(value, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return tuple((e,) for e in value.elts)
    return None


def _store_of(stmt: ast.stmt, candidates) -> str | None:
    """The table ``NAME[ref] = value`` fills, where every key it uses (its own, and the ``NAME[ref]`` its value
    reads) is a plain reference (a name or an attribute chain), else None."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)
            and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id in candidates):
        return None
    name = stmt.targets[0].value.id
    reads = [n for n in ast.walk(stmt.value) if isinstance(n, ast.Subscript)
             and isinstance(n.value, ast.Name) and n.value.id == name]
    keys = [stmt.targets[0].slice] + [n.slice for n in reads]
    return name if all(_reference(k) for k in keys) else None


def _reference(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)
