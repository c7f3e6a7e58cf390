"""Finding kind "eager-import": package ``__init__`` files that import much when the package is imported.

Static by default: the imports that run at import time (module scope, not under ``TYPE_CHECKING``), the
names they bind, and the project modules they pull in transitively with their lines. With ``python`` (the
interpreter of a verification environment) the cost is measured with ``python -X importtime``.
"""

from __future__ import annotations

import re
import subprocess
from collections import deque

from slimfork.audit.model import Finding
from slimfork.graph import ModuleGraph
from slimfork.index.build import Index

_EAGER_KINDS = ("import", "from", "parent")


def eager_closure(graph: ModuleGraph, module: str) -> set[str]:
    """Project modules imported (transitively) when ``module`` is imported: module-scope imports only."""
    seen, queue = {module}, deque([module])
    while queue:
        current = queue.popleft()
        for edge in graph.edges.get(current, ()):
            if edge.kind in _EAGER_KINDS and edge.target not in seen and _runs_at_import(edge.detail):
                seen.add(edge.target)
                queue.append(edge.target)
    return seen


def _runs_at_import(detail: str) -> bool:
    return "inside a" not in detail and "TYPE_CHECKING" not in detail


def eager_findings(graph: ModuleGraph, index: Index, min_names: int = 30, min_modules: int = 10,
                   python: str | None = None) -> list[Finding]:
    """Package ``__init__`` files that bind at least ``min_names`` names by eager imports, or import at
    least ``min_modules`` project modules directly at import time."""
    out: list[Finding] = []
    for name, info in sorted(graph.modules.items()):
        if not info.is_package or info.path is None:
            continue
        summary = index.files[info.path]
        eager = [i for i in summary.imports if i.scope == "module" and not i.type_checking]
        names = sum(len(i.names) if i.names else 1 for i in eager)
        direct = {e.target for e in graph.edges.get(name, ()) if e.kind in ("import", "from")
                  and _runs_at_import(e.detail) and not name.startswith(e.target)}
        if names < min_names and len(direct) < min_modules:
            continue
        closure = eager_closure(graph, name) - {name}
        lines = sum(index.files[graph.modules[m].path].lines for m in closure if graph.modules[m].path)
        details = {"statements": len(eager), "names": names, "direct_modules": sorted(direct),
                   "modules": len(closure), "lines": lines}
        measured = ""
        if python:
            cost = measure_import(python, name, str(graph.tree.python_root))
            if cost is not None:
                details["import_ms"] = cost
                measured = f", measured {cost:.0f} ms"
        out.append(Finding("eager-import", name, f"{info.path} imports {names} names eagerly ({len(eager)} "
                           f"statements, {len(direct)} project modules directly), pulling in {len(closure)} modules / "
                           f"{lines} lines{measured}",
                           "these imports run whenever the package is imported; lazy imports (module "
                           "__getattr__) or narrower __init__ exports would defer them", 50, info.path, None,
                           details))
    return out


def measure_import(python: str, module: str, cwd: str) -> float | None:
    """Cumulative import time of ``module`` in ms, from ``python -X importtime`` (None if it fails)."""
    try:
        proc = subprocess.run([python, "-X", "importtime", "-c", f"import {module}"], cwd=cwd,
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    for line in reversed(proc.stderr.splitlines()):
        m = re.match(r"import time:\s*\d+\s*\|\s*(\d+)\s*\|\s*(.*)$", line)
        if m and m.group(2).strip() == module:
            return int(m.group(1)) / 1000
    return None
