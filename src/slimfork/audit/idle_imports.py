"""Modules imported only by ``from`` imports whose names the importing file never uses.

AQLM ``a795ee6^`` ("removed matmul kernel"): ``src/aq.py`` still had ``from src.matmul_kernels import
aqlm_gemv_simple``, its one call commented out. The module counted as imported (by a script, so 30, or reached);
the clean-up deleted it. An import whose names nothing in the file reads binds nothing anyone uses: when every
importer of a module is such an import, the module runs only for its import side effects. Reported at 50 (the
import may still be wanted for those side effects). Package ``__init__`` files, names in ``__all__`` and star
imports re-export: they count as uses, as does any other kind of import (``import m``, strings, dynamic). An import
marked ``# noqa`` is there on purpose, and a module whose top level registers (a decorator call given a string,
``@RUNNER_REGISTER("wan2.1")``, or a bare call statement) is imported for that: LightX2V's ``infer.py`` imports
every runner module ``# noqa: F401`` so that its ``@RUNNER_REGISTER`` runs.

Dead code cascades (session 47, aphrodite ``4593a3b3^``): ``sampler.py``'s ``from ...ops.sample import sample as
sample_triton`` is read only inside ``_sample_with_triton_kernel``, a private function nothing calls (an
``unused-symbol`` at 60). An import whose names only such dead code reads is idle too, and a module imported only
by modules found idle here is idle with them (``ops/sample.py`` imports ``ops/rand.py``). Importers in tests are
set aside (what only tests use is unused code, as for unreached files), as long as one importer is not a test."""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Mapping, Set as AbstractSet
from pathlib import Path

from slimfork.audit.unused import in_test_folder, is_test_file
from slimfork.index.kernelscan import _MAX_LINES

CONFIDENCE = 50

DeadCode = Mapping[str, list[tuple[int, int, str]]]  # path -> (first line, last line, name) of unused symbols


def idle_import_modules(graph, index, scan, root_paths: AbstractSet[str], dead_code: DeadCode | None = None
                        ) -> dict[str, str]:
    """path -> why, for the non-package, non-test, non-root modules every importer of which (tests aside) binds
    names it never reads, or reads them only in ``dead_code`` of its file, or is such a module itself."""
    mm = graph.mm
    root = Path(graph.tree.root)
    lines: dict[str, list[str]] = {}
    out: dict[str, str] = {}
    candidates = []
    for name, info in mm.modules.items():
        path = info.path
        if not path or info.is_package or path in root_paths or is_test_file(path) or in_test_folder(path):
            continue
        sites = [(src, e) for src, e in graph.importers(name) if e.kind != "parent"
                 and not _in_tests(mm.modules[src].path)]
        if sites and not _registers(root / path):
            candidates.append((path, sites))
    changed = True
    while changed:  # a module only idle modules import is idle in turn
        changed = False
        for path, sites in candidates:
            if path in out:
                continue
            idle = []
            for src, edge in sites:
                src_path = mm.modules[src].path
                why = f"{src_path} (itself unused)" if src_path in out else \
                    _idle_site(src, edge, mm, index, scan, (dead_code or {}).get(src_path, []))
                if why is not None and "noqa" in _line(root, src_path, edge.line, lines):
                    why = None
                if why is None:
                    break
                idle.append(why)
            else:
                out[path] = "imported only by imports whose names nothing in the importing file reads (or only " \
                    "its unused code): " + ", ".join(idle[:3])
                changed = True
    return out


def _in_tests(path: str | None) -> bool:
    return path is not None and (is_test_file(path) or in_test_folder(path))


def _idle_site(src: str, edge, mm, index, scan, dead: list[tuple[int, int, str]]) -> str | None:
    """``path:line (names)`` when the import of ``edge`` in module ``src`` binds only names its file never reads,
    or reads only inside ``dead`` (spans of its unused symbols)."""
    if edge.kind != "from":
        return None
    info = mm.modules.get(src)
    if info is None or not info.path or info.is_package or posixpath.basename(info.path) == "__init__.py":
        return None  # a package re-exports what it imports
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
    if any(n in exported or n in py.strings for n in names | locals_):
        return None
    readers: list[str] = []
    for n in names | locals_:
        refs = py.refs.get(n, [])
        if len(refs) >= _MAX_LINES:
            return None  # read on more lines than the scan records
        for line in refs:
            holder = next((symbol for a, b, symbol in dead if a <= line <= b), None)
            if holder is None:
                return None
            readers += [holder] if holder not in readers else []
    return f"{info.path}:{edge.line} ({', '.join(sorted(names))}" + (
        f", read only in unused {', '.join(readers[:3])})" if readers else ")")


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
