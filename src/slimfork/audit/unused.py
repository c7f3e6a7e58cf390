"""Finding kind "unused-file": Python files, and whole folders of them, that nothing reaches from the roots.

Roots default to the distribution's console scripts and entry points, its top-level packages (their
``__init__``) and its tests; a spec gives its own roots. Reachability is the module graph's
(``slimfork.graph``): imports, dynamic imports with literal names, module-naming strings, directory scans.
"""

from __future__ import annotations

import posixpath
import re

from slimfork.audit.model import Finding
from slimfork.graph import ModuleGraph
from slimfork.source.layout import SourceTree
from slimfork.spec.model import Root

_TEST_FILE = re.compile(r"(^|/)(test_[^/]*|[^/]*_test|conftest)\.py$")
_TEST_DIR = re.compile(r"(^|/)tests?/")


def is_test_file(path: str) -> bool:
    return bool(_TEST_FILE.search(path)) or (bool(_TEST_DIR.search(path)) and path.endswith(".py")
                                              and posixpath.basename(path).startswith(("test", "conftest")))


def default_roots(tree: SourceTree, python_paths: list[str], module_of, with_tests: bool = True) -> list[Root]:
    roots = [Root("module", pkg, text=f"{pkg} (a top-level package)") for pkg in tree.packages]
    if tree.dist:
        roots += [Root("script", name, text=f"script:{name}") for name in sorted(tree.dist.scripts)]
    if with_tests:
        roots += [Root("file", p, text=f"file:{p} (a test)") for p in python_paths
                  if is_test_file(p) and module_of(p) is not None]
    return roots


def reached_paths(graph: ModuleGraph) -> set[str]:
    return {info.path for name, info in graph.modules.items() if name in graph.reached and info.path}


def unused_findings(graph: ModuleGraph, python_paths: list[str], lines: dict[str, int]) -> list[Finding]:
    reached = reached_paths(graph)
    unreached = [p for p in python_paths if p not in reached]
    if not unreached:
        return []
    dead = set(unreached)
    folders: dict[str, list[str]] = {}
    for path in python_paths:
        folder = posixpath.dirname(path)
        while folder:
            folders.setdefault(folder, []).append(path)
            folder = posixpath.dirname(folder)
    whole = {f for f, files in folders.items() if all(p in dead for p in files)}
    top = sorted(f for f in whole if not any(f.startswith(o + "/") for o in whole))
    out: list[Finding] = []
    covered: set[str] = set()
    for folder in top:
        files = folders[folder]
        covered.update(files)
        total = sum(lines.get(p, 0) for p in files)
        out.append(Finding("unused-file", folder + "/", f"folder {folder}/ ({len(files)} Python files, {total} lines) "
                           "is not reached from the roots", _reason(graph), 70, folder + "/", None,
                           {"files": files, "lines": total}))
    for path in unreached:
        if path in covered:
            continue
        out.append(Finding("unused-file", path, f"{path} ({lines.get(path, 0)} lines) is not reached from the roots",
                           _reason(graph), 60, path, None, {"module": graph.module_of(path),
                                                           "lines": lines.get(path, 0)}))
    return out


def _reason(graph: ModuleGraph) -> str:
    roots = ", ".join(r.module for r in graph.roots[:4]) + (" ..." if len(graph.roots) > 4 else "")
    text = f"no import, dynamic import, module-naming string or directory scan reaches it from {roots}"
    if graph.uncertain:
        text += f" ({len(graph.uncertain)} places the analysis could not decide; see 'slimfork why')"
    return text
