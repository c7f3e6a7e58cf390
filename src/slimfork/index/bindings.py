"""The facts' part of a file's summary: what each module-level name is bound to, in order, before relative imports
are resolved (``facts.bindings.read_bindings`` resolves them for the module the file is), the names given as strings
to ``setattr``/``patch``, and the literal ``__all__``."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import NamedTuple
from slimfork.index.walk import walk

_PATCHERS = {"setattr", "patch", "object", "setitem", "delattr"}


class FromName(NamedTuple):
    """``from <level dots><module> import <name>``, as written."""

    level: int
    module: str | None
    name: str


@dataclass
class BindingEvents:
    # name -> (kind, payload) for each binding, in order: "import" (a module name, or a FromName), "def", "assign"
    # (the value's source text), "del", "other"
    events: dict[str, list[tuple[str, str | FromName | None]]] = field(default_factory=dict)
    star_imports: list[tuple[int, str | None]] = field(default_factory=list)  # (level, module) as written
    all_names: list[str] | None = None
    patched: dict[str, int] = field(default_factory=dict)  # names given as strings to setattr/patch, or set as an
    # attribute of an imported module (``plat.IS_WIN = on``) -> line
    error: str | None = None


def binding_events(tree: ast.Module, text: str) -> BindingEvents:
    out = BindingEvents()
    events = out.events
    _src = source_segments(text)

    def add(name: str, kind: str, payload: str | FromName | None = None) -> None:
        events.setdefault(name, []).append((kind, payload))

    def statements(body, top: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        add(alias.asname, "import", alias.name)
                    else:
                        first = alias.name.split(".")[0]
                        add(first, "import", first)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == "*":
                        out.star_imports.append((node.level, node.module))
                    else:
                        add(alias.asname or alias.name, "import", FromName(node.level, node.module, alias.name))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                add(node.name, "def")
            elif isinstance(node, ast.Assign):
                simple = top and all(isinstance(t, ast.Name) for t in node.targets)
                for target in node.targets:
                    _targets(target, lambda n: add(n, "assign" if simple else "other", _src(node.value)))
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                    out.all_names = _strings(node.value)
            elif isinstance(node, ast.AnnAssign):
                simple = top and node.value is not None and isinstance(node.target, ast.Name)
                _targets(node.target, lambda n: add(n, "assign" if simple else "other",
                                                    _src(node.value) if node.value else None))
            elif isinstance(node, ast.Delete):  # `del sys` at the end: every read that succeeds sees the binding
                for target in node.targets:
                    _targets(target, lambda n: add(n, "del"))
            elif isinstance(node, ast.AugAssign):
                _targets(node.target, lambda n: add(n, "other"))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                _targets(node.target, lambda n: add(n, "other"))
                statements(node.body, False)
                statements(node.orelse, False)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        _targets(item.optional_vars, lambda n: add(n, "other"))
                statements(node.body, False)
            elif isinstance(node, (ast.If, ast.While)):
                statements(node.body, False)
                statements(node.orelse, False)
            elif isinstance(node, (ast.Try, ast.TryStar)):
                statements(node.body, False)
                for handler in node.handlers:
                    if handler.name:
                        add(handler.name, "other")
                    statements(handler.body, False)
                statements(node.orelse, False)
                statements(node.finalbody, False)
            elif isinstance(node, ast.Match):
                for case in node.cases:
                    statements(case.body, False)

    statements(tree.body, True)
    imported = {(a.asname or a.name).split(".")[0] for node in walk(tree)
                if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names}
    for node in walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):  # plat.IS_WIN = on: another module's flag set here
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id in imported:
                    out.patched.setdefault(target.attr, node.lineno)
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                add(name, "other")
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            add(node.target.id, "other")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in _PATCHERS:
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                        out.patched.setdefault(arg.value, node.lineno)
                        out.patched.setdefault(arg.value.rsplit(".", 1)[-1], node.lineno)
    return out


def _targets(target: ast.AST, add) -> None:
    if isinstance(target, ast.Name):
        add(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _targets(element, add)
    elif isinstance(target, ast.Starred):
        _targets(target.value, add)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")  # the lines ast.get_source_segment sees


def source_segments(text: str):
    """``ast.get_source_segment(text, node)`` as a function of ``node`` that splits ``text`` once (Python 3.11's
    splits it again, character by character, on every call)."""
    lines = _LINE.findall(text)

    def segment(node: ast.AST) -> str | None:
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        start, end = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if first is None or last is None or start is None or end is None:
            return None
        if first == last:
            return lines[first - 1].encode()[start:end].decode()
        return "".join([lines[first - 1].encode()[start:].decode(), *lines[first:last - 1],
                        lines[last - 1].encode()[:end].decode()])

    return segment


def _strings(node: ast.AST) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        strings = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if len(strings) == len(node.elts):
            return strings
    return None
