"""Run the audit: index and graph once, then each finding kind over them."""

from __future__ import annotations

import posixpath

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from slimfork.audit.documented import copied_files, documented_modules
from slimfork.audit.dotted_holes import dotted_hole_findings
from slimfork.audit.duplicates import duplicate_findings
from slimfork.audit.eager import eager_findings
from slimfork.audit.exports import unused_export_findings
from slimfork.audit.hidden_roots import (
    beside_roots,
    fstring_roots,
    hidden_root_triggers,
    lazy_roots,
    listing_roots,
    native_import_roots,
    relative_roots,
    relocated_roots,
    scan_roots,
    script_roots,
)
from slimfork.audit.idle_imports import CONFIDENCE as IDLE_IMPORT, DeadCode, idle_import_modules
from slimfork.audit.kernels import kernel_findings
from slimfork.audit.layout import audit_module_map, audit_tree, nested_library_packages, unimported_packages
from slimfork.audit.path_loads import path_load_roots, path_template_loads, script_loads
from slimfork.audit.symbols import symbol_findings
from slimfork.audit.kerneltable import KernelTable, kernel_table
from slimfork.audit.model import KINDS, AuditResult, Finding
from slimfork.audit.projection import projection
from slimfork.audit.public import in_unshipped, is_public_path, library_package_of, library_packages, \
    installed_packages, unshipped_folders
from slimfork.audit.samename import same_name_findings
from slimfork.audit.scan import scan_tree
from slimfork.audit.scriptuse import script_support, top_level_scripts
from slimfork.audit.stale_scripts import stale_script_copies, with_stale_copies
from slimfork.audit.builders import built_extension_modules
from slimfork.audit.tests import compiled_sources, extension_names, test_findings
from slimfork.audit.pythonpath import pythonpath_modules
from slimfork.audit.toolrun import tool_run_files
from slimfork.audit.unused import (
    default_roots,
    defines_tests,
    deprecated_shims,
    forwarders,
    in_test_folder,
    is_example,
    is_test_file,
    kind_reason,
    reached_paths,
    test_data_folders,
    unused_findings,
)
from slimfork.errors import SlimforkError, did_you_mean
from slimfork.graph import build_graph
from slimfork.index.build import build_index
from slimfork.source.installed_names import installed_patterns, matches
from slimfork.source.layout import SourceTree
from slimfork.spec.model import RegistrySpec, Root


@dataclass
class AuditOptions:
    kinds: set[str] = field(default_factory=lambda: set(KINDS))
    min_similarity: float = 0.8  # duplicates: 0..1
    min_lines: int = 20  # duplicates: files shorter than this (code lines) are not compared
    python: str | None = None  # eager imports: an interpreter to measure import time with
    jobs: int | None = None


def spec_test_roots(python_paths: list[str], module_of, index, globs: Sequence[str] | None) -> list[Root]:
    """The test files of a spec's tests: under its globs, or anywhere where it has none; every ``conftest.py``
    (pytest loads one above the tests it runs)."""
    from slimfork.globs import first_match

    out = []
    for p in python_paths:
        if module_of(p) is None or not (is_test_file(p) or defines_tests(p, index.files.get(p))):
            continue
        if globs is None or first_match(list(globs), p) is not None or posixpath.basename(p) == "conftest.py":
            out.append(Root("file", p, text=f"file:{p} (a test of the spec's tests)"))
    return out


def run_audit(tree: SourceTree, roots: list[Root] | None = None, registries: Sequence[RegistrySpec] = (),
              options: AuditOptions | None = None, tests: Sequence[str] | None = ()
              ) -> tuple[AuditResult, KernelTable | None]:
    """``roots``: a spec's (None: the audit's defaults, tests among them). With ``roots``, ``tests`` are roots too,
    apart (what only they reach is test-only, as without a spec): the test files under those globs, every test
    file for None (a spec with no ``tests`` key: ``audit --spec`` passes its globs, or None), none for ``()``
    (``tests = []``). ``audit --spec`` reported a spec's whole tests folder as unused."""
    options = options or AuditOptions()
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = round(now - clock, 2)
        clock = now

    index = build_index(tree.root, jobs=options.jobs)
    lap("index")
    python_paths = list(index.files)
    mm = audit_module_map(tree, index)
    spec_roots = roots is not None
    plain_roots = None
    loose: dict[str, str] = {}
    if roots is None:
        loose = unimported_packages(tree, index)
        roots = default_roots(tree, python_paths, mm.module_of, index=index, skip=set(loose))
    else:
        plain_roots = list(roots)
        roots = plain_roots + (spec_test_roots(python_paths, mm.module_of, index, tests) if tests != () else [])
    scan = scan_tree(index, jobs=options.jobs)
    lap("scan")
    loads = path_template_loads(tree.root, python_paths)
    graph, extra, ambiguous = audit_graph(tree, index, scan, roots, registries, mm, loads)
    reached = reached_paths(graph)
    reached_without_tests = reached
    if options.kinds & {"orphaned-test", "unused-file", "same-name"} and (not spec_roots or len(roots) > len(plain_roots or [])):
        without = plain_roots if plain_roots is not None else default_roots(tree, python_paths, mm.module_of,
                                                                           with_tests=False, skip=set(loose))
        plain = build_graph(tree, index, without + extra, list(registries), mm=mm)
        reached_without_tests = reached_paths(plain)
    lap("graph")
    result = AuditResult(str(tree.root))
    table = None
    test_only = {p for p in reached - reached_without_tests if not is_test_file(p) and not in_test_folder(p)
                 and not defines_tests(p, index.files.get(p))}
    lines = {p: s.lines for p, s in index.files.items()}
    runnable = frozenset(p for p, py in scan.py.items() if "__main__" in py.strings or p.endswith("/__main__.py"))
    runnable |= top_level_scripts(tree.root, [p for p in python_paths
                                                  if (p not in reached or p in test_only) and p not in runnable])
    libs = set() if spec_roots else library_packages(tree, graph, [r for r in python_paths if is_test_file(r)]) \
        | nested_library_packages(tree.root, python_paths, graph.module_of)
    # folders find_packages() leaves out, none of whose modules the tree's code imports (else an editable install
    # is how it is used: aiter's ater/ops/ without __init__.py, imported by ater/__init__.py)
    unshipped = {folder for folder in (unshipped_folders(tree.root, python_paths) if libs else ())
                 if not any(in_unshipped(p, {folder}) for p in reached_without_tests)}
    public = {p: library_package_of(graph.module_of(p), libs) or "" for p in python_paths
              if (p not in reached or p in test_only) and is_public_path(p, libs, graph.module_of(p))
              and not in_unshipped(p, unshipped)}
    modules = graph.mm.modules
    documented = {**copied_files(tree.root, index.other_files, python_paths),
                  **documented_modules(tree.root, index.other_files, lambda name: modules[name].path
                                       if name in modules else None)}
    for path, why in documented.items():
        if (path not in reached or path in test_only) and not spec_roots and path not in runnable \
                and not is_example(path):  # (scripts and example code: 30 already)
            public.setdefault(path, why)  # a README's `import pkg.mod`: users import it
    # files a shell script, CI workflow or tool configuration runs (python .github/scripts/x.py), Sphinx conf.py
    tool_run = tool_run_files(tree.root, python_paths, {p for p in python_paths if (p not in reached or p in test_only)
                                                        and p not in runnable})
    imported = {e.module.split(".")[0] for s in index.files.values() for e in s.imports if e.module and not e.level}
    for path, why in pythonpath_modules(tree.root, {p for p in python_paths if p not in reached and p not in runnable},
                                        imported).items():
        tool_run.setdefault(path, why)
    # a package only notebooks import: its __init__ is run by hand, with what it imports (AQLM's cpp_kernel/)
    tool_run.update({info.path: why for pkg, why in loose.items() if why and (info := graph.mm.modules.get(pkg))
                     and info.path and info.path not in reached})
    support = script_support(graph, index, set(runnable) | set(tool_run), reached - test_only) \
        if options.kinds & {"unused-file", "unused-kernel"} else {}
    symbols = symbol_findings(index, scan, reached) if options.kinds & {"unused-file", "unused-symbol"} else []
    if "unused-file" in options.kinds:
        unreached_paths = [p for p in python_paths if p not in reached]
        unknown = {**forwarders(graph, index, unreached_paths), **deprecated_shims(tree.root, unreached_paths),
                   **script_loads(loads, set(runnable) | set(tool_run) | set(support), reached), **ambiguous}
        if "__init__.py" in unreached_paths and lines.get("__init__.py"):  # FastVideo's, for ComfyUI
            unknown["__init__.py"] = "the tree's own __init__.py: a host application that imports the folder as a " \
                                     "package (a plugin folder) runs it"
        result.findings += unused_findings(graph, python_paths, lines, runnable, unknown, test_only,
                                           namespace_packages(graph, tree.packages, tree.root),
                                           {p for p, s in index.files.items() if s.error}, support, public,
                                           tool_run, test_data_folders(tree.root, index, unreached_paths),
                                           installed_packages(tree.root, tree.packages))
        result.findings = with_stale_copies(result.findings, stale_script_copies(
            tree.root, python_paths, index.other_files, {p for p in runnable if p not in reached}))
        result.findings += dotted_hole_findings(graph, python_paths, lines)
        result.notes["unused-file"] = kind_reason(graph)
        result.findings = with_idle_imports(result.findings, graph, index, scan, lines, dead_code(symbols))
        lap("unused-file")
    if "unused-symbol" in options.kinds:
        result.findings += symbols
        lap("unused-symbol")
    if "unused-kernel" in options.kinds:
        table = kernel_table(tree.root, index, mm=graph.mm, scan=scan)
        result.findings += kernel_findings(table, reached, frozenset(public),
                                           frozenset(runnable) | frozenset(tool_run) | frozenset(support))
        lap("unused-kernel")
    if "duplicate" in options.kinds:
        result.findings += duplicate_findings(str(tree.root), python_paths, options.min_similarity, options.min_lines)
        lap("duplicate")
    if "same-name" in options.kinds:
        result.findings += same_name_findings(str(tree.root), python_paths, reached, test_only)
        lap("same-name")
    if "orphaned-test" in options.kinds:
        built = built_extension_modules(tree.root, python_paths) | compiled_sources(index.other_files, set(index.files))
        # a test of modules only unused imports reach tests nothing else uses (aphrodite's tests/kernels/test_rand.py)
        idle = {f.subject for f in result.findings if f.kind == "unused-file" and f.details.get("idle")}
        result.findings += test_findings(graph, index, reached_without_tests, extension_names(scan, built),
                                         namespace_packages(graph, tree.packages, tree.root),
                                         {graph.module_of(p) for p in public}, idle)
        lap("orphaned-test")
    if "eager-import" in options.kinds:
        result.findings += eager_findings(graph, index, python=options.python)
        result.findings += unused_export_findings(scan, reached, packages=list(tree.packages))
        lap("eager-import")
    counts = {kind: sum(1 for f in result.findings if f.kind == kind) for kind in KINDS if kind in options.kinds}
    result.stats = {"files": len(python_paths), "reached": len(reached), "roots": len(graph.roots),
                    "hidden_roots": len(extra), "hidden_root_triggers": hidden_root_triggers(extra),
                    "ambiguous_file_names": len(ambiguous),
                    "findings": counts, "seconds": timings, "total_seconds": round(sum(timings.values()), 2)}
    result.stats["projection"] = projection(result, lines, runnable | frozenset(tool_run),
                                            len(table.kernels) if table else None)
    if table is not None:
        result.stats["kernels"] = {"total": len(table.kernels), "by_kind": _by_kind(table),
                                   "unused_by_kind": _by_kind_unused(result)}
    return result, table


def with_idle_imports(findings: list[Finding], graph, index, scan, lines: dict[str, int],
                      dead: DeadCode | None = None) -> list[Finding]:
    """Modules every importer of which binds names it never reads, or reads only in ``dead`` code
    (``audit.idle_imports``): a finding of their own at 50, or one a script's import gave a lower confidence raised
    to 50."""
    root_paths = {info.path for r in graph.roots if (info := graph.mm.modules.get(r.module)) and info.path}
    idle = idle_import_modules(graph, index, scan, root_paths, dead)
    out = []
    for f in findings:
        if f.kind == "unused-file" and f.subject in idle and f.confidence < IDLE_IMPORT:
            f = replace(f, confidence=IDLE_IMPORT, reason=f"{idle.pop(f.subject)}; {f.reason}")
        elif f.kind == "unused-file":
            for p in [f.subject, *(f.details or {}).get("files", ())]:
                idle.pop(p, None)
        out.append(f)
    for path, why in sorted(idle.items()):
        out.append(Finding("unused-file", path, f"{path} ({lines.get(path, 0)} lines) is imported only by imports "
                           "nothing uses", why, IDLE_IMPORT, path, None, {"idle": True}))
    return out


def dead_code(symbols: list[Finding]) -> DeadCode:
    """path -> (first line, last line, name) of the unused symbols the audit is sure of (60+)."""
    out: dict[str, list[tuple[int, int, str]]] = {}
    for f in symbols:
        if f.confidence >= 60 and f.path and f.line:
            out.setdefault(f.path, []).append((f.line, f.line + f.details.get("lines", 1) - 1,
                                               f.subject.split("::", 1)[-1]))
    return out


def namespace_packages(graph, packages, root: Path | None = None) -> set[str]:
    """Top-level packages whose ``__init__`` imports none of their own modules: users import the submodules
    directly (``import mslk.gemm``), so a submodule only the tests reach is still public API. Where the build at
    ``root`` lists what it installs, only those (typer 0.29.2's ``docs_src``, the docs' examples, is in its sdist
    alone: no user imports it)."""
    installed = installed_patterns(root) if root is not None else None
    out = set()
    for pkg in packages:
        if installed and not matches(pkg, installed):
            continue
        if not any(e.target.startswith(pkg + ".") and e.kind in ("import", "from")
                   for e in graph.edges.get(pkg, ())):
            out.add(pkg)
    return out


def audit_graph(tree: SourceTree, index, scan, roots: list[Root], registries=(), mm=None, loads=None):
    """The module graph from ``roots`` plus the hidden roots (directory scans, lazy ``__getattr__``, folder
    listings, module paths in f-strings, file names, path templates: ``loads`` of ``path_template_loads``):
    (graph, hidden roots, ambiguous file names)."""
    mm = mm or audit_module_map(tree, index)
    loads = path_template_loads(tree.root, list(index.files)) if loads is None else loads
    graph = build_graph(tree, index, roots, list(registries), mm=mm)
    extra: list[Root] = []
    ambiguous: dict[str, str] = {}
    for _ in range(4):  # modules a directory scan or a lazy __getattr__ may import are roots too
        known = {r.value for r in extra}
        hidden = scan_roots(graph, index) + lazy_roots(graph, index) + fstring_roots(graph, scan) \
            + listing_roots(graph, scan) + script_roots(graph, index, ambiguous, scan) + relative_roots(graph, index) \
            + relocated_roots(graph) + native_import_roots(graph, scan) + beside_roots(graph, index) \
            + path_load_roots(graph, loads)
        more = list({r.value: r for r in hidden if r.value not in known}.values())
        if not more:
            break
        extra += more
        graph = build_graph(tree, index, roots + extra, list(registries), mm=mm)
    return graph, extra, ambiguous


def folder_why(folder: Path, target: str) -> dict:
    """``slimfork why FOLDER TARGET`` without a spec: the audit's own roots and graph."""
    tree = audit_tree(folder.resolve())  # a relative folder (`why . pkg`) was a ValueError traceback
    index = build_index(tree.root)
    mm = audit_module_map(tree, index)
    module = target if target in mm.modules else mm.module_of(target.replace("\\", "/"))
    if module is None:
        options = list(index.files) if "/" in target or target.endswith(".py") else list(mm.modules)
        raise SlimforkError(f"no module or Python file {target} in {folder}", key="TARGET", hint=did_you_mean(
            target, options, "give a module (pkg.mod) or a path relative to the folder (pkg/mod.py)"))
    roots = default_roots(tree, list(index.files), mm.module_of, index=index, skip=set(unimported_packages(tree, index)))
    graph, _extra, _amb = audit_graph(tree, index, scan_tree(index), roots, mm=mm)
    chain = [{"module": step.module, "reason": (step.root_reason or "a root") if step.edge is None else
              f"{step.edge.kind} in {step.via} at line {step.edge.line}" + (f" ({step.edge.detail})"
                                                                          if step.edge.detail else "")}
             for step in graph.chain(module)]
    reason = "" if chain else "not reached from the audit's roots (" + ", ".join(
        r.module for r in graph.roots[:4]) + (" ..." if len(graph.roots) > 4 else "") + ")" + (
        f"; {len(graph.uncertain)} places the analysis could not decide: " + "; ".join(
            f"{u.path}:{u.line} {u.why}" for u in graph.uncertain[:3]) if graph.uncertain else "")
    return {"target": target, "module": module, "kept": bool(chain), "chain": chain, "reason": reason}


def _by_kind(table: KernelTable) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in table.kernels:
        out[k.kind] = out.get(k.kind, 0) + 1
    return out


def _by_kind_unused(result: AuditResult) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in result.findings:
        if f.kind == "unused-kernel":
            kind = f.details.get("kernel_kind", "?")
            out[kind] = out.get(kind, 0) + 1
    return out
