"""What symbol reachability starts from (roots, modules that keep everything, import cycles, names in
non-Python files), and the check that a round of pruning lost no import-time effect."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections import deque
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from slimfork.decisions import GONE_KINDS, RemovalKind
from slimfork.globs import first_match
from slimfork.graph.data_files import CODE_RUN, DATA_SUFFIXES, data_text, package_above, relative_code_names, \
    scanned_data_file
from slimfork.graph.public_api import kept_api, public_api
from slimfork.graph.roots import COMPUTED_ENTRY_POINT, SCRIPT_IMPORT
from slimfork.graph.symbol_targets import ImportTargets
from slimfork.graph.symbols import SymbolInputs
from slimfork.index.param_tables import param_tables
from slimfork.index.symbols import SymbolSummary, TopStatement
from slimfork.prune.pure_instances import apply_pure_instances
from slimfork.prune.star_exports import star_export_roots
from slimfork.source.test_folders import tests_of

BY_NAME_EDGES = {"dynamic": "imported by name", "scan": "found by a directory scan", "registry": "a registry member",
                 "main": "run as a program", "path": "loaded by its file path",
                 "native": "imported by a Cython source"}
TEXT_SUFFIXES = DATA_SUFFIXES + (".sh", ".bash")
TEMPLATE_SUFFIXES = (".html", ".htm", ".jinja", ".jinja2", ".j2", ".txt", ".xml")
_WORD = re.compile(rb"[A-Za-z_]\w*")


def build_inputs(analysis, graph, plan, summaries: dict[str, SymbolSummary], config, protected: dict[str, str],
                 registry_modules: dict[str, set[str]], gone_tests: frozenset[str] = frozenset()) -> SymbolInputs:
    """``gone_tests``: test files an earlier pass of the stages removed (the fork has no import of them)."""
    mm = graph.mm
    spec, tree = analysis.spec, analysis.tree
    keep_all: dict[str, str] = {}
    roots: list[tuple[str, str, str]] = []
    for root in spec.roots:
        if root.kind == "module":
            keep_all.setdefault(root.value, f"root '{root}' (everything it defines stays)")
        elif root.kind == "symbol":
            roots.append((root.value, (root.symbol or "").split(".")[0], f"root '{root}'"))
        elif root.kind == "file" and (module := mm.module_of(root.value.lstrip("./"))):
            keep_all.setdefault(module, f"root '{root}'")
    dist = tree.dist
    entries = [(v, f"console script {n} = {v}") for n, v in (dist.scripts if dist else {}).items()]
    entries += [(v, f"entry point [{g}] {n} = {v}") for g, group in (dist.entry_points if dist else {}).items()
                for n, v in group.items()]
    for value, why in entries:
        module, _, attr = value.partition(":")
        attr = attr.split("[")[0].strip().split(".")[0]
        if attr:
            roots.append((module.strip(), attr, why))
        else:  # a module entry point (pytest11 plugins): pytest reads its names by convention
            keep_all.setdefault(module.strip(), why)
    for r in graph.roots:
        if r.reason.startswith(("kept by keep[", COMPUTED_ENTRY_POINT, CODE_RUN, SCRIPT_IMPORT)):
            keep_all.setdefault(r.module, r.reason)
    for module, name in config.keep:
        if name is None:
            keep_all.setdefault(module, "kept by [symbols] keep")
        else:
            roots.append((module, name, "kept by [symbols] keep"))
    for module in summaries:
        info = mm.modules[module]
        everything = _keeps_everything(mm, module, info.path, info.is_package and config.package_api)
        if everything:
            keep_all.setdefault(module, everything)
    for module in sorted(set(keep_all) & set(registry_modules) & set(summaries)):  # num2words/__init__.py
        roots += _all_but_freed(summaries[module], registry_modules[module], module, keep_all.pop(module))
    looked_up: dict[str, str] = {}
    for module in summaries:
        reads: list[tuple[str, str, str]] = []
        imported = _imported(graph, module)
        for src, edge in graph.importers(module):
            if edge.kind in BY_NAME_EDGES and src in graph.reached and not (imported and _folder_read(edge)):
                name = _read_off(graph, src, edge, module)
                if name is not None:  # version = __import__("pkg").__version__: that name, nothing else
                    reads.append((module, name, f"read off {module}, which {src} imports by name (line {edge.line})"))
                    continue
                why = f"{BY_NAME_EDGES[edge.kind]} by {src}: its names are looked up at run time"
                # a registry's module keeps all but what only the registry's cut entries used
                if module in registry_modules:
                    looked_up.setdefault(module, why)
                elif freed := _vacated_names(mm, module, summaries[module], graph.vacated):
                    roots += _all_but_freed(summaries[module], freed, module, why)
                else:
                    keep_all.setdefault(module, why)
                break
        else:
            roots += reads
    _apply_decorators(summaries, config)
    _untie_tagging_decorators(summaries, mm)
    apply_pure_instances(summaries, mm)
    _tie_deletions(summaries)
    roots += _unparsed_imports(analysis, graph, plan, summaries)
    api = public_api(spec.roots, mm, config.drop, kept_api(config, summaries))
    roots += api_roots(api, summaries, keep_all, registry_modules)
    inits = {m: "a package __init__ (the package's API)" for m in summaries
             if config.package_api and mm.modules[m].is_package}
    star_api: dict[str, str] = {}
    roots += star_export_roots({**inits, **api.modules}, summaries, mm, api, config.package_api, star_api)
    roots += import_time_test_uses(analysis, mm, summaries, absent_tests(analysis, plan, gone_tests))
    inputs = SymbolInputs(mm, summaries, keep_all, roots, import_cycles(graph, set(summaries)), dict(protected),
                          dict(registry_modules), looked_up, text_references(analysis, plan, mm),
                          not config.package_api, not spec.type_checking_imports, api.dropped,
                          template_words(analysis, plan, mm), star_api,
                          frozenset(inits) | frozenset(api.modules) if config.public_api == "roots" else None)
    inputs.string_named = _named_in_strings(graph, summaries)
    inputs.unneeded_effects = tuple(config.unneeded_effects)
    return inputs


def _imported(graph, module: str) -> bool:
    """Whether kept code imports ``module`` by a plain import statement."""
    return any(edge.kind in ("import", "from") and src in graph.reached for src, edge in graph.importers(module))


def _folder_read(edge) -> bool:
    """A folder read by its path (``Path(__file__).parent / "datasets"``, then ``DATADIR / locale / "person.json"``):
    the data files in it are read, no name of a module there that kept code imports as code (mimesis'
    ``datasets/__init__.py`` star-imports every locale table: all 45,509 lines stayed). A module only the read
    reaches may be a template the reader copies: it stays whole."""
    return edge.kind == "path" and edge.detail.startswith("the folder '")


def _read_off(graph, src: str, edge, module: str) -> str | None:
    """The one name a dynamic import reads off the module it returns (``__import__("pkg").__version__``), when
    that module is ``module``; None when the module object may be used otherwise (every name then stays)."""
    if edge.kind != "dynamic":
        return None
    info = graph.mm.modules.get(src)
    summary = graph.index.files.get(info.path) if info is not None and info.path else None
    for dyn in summary.dynamic_imports if summary is not None else ():
        if dyn.line == edge.line and dyn.text == edge.detail and dyn.reads and dyn.target == module:
            return dyn.reads[0]
    return None


def absent_tests(analysis, plan, gone_tests: frozenset[str]) -> set[str]:
    """The files the fork lacks as the tests see them: the plan's removals but unreachable test files (nothing
    imports a test module of a ``tests/`` package: the tests stage keeps it, unless it tests removed code), and
    the test files an earlier pass of the stages removed."""
    globs = tests_of(analysis)
    return {r.path for r in plan.removals if r.kind in GONE_KINDS
            and not (r.kind == RemovalKind.UNREACHABLE and first_match(globs, r.path) is not None)} | gone_tests


def import_time_test_uses(analysis, mm, summaries, removed: set[str] | frozenset[str] = frozenset(),
                          readers: set[str] | None = None) -> list[tuple[str, str, str]]:
    """The library names a test file reads at import time, in its module-level statements (``SCHEME_NON_FIRST =
    _ASCII_ALPHANUMERIC + "+-."`` after ``from w3lib._infra import _ASCII_ALPHANUMERIC``): without them the file
    does not import and every test in it, of kept code too, would leave with the name (w3lib's ``test_url.py``,
    234 tests of the root ``w3lib.url``). They stay; a name only a test function uses still goes with that test.
    A test file the fork does not have (``removed``: the spec's ``drop``, or a test file an earlier pass of the
    stages removed) reads nothing. The plain references of a table that only parametrizes tests (``ALGS =
    (pkg.bag, pkg.mra)``, ``index/param_tables.py``) are read by nothing but those tests: the tests stage cuts an
    entry naming removed code, and those tests with it. ``readers`` collects the test files that read a name."""
    globs = tests_of(analysis)
    out: list[tuple[str, str, str]] = []
    for rel in sorted(analysis.index.files):
        if first_match(globs, rel) is None or not rel.endswith(".py") or rel in removed:
            continue
        try:
            tree = ast.parse((analysis.tree.root / rel).read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        names: dict[str, tuple[str, str]] = {}  # local name -> (module, name) of a from-import
        modules: dict[str, str] = {}  # local name -> module of an import
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level \
                    and mm.is_internal(stmt.module):
                for a in stmt.names:
                    dotted = f"{stmt.module}.{a.name}"
                    if dotted in mm.modules:
                        modules[a.asname or a.name] = dotted
                    elif a.name != "*":
                        names[a.asname or a.name] = (stmt.module, a.name)
            elif isinstance(stmt, ast.Import):
                for a in stmt.names:
                    if mm.is_internal(a.name):
                        modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        for cls in ast.walk(tree):  # class DebugMode: from pkg import _log as __module ... self.__module.defer()
            for stmt in cls.body if isinstance(cls, ast.ClassDef) else ():
                if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level and mm.is_internal(stmt.module):
                    modules.update({f"self.{a.asname or a.name}": f"{stmt.module}.{a.name}" for a in stmt.names
                                    if f"{stmt.module}.{a.name}" in mm.modules})
                elif isinstance(stmt, ast.Import):
                    modules.update({f"self.{a.asname}": a.name for a in stmt.names if a.asname
                                    and mm.is_internal(a.name)})
        why = f"read at import time by the test file {rel}"
        found = len(out)
        setup = _autouse_setup(tree) if rel.rsplit("/", 1)[-1] == "conftest.py" else {}
        entries = {id(n) for t in param_tables(tree).values() for i, e in enumerate(t.entries) if t.cuttable(i)
                   for n in ast.walk(e)}
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.name in setup:
                pass  # what an autouse fixture of a conftest runs is setup of every test below it
            elif isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            why = setup.get(getattr(stmt, "name", "")) or f"read at import time by the test file {rel}"
            for node in ast.walk(stmt):
                if id(node) in entries:
                    continue
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
                    module, name = names[node.id]
                    if module in summaries:
                        out.append((module, name, why))
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                    chain: list[str] = []
                    base: ast.expr = node
                    while isinstance(base, ast.Attribute):
                        chain.insert(0, base.attr)
                        base = base.value
                    if isinstance(base, ast.Name) and base.id in ("self", "cls") and chain \
                            and f"self.{chain[0]}" in modules:
                        dotted = ".".join([modules[f"self.{chain[0]}"], *chain[1:]])
                        target = mm.longest_module(dotted)
                        rest = dotted[len(target) + 1:].split(".") if target and len(dotted) > len(target) else []
                        if target in summaries and rest:
                            out.append((target, rest[0], why))
                    elif isinstance(base, ast.Name) and base.id in modules:
                        dotted = ".".join([modules[base.id], *chain])
                        target = mm.longest_module(dotted)
                        rest = dotted[len(target) + 1:].split(".") if target and len(dotted) > len(target) else []
                        if target in summaries and rest:
                            out.append((target, rest[0], why))
        if readers is not None and len(out) > found:
            readers.add(rel)
    return out


def _autouse_setup(tree: ast.Module) -> dict[str, str]:
    """A conftest's autouse fixtures and the functions and classes of the file they reach by name: setup that runs
    for every test below it (setuptools_scm's ``debug_mode`` enters ``DebugMode``, whose ``enable`` calls
    ``_log.defer_to_pytest``). Name -> why. Cutting a library name they use would cut the setup of every test."""
    defs = {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    out: dict[str, str] = {}
    todo = []
    for name, node in defs.items():
        if not isinstance(node, ast.ClassDef) and any(
                "fixture" in ast.unparse(d) and "autouse=True" in ast.unparse(d) for d in node.decorator_list):
            todo.append((name, f"used by the autouse fixture {name} of a conftest (setup of every test below it)"))
    while todo:
        name, why = todo.pop()
        if name in out:
            continue
        out[name] = why
        todo += [(n.id, why) for n in ast.walk(defs[name]) if isinstance(n, ast.Name) and n.id in defs
                 and n.id not in out]
    return out


def api_roots(api, summaries: dict[str, SymbolSummary], keep_all: dict[str, str],
              freed: dict[str, set[str]] | None = None) -> list[tuple[str, str, str]]:
    """The public names of API modules that do not keep everything anyway (the public modules of a package
    root): definitions, assignments and ``from`` imports (re-exports) binding a public name, and ``__all__``.
    ``freed``: per registry module, the names only the entries the spec removes named (num2words'
    ``from . import lang_FR`` for ``'fr': lang_FR.Num2Word_FR()``): the spec said those go, so they are no API
    root; they stay if kept code uses them."""
    out = []
    for module, why in sorted(api.modules.items()):
        summary = summaries.get(module)
        if summary is None or module in keep_all:
            continue
        imported = imported_only(summary)
        for name in sorted(_bound_but_freed(summary, (freed or {}).get(module, set()))):
            if api.keeps(module, name, summary.all_names, name in imported):
                out.append((module, name, f"public API: {why}"))
    return out


_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w, \t\\\n]+)\)?", re.M)


def _unparsed_imports(analysis, graph, plan, summaries) -> list[tuple[str, str, str]]:
    """Kept files that do not parse (newer syntax) may still run elsewhere: every name their text imports with
    ``from pkg.mod import a, b`` stays (read with a regex; unknown means keep). Not the tests' (see _summaries)."""
    tests = tests_of(analysis)
    out = []
    removed = plan.removed_paths()
    scratch = graph.tree.root
    for k in plan.kept:
        if not k.path.endswith(".py") or k.module is None or k.module in summaries or k.path in removed \
                or tests and first_match(tests, k.path) is not None:  # left out on purpose (prune/stage.py)
            continue
        try:
            text = (scratch / k.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for module, names in _FROM_IMPORT.findall(text):
            for name in re.split(r"[\s,\\]+", names):
                if name.isidentifier() and name != "as":
                    out.append((module, name, f"imported by {k.path}, which does not parse here"))
    return out


def _all_but_freed(summary: SymbolSummary, freed: set[str], module: str, why: str) -> list[tuple[str, str, str]]:
    """A module that keeps every name (a root, a package ``__init__``) and holds a cut dict registry: the names
    only the removed entries named (``from . import lang_FR`` for ``'fr': lang_FR.Num2Word_FR()``) stay only if
    kept code uses them; the spec said those entries go."""
    return [(module, name, why) for name in sorted(_bound_but_freed(summary, freed))]


def _vacated_names(mm, module: str, summary: SymbolSummary, vacated: frozenset[str]) -> set[str]:
    """The names ``module`` imports from modules a registry cut no longer names (``from pkg.countries.albania import
    Albania``): a lookup by a computed name, which builds its names from that registry, cannot reach them."""
    if not vacated:
        return set()
    targets = ImportTargets(mm, {})
    return {a.bound for st in summary.statements if st.kind == "import" for a in st.aliases
            if a.name != "*" and targets.loaded(module, a) in vacated}


def promised_names(spec, mm, summaries: dict[str, SymbolSummary], config,
                   freed: dict[str, set[str]] | None = None) -> dict[str, tuple[str, ...]]:
    """Module -> the names the plan promises as its public API (``PublicApi.keeps``: ``[symbols] drop`` and
    ``public_api = "roots"`` withdraw names, imports are API of a module that is no root only when ``__all__``
    lists them); the modules that keep everything included. Plain data for the import-modules check."""
    api = public_api(spec.roots, mm, config.drop, kept_api(config, summaries))
    out: dict[str, list[str]] = {}
    for module, name, _ in api_roots(api, summaries, {}, freed):
        out.setdefault(module, []).append(name)
    return {m: tuple(names) for m, names in out.items()}


def imported_only(summary: SymbolSummary) -> set[str]:
    """The names a module binds by imports and by nothing else."""
    imported: set[str] = set()
    defined: set[str] = set()
    for st in summary.statements:
        if st.kind == "import":
            imported.update(a.bound for a in st.aliases if a.name is not None and a.bound != "*")
        else:
            defined.update(st.binds)
    return imported - defined


def _bound_but_freed(summary: SymbolSummary, freed: set[str]) -> set[str]:
    """The names a module binds (definitions, assignments, imports, ``__all__``) but ``freed`` (unless listed in
    ``__all__``)."""
    names = set(summary.all_names or ())
    for st in summary.statements:
        if st.kind == "import":
            names.update(a.bound for a in st.aliases if a.name is not None and a.bound != "*")
        else:
            names.update(st.binds)
    return names - (freed - set(summary.all_names or ()))


def _named_in_strings(graph, summaries) -> dict[str, str]:
    """Kept modules a string of kept code names (``sys.modules["pkg.shapes"]``, a dotted path in a config): the
    imports that load them stay though their names go unused, since the string may find the module only among
    those already loaded (unknown means keep)."""
    named: dict[str, str] = {}
    for module in summaries:
        for src, edge in graph.importers(module):
            if edge.kind == "string" and src in graph.reached and src != module:
                named[module] = f"{src} names {module} in a string: it may look the module up once loaded"
                break
    return named


def _keeps_everything(mm, module: str, path: str, is_package: bool) -> str | None:
    if not mm.is_internal(module):
        return "a script or test outside the analysed packages"
    name = PurePosixPath(path).name
    if is_package:
        return "a package __init__: what it binds is the package's API"
    if name == "__main__.py":
        return "a package's __main__ (run as a program)"
    if name == "conftest.py" or name.startswith("test_") or name.endswith(("_test.py", "_tests.py")):
        return "a test module (pytest finds its names by convention)"
    return None


def _apply_decorators(summaries: dict[str, SymbolSummary], config) -> None:
    """Decorators and calls the spec declares pure: functions they decorate, and module-level assignments whose
    value calls only them, may be pruned after all, and loading their module has no effect worth keeping. The
    summaries are the index's, shared by every run of the process: a changed one is a copy, put in ``summaries``."""
    if not config.pure_decorators and not config.pure_calls:
        return
    for module, summary in list(summaries.items()):
        statements = [_declared_pure(st, config) for st in summary.statements]
        if any(new is not old for new, old in zip(statements, summary.statements)):
            summaries[module] = dataclasses.replace(summary, statements=statements)


def _untie_tagging_decorators(summaries: dict[str, SymbolSummary], mm) -> None:
    """A definition whose every decorator not known pure is one of the project's decorators that only tag what they
    decorate (workalendar's ``@iso_register('FR')``, index/tagging_decorators.py) registers nothing: it may be
    pruned, and loading its module has no effect for it. Changed summaries are copies, as in ``_apply_decorators``."""
    targets = ImportTargets(mm, summaries)
    for module, summary in list(summaries.items()):
        statements = [dataclasses.replace(st, keep=None, effect=None)
                      if st.decorators and st.keep == st.effect and (st.keep or "").startswith("decorated by @")
                      and all(_tagging(targets, module, chain) for chain in st.decorators) else st
                      for st in summary.statements]
        if any(new is not old for new, old in zip(statements, summary.statements)):
            summaries[module] = dataclasses.replace(summary, statements=statements)


def _tagging(targets: ImportTargets, module: str, chain: tuple[str, ...], depth: int = 0) -> bool:
    """Whether the decorator ``chain`` read in ``module`` is a def that only tags (through imports, bound once)."""
    binders = targets.binders.get(module, {}).get(chain[0], ())
    if depth > 8 or len(binders) != 1:
        return False
    st = targets.s[module].statements[binders[0]]
    if st.kind == "def":
        return len(chain) == 1 and st.tags_only
    alias = next((a for a in st.aliases if a.bound == chain[0]), None) if st.kind == "import" else None
    target = targets.target(module, alias) if alias is not None else None
    if target is None:
        return False
    found, name = target
    rest = chain[1:] if name is None else (name, *chain[1:])
    return bool(rest) and _tagging(targets, found, rest, depth + 1)


def _declared_pure(st: TopStatement, config) -> TopStatement:
    if st.keep and st.keep.startswith("decorated by @"):
        name = st.keep[len("decorated by @"):].split(",")[0].split("(")[0]
        if name in config.pure_decorators:
            return dataclasses.replace(st, keep=None, effect=None)
    elif st.calls and all(any(fnmatchcase(call, p) for p in config.pure_calls) for call in st.calls):
        return dataclasses.replace(st, keep=None, effect=None, kind="assign")
    return st


def _tie_deletions(summaries: dict[str, SymbolSummary]) -> None:
    """A top-level ``del NAME`` whose every binding may be pruned (``_hush_pyflakes = [SigningKey, ...]`` then
    ``del _hush_pyflakes``, ecdsa 0.19.0) reads no name: it stays exactly when the name does, as a binding of it,
    so it no longer holds the list and every name in it. So does a bare ``NAME`` statement (mutagen's
    ``__init__.py`` lists ``File`` after importing it, for Sphinx): reading a global runs nothing. A binding kept for its effect keeps the ``del`` too
    (the fork's module must not gain the name). Changed summaries are copies, as in ``_apply_decorators``."""
    for module, summary in list(summaries.items()):
        statements = list(summary.statements)
        for i, st in enumerate(statements):
            name = st.deletes
            if name is None or st.type_only:
                continue
            binders = [b for b in statements if name in b.binds and b is not st]
            if binders and all(b.keep is None for b in binders):
                statements[i] = dataclasses.replace(st, kind="assign", binds=(name,), keep=None, effect=None,
                                                    names=st.names - {name})
        if any(new is not old for new, old in zip(statements, summary.statements)):
            summaries[module] = dataclasses.replace(summary, statements=statements)


def import_cycles(graph, modules: set[str]) -> dict[str, int]:
    """Modules in an import cycle of module-level imports (strongly connected components of size > 1). An import
    of a module's own package (``from .error import *`` loads ``yaml`` for ``yaml.emitter``) is no edge: the
    package has started initialising before any of its modules runs, so that import never decides an order, and
    it made every module of a package whose ``__init__`` imports one of them a cycle (PyYAML, voluptuous)."""
    succ = {m: [e.target for e in graph.edges.get(m, ()) if e.target in modules and _eager(e)
                and not m.startswith(e.target + ".")] for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: dict[str, int] = {}
    counter = 0
    for start in sorted(modules):
        if start in index:
            continue
        work = [(start, iter(succ[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    for member in component:
                        out[member] = index[node]
    return out


def _eager(edge) -> bool:
    return edge.kind in ("import", "from") and "inside a" not in edge.detail and "TYPE_CHECKING" not in edge.detail


def text_references(analysis, plan, mm) -> list[tuple[str, str]]:
    """Dotted names of the packages in kept non-Python files (configs, shell scripts, entry_points.txt)."""
    tops = sorted(mm.top_names)
    if not tops:
        return []
    pattern = re.compile(r"\b((?:%s)(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?)" % "|".join(map(re.escape, tops)))
    removed = plan.removed_paths()
    out = []
    root = analysis.tree.root
    for k in plan.kept:
        if not (k.path.endswith(TEXT_SUFFIXES) or _package_data(mm, k.path, str(root))) or k.path in removed \
                or any(part.startswith(".") for part in k.path.split("/")[:-1]):
            continue  # hidden folders hold tool caches (.grimp_cache, .mypy_cache), not configuration
        path = root / k.path
        try:
            if path.stat().st_size > 512_000:
                continue
            data = path.read_bytes()
        except OSError:
            continue
        text = data_text(k.path, data)  # a compressed file decompressed
        if "from ." in text and (package := package_above(mm, str(PurePosixPath(k.path).parent))):
            out += [(m, k.path) for m in relative_code_names(str(root), k.path, package, mm)]  # code exec'd in it
        if not any(n in text for n in tops):
            continue
        out += [(m, k.path) for m in dict.fromkeys(pattern.findall(text))]
    return out


def _package_data(mm, path: str, root: str | None = None) -> bool:
    """A file of a package folder the package may read whatever its suffix (``settings.j2``, ``REGISTRY``, a
    pickle in ``state.bin``)."""
    return scanned_data_file(path, root) and package_above(mm, str(PurePosixPath(path).parent)) is not None


def template_words(analysis, plan, mm) -> frozenset[str]:
    """The identifiers in the kept templates and text files inside the package folders (a Jinja page's
    ``{{ user._initials() }}``): a method they spell may be called from there, as from a Python string."""
    words: set[bytes] = set()
    removed = plan.removed_paths()
    for k in plan.kept:
        if not k.path.endswith(TEMPLATE_SUFFIXES) or k.path in removed \
                or package_above(mm, str(PurePosixPath(k.path).parent)) is None:
            continue
        path = analysis.tree.root / k.path
        try:
            if path.stat().st_size <= 512_000:
                words.update(_WORD.findall(path.read_bytes()))
        except OSError:
            continue
    return frozenset(w.decode("ascii") for w in words)


def effect_violations(old, new, summaries: dict[str, SymbolSummary], unneeded: tuple[str, ...] = (),
                      registers: dict[str, str] | None = None) -> dict[str, str]:
    """Modules a round would make unreachable although kept code loaded them at import and loading them has
    effects (a call at module level, a registering decorator, a class that registers itself when defined:
    ``registers``, from the reach; a third-party import nothing kept makes any more), unless ``unneeded`` (globs
    of ``[symbols] unneeded_effects``) names them.
    Returns module -> why its imports must stay (for it and the modules the path to it passes through)."""
    kept_old = {m for m in old.graph.reached if m in summaries}
    kept_new = set(new.graph.reached)
    lost = kept_old - kept_new
    if not lost:
        return {}
    externals = set().union(*(summaries[m].external_imports for m in kept_new if m in summaries))
    parent: dict[str, str | None] = {m: None for m in kept_new if m in old.graph.reached}
    queue = deque(parent)
    while queue:
        module = queue.popleft()
        for edge in old.graph.edges.get(module, ()):
            if edge.target in lost and edge.target not in parent and _eager(edge):
                parent[edge.target] = module
                queue.append(edge.target)
    out: dict[str, str] = {}
    for module in sorted(lost):
        if module not in parent:
            continue  # only loaded inside pruned functions: its effects went with them
        if any(fnmatchcase(module, pattern) for pattern in unneeded):
            continue  # the spec says its effects are not needed
        summary = summaries[module]
        effect = next((f"line {st.line}: {st.effect}" for st in summary.statements if st.effect), None) \
            or (registers or {}).get(module)
        gone = sorted(m for m in summary.external_imports - externals if not new.graph.mm.is_internal(m))
        if effect is None and not gone:
            continue
        why = f"loading {module} has effects ({effect or 'it imports ' + ', '.join(gone)})"
        step: str | None = module
        while step is not None and step in lost:
            out.setdefault(step, why)
            step = parent.get(step)
    return out
