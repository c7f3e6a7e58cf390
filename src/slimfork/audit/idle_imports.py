"""Modules imported only by ``from`` imports whose names the importing file never uses.

AQLM ``a795ee6^`` ("removed matmul kernel"): ``src/aq.py`` still had ``from src.matmul_kernels import
aqlm_gemv_simple``, its one call commented out. The module counted as imported (by a script, so 30, or reached);
the clean-up deleted it. An import whose names nothing in the file reads binds nothing anyone uses: when every
importer of a module is such an import, the module runs only for its import side effects. Reported at 50 (the
import may still be wanted for those side effects). Package ``__init__`` files, names in ``__all__`` and star
imports re-export: they count as uses, as does any other kind of import (``import m``, strings, dynamic). An import
marked ``# noqa`` is there on purpose, and a module whose top level registers (a decorator call given a string,
``@RUNNER_REGISTER("wan2.1")``, or a bare call statement) is imported for that: LightX2V's ``infer.py`` imports
every runner module ``# noqa: F401`` so that its ``@RUNNER_REGISTER`` runs."""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Set as AbstractSet
from pathlib import Path

from slimfork.audit.unused import in_test_folder, is_test_file

CONFIDENCE = 50


def idle_import_modules(graph, index, scan, root_paths: AbstractSet[str]) -> dict[str, str]:
    """path -> why, for the non-package, non-test, non-root modules every importer of which binds names it
    never reads."""
    mm = graph.mm
    root = Path(graph.tree.root)
    lines: dict[str, list[str]] = {}
    out: dict[str, str] = {}
    for name, info in mm.modules.items():
        path = info.path
        if not path or info.is_package or path in root_paths or is_test_file(path) or in_test_folder(path):
            continue
        sites = [(src, e) for src, e in graph.importers(name) if e.kind != "parent"]
        if not sites or _registers(root / path):
            continue
        idle = []
        for src, edge in sites:
            why = _idle_site(src, edge, mm, index, scan)
            if why is not None and "noqa" in _line(root, mm.modules[src].path, edge.line, lines):
                why = None
            if why is None:
                break
            idle.append(why)
        else:
            out[path] = "imported only by imports whose names nothing in the importing file reads: " + \
                ", ".join(idle[:3])
    return out


def _idle_site(src: str, edge, mm, index, scan) -> str | None:
    """``path:line (names)`` when the import of ``edge`` in module ``src`` binds only names its file never reads."""
    if edge.kind != "from":
        return None
    info = mm.modules.get(src)
    if info is None or not info.path or info.is_package or posixpath.basename(info.path) == "__init__.py":
        return None  # a package re-exports what it imports
    if is_test_file(info.path) or in_test_folder(info.path):
        return None  # a test importing a module tests it (or that it imports): judged as tests are
    summary = index.files.get(info.path)
    py = scan.py.get(info.path)
    if summary is None or py is None or summary.error:
        return None
    stmts = [imp for imp in summary.imports if imp.line == edge.line and imp.names]
    names = {n for imp in stmts for n in imp.names}
    if not names or "*" in names:
        return None
    exported = set(summary.all_names or ()) | set(mm.all_names.get(src, ()))
    locals_ = {_local(py, n, edge.line) for n in names}
    if any(n in exported or n in py.refs or n in py.strings for n in names | locals_):
        return None
    return f"{info.path}:{edge.line} ({', '.join(sorted(names))})"


def _local(py, name: str, line: int) -> str:
    """The local name ``from m import name as local`` binds."""
    return next((local for local, _m, _level, n, ln in py.imports if n == name and ln == line), name)


def _line(root: Path, path: str, line: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = (root / path).read_text(errors="replace").splitlines()
        except OSError:
            cache[path] = []
    text = cache[path]
    return text[line - 1] if 0 < line <= len(text) else ""


def _registers(path: Path) -> bool:
    """Whether the module's top level has effects an import is for: a decorator call given a string (a registry
    key) or a bare call statement."""
    try:
        body = ast.parse(path.read_text(errors="replace")).body
    except (OSError, SyntaxError, ValueError):
        return True  # unknown: keep
    for node in body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            return True
        for d in getattr(node, "decorator_list", ()):
            if isinstance(d, ast.Call) and any(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                               for a in [*d.args, *(k.value for k in d.keywords)]):
                return True
    return False
