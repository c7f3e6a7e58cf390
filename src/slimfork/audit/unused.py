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


def scan_roots(graph: ModuleGraph, index) -> list[Root]:
    """Unknown means keep: for each directory scan the graph could not resolve (``pkgutil.iter_modules`` of a
    package named at run time), the modules of the packages it may scan become roots. Candidates are the
    packages named by dotted strings in the scanning file or in the modules that import it (the callers that
    pass the package name); with none, the scanning file's own package."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for u in graph.uncertain:
        if "directory scan" not in u.why:
            continue
        module = mm.module_of(u.path)
        files = [u.path] + [mm.modules[src].path for src, _e in graph.importers(module or "")
                            if mm.modules[src].path]
        packages = {text for f in files for text, _line in index.files[f].strings
                    if text in mm.modules and mm.modules[text].is_package}
        if not packages and module:
            info = mm.modules[module]
            packages = {module if info.is_package else module.rsplit(".", 1)[0]}
        for package in sorted(packages):
            for child in mm.children.get(package, []):
                if mm.modules[child].path and child not in out:
                    out[child] = Root("module", child, text=f"{child} (the directory scan at {u.path}:{u.line} "
                                                           f"may import it)")
    return list(out.values())


def lazy_roots(graph: ModuleGraph, index) -> list[Root]:
    """Unknown means keep: a reached package whose ``__init__`` defines a module-level ``__getattr__`` (PEP 562
    lazy exports) may import any submodule its strings name relative to it (``"norm.norm_triton:rms_norm"``)."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for name, info in mm.modules.items():
        if not info.is_package or not info.path or name not in graph.reached:
            continue
        summary = index.files[info.path]
        if not summary.module_getattr:
            continue
        for text, line in summary.strings:
            target = mm.longest_module(f"{name}.{text}")
            if target and target != name and target.startswith(name + ".") and target not in out:
                out[target] = Root("module", target, text=f"{target} (the lazy __getattr__ of {name} may import it, "
                                                          f"{info.path}:{line})")
    return list(out.values())


def fstring_roots(graph: ModuleGraph, scan) -> list[Root]:
    """Unknown means keep: module paths built from a module constant in a reached module,
    ``f"{_PACKAGE}.sm120_fp8:run"`` with ``_PACKAGE = "pkg.kernels"`` (kernel and plugin registries)."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for path, py in scan.py.items():
        module = mm.module_of(path)
        if not py.named_fstrings or module not in graph.reached:
            continue
        for name, rest, line in py.named_fstrings:
            prefix = py.constants.get(name)
            if prefix is None:
                continue
            dotted = (prefix + rest).split(":", 1)[0].split("{...}", 1)[0].rstrip(".")
            target = mm.longest_module(dotted)
            if target and target != module and mm.modules[target].path and target not in out \
                    and (target == dotted or not mm.modules[target].is_package):
                out[target] = Root("module", target, text=f"{target} (named by f-string at {path}:{line})")
    return list(out.values())


def listing_roots(graph: ModuleGraph, scan) -> list[Root]:
    """Unknown means keep: a reached module that lists its own folder (``os.listdir(os.path.dirname(__file__))``,
    ``Path(__file__).parent.glob(...)``) may import anything below it."""
    mm = graph.mm
    out: dict[str, Root] = {}
    for path, py in scan.py.items():
        module = mm.module_of(path)
        if not py.listings or not py.uses_file or module not in graph.reached:
            continue
        info = mm.modules[module]
        package = module if info.is_package else module.rpartition(".")[0]
        if not package:
            continue
        for child in mm.descendants(package):
            if mm.modules[child].path and child not in out:
                out[child] = Root("module", child, text=f"{child} (the folder listing at {path}:{py.listings[0]} "
                                                        "may import it)")
    return list(out.values())


def script_roots(graph: ModuleGraph, index) -> list[Root]:
    """Python files a reached module names as a file ("prepare_pack.py"): scripts it runs or reads. The file
    nearest to the module that names it is taken (most path components in common)."""
    mm = graph.mm
    by_name: dict[str, list[str]] = {}
    for path in index.files:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    out: dict[str, Root] = {}
    for module in graph.reached:
        info = mm.modules.get(module)
        if not info or not info.path:
            continue
        for text, line in index.files[info.path].strings:
            if not text.endswith(".py") or text.count(".") != 1 or text in _GENERIC_FILES:
                continue
            candidates = by_name.get(text, [])
            if not candidates:
                continue
            best = max(_common(c, info.path) for c in candidates)
            for path in candidates:
                target = mm.module_of(path)
                if _common(path, info.path) == best and target and target not in out:
                    out[target] = Root("module", target, text=f"{target} (named as a file at {info.path}:{line})")
    return list(out.values())


_GENERIC_FILES = {"__init__.py", "__main__.py", "setup.py", "conftest.py"}


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/")):
        if x != y:
            break
        n += 1
    return n


def reached_paths(graph: ModuleGraph) -> set[str]:
    return {info.path for name, info in graph.modules.items() if name in graph.reached and info.path}


def unused_findings(graph: ModuleGraph, python_paths: list[str], lines: dict[str, int],
                    runnable: frozenset[str] = frozenset()) -> list[Finding]:
    """``runnable``: files with an ``if __name__ == "__main__":`` block or named ``__main__.py``; nothing
    imports them, but a user may run them (``python -m``), so they are reported with a low confidence."""
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
        main = f"{folder}/__main__.py" in files or all(p in runnable for p in files)
        out.append(Finding("unused-file", folder + "/", f"folder {folder}/ ({len(files)} Python files, {total} lines) "
                           "is not reached from the roots",
                           _reason(graph) + ("; it holds scripts or a __main__.py, it may be run by hand" if main else ""),
                           30 if main else 70, folder + "/", None, {"files": files, "lines": total}))
    for path in unreached:
        if path in covered:
            continue
        script = path in runnable
        out.append(Finding("unused-file", path, f"{path} ({lines.get(path, 0)} lines) is not reached from the roots",
                           _reason(graph) + ("; it is a script (__main__ block), it may be run by hand" if script
                                             else ""), 30 if script else 60, path, None,
                           {"module": graph.module_of(path), "lines": lines.get(path, 0)}))
    return out


def _reason(graph: ModuleGraph) -> str:
    roots = ", ".join(r.module for r in graph.roots[:4]) + (" ..." if len(graph.roots) > 4 else "")
    text = f"no import, dynamic import, module-naming string or directory scan reaches it from {roots}"
    if graph.uncertain:
        text += f" ({len(graph.uncertain)} places the analysis could not decide; see 'slimfork why')"
    return text
