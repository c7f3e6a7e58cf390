"""Library modules that only imports in branches Linux never runs reach (`if sys.platform == "win32": from .win
import x`): with the platform facts they are dead code, but the public-API glob would keep them as roots, so the
draft suggests dropping them. Unknown means live: a module named by a string, a dynamic import or a directory scan
stays out of the suggestion."""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field

from slimfork.graph.modules import resolve_import
from slimfork.index.summary import ImportEdge
from slimfork.init.platform import UNKNOWN, Found, _eval, _imported_names, _Scope
from slimfork.init.project import Project


@dataclass
class DeadModule:
    module: str
    path: str  # the file, or the folder of a package
    lines: int
    imports: list[str] = field(default_factory=list)  # "file:line" of the imports that never run on Linux


def platform_only_modules(project: Project, facts: list[Found]) -> list[DeadModule]:
    known = {f.name: f.value for f in facts if f.kind in ("flag", "predicate")}
    library = project.internal_modules()
    live_edges: dict[str, set[str]] = {}
    dead_imports: dict[str, list[str]] = {}
    for module, rel in library.items():
        tree = project.parse(rel)
        if tree is None:
            continue
        scope = _Scope(module, _imported_names(project, module, tree), known)
        for node, dead in _imports(tree.body, scope, False):
            for target in _targets(project, module, node):
                if dead:
                    dead_imports.setdefault(target, []).append(f"{rel}:{node.lineno}")
                else:
                    live_edges.setdefault(module, set()).add(target)
    # only what a dead import reaches can be dead: the rest (a public package nothing imports, an import cycle
    # of them) is live, and so is everything it imports
    candidates = _closure(set(dead_imports), live_edges)
    seeds = set(project.packages) | _entry_modules(project) | {m for m in library if m not in candidates}
    live = _closure(seeds, live_edges)
    while extra := _unknown_targets(project, live) - live:  # what live code may load by name (dead code loads none)
        live = _closure(live | extra, live_edges)
    dead = sorted(m for m in library if m not in live)
    out = []
    for module in dead:
        if any(module.startswith(d + ".") for d in dead):
            continue  # its package is suggested
        info = project.mm.modules[module]
        path = library[module].rsplit("/", 1)[0] if info.is_package else library[module]  # info.path
        out.append(DeadModule(module, path, project.module_lines(module), sorted(dead_imports.get(module, []))))
    return out


def _closure(start: set[str], edges: dict[str, set[str]]) -> set[str]:
    seen, queue = set(start), deque(start)
    while queue:
        for target in edges.get(queue.popleft(), ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen


def _imports(body, scope: _Scope, dead: bool):
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, dead
        elif isinstance(node, ast.If):
            value = _eval(node.test, scope)
            yield from _imports(node.body, scope, dead or (value is not UNKNOWN and not value))
            yield from _imports(node.orelse, scope, dead or (value is not UNKNOWN and bool(value)))
        else:
            for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                children = getattr(node, name, None)
                if isinstance(children, list):
                    yield from _imports([c for c in children if isinstance(c, ast.AST)], scope, dead)


def _targets(project: Project, module: str, node) -> set[str]:
    if isinstance(node, ast.Import):
        edges = [ImportEdge(a.name, 0, (), node.lineno, "import") for a in node.names]
    else:
        edges = [ImportEdge(node.module, node.level, tuple(a.name for a in node.names), node.lineno, "from")]
    return {t for e in edges for t in resolve_import(project.mm, module, e).targets}


def _unknown_targets(project: Project, importers: set[str]) -> set[str]:
    """Modules a string, a dynamic import or a directory scan of one of ``importers`` may load."""
    modules = project.internal_modules()
    out: set[str] = set()
    for module, rel in modules.items():
        if module not in importers:
            continue
        summary = project.index.files[rel]
        out |= {text for text, _line in summary.strings if text in modules}
        package = module if project.mm.modules[module].is_package else module.rpartition(".")[0]
        for dyn in summary.dynamic_imports:
            if not dyn.target or dyn.target.startswith("{="):  # a computed name (or one the graph evaluates): as
                # the audit does, the modules of the importer's own package
                out |= set(project.mm.descendants(package))
            elif dyn.prefix and dyn.target.startswith("."):  # a relative prefix: a part of the name starts with it
                part = "." + dyn.target.lstrip(".")
                out |= {m for m in modules if part in "." + m}
            elif dyn.prefix:
                out |= {m for m in modules if m.startswith(dyn.target)}
            else:
                out |= {m for m in modules if m == dyn.target or m.endswith("." + dyn.target.lstrip("."))}
        if summary.dir_scans:
            out |= set(project.mm.descendants(package))
    return out


def _entry_modules(project: Project) -> set[str]:
    dist = project.tree.dist
    values = list(dist.scripts.values()) + [v for g in dist.entry_points.values() for v in g.values()] if dist else []
    return {v.split(":")[0].strip() for v in values}
