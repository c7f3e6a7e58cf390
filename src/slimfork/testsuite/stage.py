"""The tests stage: the project's tests (spec key ``tests``) are roots of their own kind. They keep only the
test-support modules inside the package that no root reaches (``pkg.testing._fake_net``) and the tests that stay
import (testsuite/support.py); once the folded plan is known, tests of removed code and tests that fake a folded
fact leave the fork
(whole files, or functions cut with LibCST), test data named after removed registry entries goes too, and the
pytest check is told which of the original's tests are meant to be gone."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from slimfork.decisions import GONE_KINDS, Batch, Edit, Kept, KeptKind, Removal, RemovalKind
from slimfork.globs import first_match
from slimfork.index.relative import absolute_module, package_of
from slimfork.mapping.spec import key_form
from slimfork.testsuite.abstract_overrides import cut_abstract_placeholders
from slimfork.testsuite.back import TestsPlan
from slimfork.testsuite.cut import cut_units
from slimfork.testsuite.data_names import data_uses, read_file_uses
from slimfork.testsuite.data_cases import cut_data_cases
from slimfork.testsuite.data_readers import data_of_removed_tests
from slimfork.testsuite.doctest_cuts import DoctestCut, apply_doctest_cuts, cut_library_doctests
from slimfork.testsuite.doctests import add_code_block_runs, add_doc_runs, collected_path, doctest_files, \
    library_doctests_load, scan_doctest_file, text_files
from slimfork.testsuite.decide import FAKES, REMOVED, TABLE, TestDecisions, TestRemoval, decide_across, importable_names
from slimfork.testsuite.library import Library, fact_values
from slimfork.testsuite.loading import loading_effects
from slimfork.testsuite.loads import add_loads, lost_loads, needed_loads
from slimfork.testsuite.needs import kept_test_needs
from slimfork.testsuite.paths import DOC_RUN
from slimfork.testsuite.pytest_config import plugin_modules, read_pytest_config
from slimfork.source.test_folders import tests_of
from slimfork.testsuite.scan import generated_parameters, scan_test_file
from slimfork.testsuite.support import needed_support, support_candidates, used_support


def _generated(path: Path) -> dict[str, list[str]]:
    """The literals a ``pytest_generate_tests`` hook of the file gives its tests' arguments (read only where the
    file defines the hook)."""
    source = path.read_bytes()
    return generated_parameters(source) if b"pytest_generate_tests" in source else {}


def _generated_for(rel: str, generated: dict[str, dict[str, list[str]]]) -> dict[str, list[str]]:
    """What the hooks of the file itself and of the conftests of the folders above it parametrize."""
    out: dict[str, list[str]] = {}
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    for hook, found in generated.items():
        here = hook.rsplit("/", 1)[0] if "/" in hook else ""
        if hook == rel or (hook.endswith("conftest.py") and (not here or folder == here
                                                             or folder.startswith(here + "/"))):
            for name, values in found.items():
                out.setdefault(name, []).extend(values)
    return out


def plan_tests(analysis, stages, scratch: Path, cuts: list) -> TestDecisions:
    tree = analysis.tree
    globs = tests_of(analysis)
    index = analysis.index
    config = read_pytest_config(tree.root)
    globs += _pythonpath_helpers(tree.root, index.files, stages.plan, globs, config.pythonpath)
    globs += _pyargs_folders(analysis.graph.mm.modules, config.pyargs)
    _keep_test_files(stages.plan, globs)
    removed_already = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS}
    py = [rel for rel in index.files if first_match(globs, rel) is not None and rel not in removed_already]
    data = [rel for rel in index.other_files if first_match(globs, rel) is not None and rel not in removed_already]
    library = library_of(analysis, stages, cuts)
    internal = {m.split(".")[0] for m in library.original}
    internal |= {n.split(".")[0] for rel in py for n in importable_names(rel)}  # helpers imported across files
    generated = {rel: found for rel in py if (found := _generated(tree.root / rel))}
    files = {rel: scan_test_file(rel, (tree.root / rel).read_bytes(), internal, _package_of(analysis, rel),
                                 config.doctest_modules, _generated_for(rel, generated)) for rel in py}
    _request_setup_fixtures(files, config.usefixtures)
    texts = {rel: (tree.root / rel).read_text("utf-8", "replace") for rel in doctest_files(
        sorted(set(index.other_files) - removed_already), config.doctest_globs, globs, config.testpaths,
        config.norecursedirs)}
    # a file without examples yields no doctest (pytest collects nothing from it): it stays data, which a
    # conftest may collect itself (pygments' tests/snippets/<lexer>/test_*.txt)
    doctest_paths = [rel for rel, text in texts.items() if ">>>" in text]
    files.update({rel: scan_doctest_file(rel, texts[rel], internal) for rel in doctest_paths})
    data = [rel for rel in data if rel not in files]
    if any(u.dotted.startswith(DOC_RUN) for tf in files.values() for unit in tf.units.values() for u in unit.uses):
        add_doc_runs(files, text_files(tree.root, sorted(set(index.other_files) - removed_already)), internal)
    add_code_block_runs(files, tree.root, sorted(set(index.other_files) - removed_already), internal)
    loaded = plugin_modules(config, analysis.graph.mm.modules)
    loaded.update({m: why for m, why in _conftest_plugins(files, analysis.graph.mm.modules).items()
                   if m not in loaded})
    loaded.update({m: why for m, why in data_uses(files, data, str(tree.root), analysis.graph.mm).items()
                   if m not in loaded})
    read_file_uses(files, sorted(set(index.other_files) - set(data) - removed_already), str(tree.root),
                   analysis.graph.mm)
    loaded.update({m: why for m, why in _documents_load(files, doctest_paths, globs, library).items()
                   if m not in loaded})
    support_doctests = None
    if config.doctest_modules:
        loaded.update({m: why for m, why in library_doctests_load(tree.root, _collected_modules(
            analysis, stages.plan, config), internal, library.module_of).items() if m not in loaded})

        def support_doctests(support: dict[str, str]) -> dict[str, str]:  # a support module's docstrings run too
            modules = analysis.graph.mm.modules
            paths = {m: modules[m].path for m in support if m in modules and modules[m].path
                     and collected_path(modules[m].path, config.testpaths, config.norecursedirs)}
            return library_doctests_load(tree.root, paths, internal, library.module_of)
    decisions, support = _decide_with_support(analysis, stages, cuts, files, set(py), loaded, support_doctests)
    _tests_naming_removed_files(files, decisions)
    cut_abstract_placeholders(tree.root, files, decisions)
    stages.tests = TestsPlan(files, cuts, support)
    data_gone = _data_of_removed_entries(data + py, globs, cuts)
    gone_now = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS}
    kept_library = tuple(rel for rel in index.files if rel not in gone_now and first_match(globs, rel) is None)
    data_gone.update(data_of_removed_tests(tree.root, files, decisions, [d for d in data if d not in data_gone],
                                           sorted(index.files), kept_library))
    edits, data_edits, removals = _edits(tree.root, files, decisions, data_gone, index)
    collected = {m: p for m, p in _collected_modules(analysis, stages.plan, config).items() if p not in files}
    doc_cuts = cut_library_doctests(tree.root, collected, internal, library_of(analysis, stages, cuts, support),
                                    decisions.warnings) if config.doctest_modules else []
    for doc_cut in doc_cuts:
        edits.append(_doctest_edit(doc_cut, stages, decisions.warnings))
        removals += [Removal(RemovalKind.TEST, doc_cut.path, f"doctest examples cut: {why}", symbol=name,
                             group="tests") for name, why in sorted(doc_cut.reasons.items())]
    _keep_submodule_loads(tree.root, py, edits, stages, analysis.graph.mm)
    cases = cut_data_cases(tree.root, [d for d in data if d not in data_gone], library.removed_keys)
    for cut in cases:  # with the tests batch: the cases must go before the entries they test
        why = f"{cut.cases} test cases naming removed registry keys ({', '.join(cut.keys[:6])})"
        edits.append(Edit(cut.path, cut.content, why, "test"))
        removals.append(Removal(RemovalKind.TEST, cut.path, why, lines=cut.lines, group="tests"))
    gone_files = {e.path for e in edits + data_edits if e.content is None}
    stages.plan.kept = [k for k in stages.plan.kept if k.path not in gone_files]
    # The tests batch applies these; they are listed in the report's Tests section and report.json "tests" (not
    # in plan.removals, whose kinds the engine turns into batches of its own), and with plan.removals in plan's
    # and report.json's "removed" (slimfork.report.listing).
    stages.test_removals = removals
    stages.plan.warnings += decisions.warnings
    if edits:
        stages.extra_batches.append(Batch("tests", f"Tests of removed code or of folded facts: {len(edits)} files",
                                          edits))
    if data_edits:  # after the entries: until they go, tests generated from them (per lexer) still read their data
        stages.late_batches.append(Batch("test data", f"Test data of removed registry entries or tests: "
                                         f"{len(data_edits)} files", data_edits))
    stages.data["tests"] = _data(files, decisions, data_gone, library)
    stages.data["tests"]["removed_data_cases"] = [{"path": c.path, "cases": c.cases, "keys": list(c.keys)}
                                                  for c in cases]
    stages.data["tests"]["support"] = dict(sorted(support.items()))
    stages.data["tests"]["emptied_doctests"] = sorted([c.path, name] for c in doc_cuts for name in c.emptied)
    stages.reports.append(("Tests", _markdown(files, decisions, data_gone) + _cases_markdown(cases)))
    return decisions


def _doctest_edit(cut: DoctestCut, stages, warnings: list[str]) -> Edit:
    """The tests batch cuts the examples from the original; the later contents of the file (the fold's, symbol
    pruning's) lose them too, or a later batch would write them back."""
    later = [stages.rewritten] + ([stages.symbols.contents] if stages.symbols is not None else [])
    for contents in later:
        if cut.path in contents:
            done = apply_doctest_cuts(contents[cut.path], cut.module, cut.cut)
            if done is None:
                warnings.append(f"{cut.path}: doctest examples that use removed code not cut from its rewritten "
                                "content (a docstring's lines changed)")
            else:
                contents[cut.path] = done[0]
    count = sum(len(v) for v in cut.cut.values())
    why = "; ".join(f"{n}: {why}" for n, why in sorted(cut.reasons.items()))
    return Edit(cut.path, cut.content, f"{count} doctest examples that use removed code cut ({why})"[:500], "test")


def _documents_load(files, doctest_paths: list[str], globs: list[str], library: Library) -> dict[str, str]:
    """Modules the doctest files outside the test folders import (a ``README.md`` pytest collects through
    ``testpaths`` and ``--doctest-glob``) -> why they stay as test support: such a file is the project's
    documentation (``setup.py`` may read it), not a test file to delete; what its examples import stays, where it is
    test support (a module no root reaches). Else the file leaves with the removed code it imports."""
    out: dict[str, str] = {}
    for rel in doctest_paths:
        if first_match(globs, rel) is not None:
            continue
        for unit in files[rel].units.values():
            for use in unit.uses:
                module = library.module_of(use.dotted)
                if module is not None:
                    out.setdefault(module, f"the doctest {rel}:{use.line}, which pytest collects, imports it")
    return out


def _collected_modules(analysis, plan, config) -> dict[str, str]:
    """The library modules the plan keeps whose files pytest collects (under ``testpaths``, or anywhere but in
    ``norecursedirs`` without them) -> their paths."""
    gone = {r.path for r in plan.removals if r.kind in GONE_KINDS}
    return {name: info.path for name, info in analysis.graph.mm.modules.items() if info.path and info.path.endswith(
        ".py") and info.path not in gone and collected_path(info.path, config.testpaths, config.norecursedirs)}


def _conftest_plugins(files, modules) -> dict[str, str]:
    """The project's modules a conftest's ``pytest_plugins`` names -> why they stay: pytest imports them when it
    loads the conftest, which stays whatever the tests (removing it would take every test below it), so without
    them every test below errs (``Error importing plugin``)."""
    return {name: f"pytest imports it at collection (pytest_plugins of {path})" for path, tf in sorted(files.items())
            if posixpath.basename(path) == "conftest.py" for name in tf.plugins if name in modules}


def _package_of(analysis, rel: str) -> str | None:
    """The package of a test file inside the analysed packages (``pkg/tests/test_x.py`` -> ``pkg.tests``)."""
    module = analysis.graph.mm.module_of(rel)
    if not module:
        return None
    return module if rel.endswith("__init__.py") else module.rpartition(".")[0] or None


def _request_setup_fixtures(files, usefixtures: list[str]) -> None:
    """Fixtures every test requests without naming them: ``[pytest] usefixtures = x`` (as a usefixtures mark on
    each test) and a conftest's autouse fixtures (every test below its folder). What they use stays as test
    support: without it a test of kept code errs (``fixture 'x' not found``) or runs without its setup (a
    ``doctest_namespace`` entry the doctests of kept code read)."""
    autouse = [(posixpath.dirname(path), u.alias or u.qualname) for path, tf in files.items()
               if posixpath.basename(path) == "conftest.py" for u in tf.units.values()
               if u.autouse and "." not in u.qualname]
    for path, tf in files.items():
        names = set(usefixtures) | {name for folder, name in autouse if not folder or path.startswith(folder + "/")}
        for unit in tf.units.values() if names else ():
            if unit.kind == "test":
                unit.fixtures |= names


def _decide_with_support(analysis, stages, cuts, files, test_paths: set[str], loaded: dict[str, str],
                         support_loads=None):
    """Decide which tests go, keeping the test-support modules that the tests which stay import (a fixed point:
    start from every test's imports, then only the kept tests', until nothing changes). ``loaded``: modules the
    test setup loads whatever the tests (a ``-p`` plugin) -> why; ``support_loads``: the support -> what it loads
    in turn (the docstring examples pytest runs of a module kept as support, under ``--doctest-modules``)."""
    decisions, support = _support_fixed_point(analysis, stages, cuts, files, test_paths, loaded)
    for _ in range(8):
        more = {m: why for m, why in (support_loads(support) if support_loads else {}).items()
                if m not in loaded and m not in support}
        if not more:
            break
        loaded = {**loaded, **more}
        decisions, support = _support_fixed_point(analysis, stages, cuts, files, test_paths, loaded)
    held = {m: f"the test package {path} imports it at module level, and pytest imports that before the tests below "
            f"it" for path, modules in sorted(decisions.held.items()) for m in modules}
    if held.keys() - loaded.keys():  # a conftest or test package __init__ running removed code: the code stays as
        # test support where it can; where it cannot, decide() took the tests below with it
        decisions, support = _support_fixed_point(analysis, stages, cuts, files, test_paths, {**held, **loaded})
    _keep_support(analysis, stages.plan, support)
    return decisions, support


def _support_fixed_point(analysis, stages, cuts, files, test_paths: set[str], loaded: dict[str, str]):
    gone = {r.module for r in stages.plan.removals if r.kind in GONE_KINDS and r.module}
    named = {u.dotted for tf in files.values() for unit in tf.units.values() for u in unit.uses
             if u.via}
    library = library_of(analysis, stages, cuts)
    needs = kept_test_needs(files, library)  # tests of kept code need them at import time or through helpers
    candidates = support_candidates(analysis, stages.plan, test_paths, set(loaded) | named | set(needs))
    loaded = {**{m: why for m, why in needs.items() if m not in loaded}, **loaded}
    everything = TestDecisions([], [])
    used = used_support(files, everything, library, candidates)
    support = needed_support(analysis, candidates, {**used, **loaded}, gone)
    for _ in range(8):
        library = library_of(analysis, stages, cuts, support)
        decisions = decide_across(files, library)
        used = used_support(files, decisions, library, candidates)
        needed = needed_support(analysis, candidates, {**used, **loaded}, gone)
        if set(needed) == set(support):
            break
        support = needed
    return decisions, support


def _keep_support(analysis, plan, support: dict[str, str]) -> None:
    paths = {analysis.graph.mm.modules[m].path: m for m in support if analysis.graph.mm.modules[m].path}
    folders = {posixpath.dirname(p) for p in paths}
    plan.removals = [r for r in plan.removals if r.path not in paths and not (
        r.kind == "empty-dir" and any(f == r.path.rstrip("/") or f.startswith(r.path.rstrip("/") + "/")
                                      for f in folders))]
    plan.kept += [Kept(path, m, KeptKind.TEST_SUPPORT, support[m]) for path, m in sorted(paths.items())]


def _pyargs_folders(modules, names: list[str]) -> list[str]:
    """Globs of the test files in the project's packages that ``addopts = "--pyargs pkg.selfcheck"`` has pytest
    collect tests from: they are tests and not dead code (before, the fork kept the
    package's ``__init__.py`` and lost its tests, and pytest stopped with "module or package not found")."""
    paths = [modules[n].path for n in names if n in modules and modules[n].path]
    folders = [posixpath.dirname(p) for p in paths if p.endswith("/__init__.py")]
    return [f"{f}/**/{name}" for f in folders for name in _PYTHON_FILES]  # a module named stays as support


_PYTHON_FILES = ("test_*.py", "*_test.py")  # pytest's default python_files: a library package may be the one named


def _pythonpath_helpers(root: Path, present, plan, globs: list[str], folders: list[str]) -> list[str]:
    """Files the plan removes as unreachable directly in a folder pytest's ``pythonpath`` puts on ``sys.path`` (not
    the root; a package below it, ``src/pkg/mod.py``, is the library's) that a test file imports by its bare name
    (emoji's ``pythonpath = [".", "utils"]`` and ``from testutils import ...``): test helpers, which stay or go
    with the tests as a helper in the test folder does. Returned as exact paths to add to the test globs."""
    folders = [f.strip("/") for f in folders if f.strip("/") not in ("", ".")]
    removed = {r.path: r.module for r in plan.removals if r.kind == "unreachable"}
    helpers: dict[str, str] = {}  # bare module name -> path
    for path in removed:
        for folder in folders:
            name = path[len(folder) + 1:-3] if path.startswith(folder + "/") and path.endswith(".py") else ""
            if name.isidentifier() and first_match(globs, path) is None:
                helpers.setdefault(name, path)
    if not helpers:
        return []
    tests = [p for p in present if p.endswith(".py") and first_match(globs, p) is not None]
    texts = "\n".join((root / p).read_text("utf-8", "replace") for p in tests)
    out = []
    for name, path in sorted(helpers.items()):
        if re.search(rf"^[ \t]*(from[ \t]+{name}[ \t]+import|import[ \t]+{name}\b)", texts, re.M):
            out.append(path)
    return out


def _keep_test_files(plan, globs: list[str]) -> None:
    """Test files nothing imports are not dead code: they stay unless this stage removes them, and so do the
    ``__init__.py`` of the packages they are in, through which pytest imports them (sniffio 1.3.1's
    ``tests = ["sniffio/_tests/test_sniffio.py"]``: its ``_tests/__init__.py`` was planned away as unreachable,
    and the pytest check put it back)."""
    back = [r for r in plan.removals if r.kind == "unreachable" and first_match(globs, r.path) is not None]
    tests = [r.path for r in back] + [k.path for k in plan.kept if first_match(globs, k.path) is not None]
    folders = {"/".join(t.split("/")[:i]): t for t in sorted(tests, reverse=True) for i in range(1, t.count("/") + 1)}
    inits = [r for r in plan.removals if r.kind == "unreachable" and r not in back
             and r.path.endswith("/__init__.py") and posixpath.dirname(r.path) in folders]
    plan.removals = [r for r in plan.removals if r not in back and r not in inits]
    plan.kept += [Kept(r.path, r.module, KeptKind.TEST_FILE) for r in back]
    plan.kept += [Kept(r.path, r.module, KeptKind.PARENT, f"the package of the test file "
                       f"{folders[posixpath.dirname(r.path)]}, which pytest imports through it") for r in inits]


def library_of(analysis, stages, cuts, support=(), restored: frozenset[str] = frozenset()) -> Library:
    """What the fork has as tests see it; ``restored``: paths whose planned edit a check undid (the original's
    content: their modules, names and registry entries are back)."""
    mm, index = analysis.graph.mm, analysis.index
    gone = {r.module for r in stages.plan.removals if r.kind in GONE_KINDS and r.module and r.path not in restored}
    gone -= set(support)
    folded = stages.graph.index
    original, fork, open_modules, effects = {}, {}, set(), {}
    original_all: dict[str, set[str]] = {}
    stars: dict[str, list[str]] = {}  # module -> the modules it star-imports (absolute)
    unknowable: set[str] = set()  # modules whose names are not knowable for another reason than a star import
    fork_stars: dict[str, list[str]] = {}  # the same in the fork, whose star imports symbol pruning may remove
    fork_unknowable: set[str] = set()
    fork_all: dict[str, set[str]] = {}
    for name, info in mm.modules.items():
        if not mm.is_internal(name) or info.path is None or info.path not in index.files \
                or name.split(".", 1)[0] in mm.beside:  # a tests/ package beside src/ is tests, no library
            continue
        summary = index.files[info.path]
        subs = {c.rsplit(".", 1)[-1] for c in mm.children.get(name, [])}
        original[name] = set(summary.defs) | subs
        effect = next((st.effect for st in summary.symbols.statements
                       if st.effect and st.kind == "other" and not st.binds), None)
        if effect:  # codecs.register(search), a statement of its own: importing the module does something
            effects[name] = effect
        stars[name] = [m for i in summary.imports if i.names == ("*",)
                       and (m := absolute_module(package_of(name, info.is_package), i.level, i.module)
                            if i.level else i.module)]
        original[name] |= _answered(summary)
        if summary.all_names is not None:
            original_all[name] = set(summary.all_names)
        if _lazy(summary) or summary.all_dynamic or summary.error:
            unknowable.add(name)
        if name in gone:
            continue
        # a test-support module is written as in the original (symbol pruning's edit of a module it removed is
        # dropped): its names are the original's
        now = summary if info.path in restored or name in support else folded.files.get(info.path, summary)
        fork[name] = set(now.defs) | {c.rsplit(".", 1)[-1] for c in mm.children.get(name, []) if c not in gone} \
            | _answered(now)
        if _lazy(now) or now.all_dynamic or now.error or any(i.names == ("*",) for i in now.imports):
            open_modules.add(name)
        if _lazy(now) or now.all_dynamic or now.error:
            fork_unknowable.add(name)
        elif now.all_names is not None:
            fork_all[name] = set(now.all_names)
        fork_stars[name] = [m for i in now.imports if i.names == ("*",)
                            and (m := absolute_module(package_of(name, info.is_package), i.level, i.module)
                                 if i.level else i.module)]
    cuts = [c for c in cuts if mm.modules.get(c.registry.module) is None
            or mm.modules[c.registry.module].path not in restored]
    removed_entries = {}
    for cut in cuts:
        for name in cut.removed_names():
            removed_entries[name] = f"{cut.registry.module}.{cut.registry.variable}"
    removed_keys = {k: why for cut in cuts if hasattr(cut, "removed_keys") for k, why in cut.removed_keys().items()}
    removed_keys.update(_dict_registry_keys(stages, mm, restored))
    lost = {**_scan_registry_keys(analysis.spec.registries, mm, gone), **_dropped_entry_keys(analysis.tree)}
    removed_keys.update({k: why for k, why in lost.items() if k not in removed_keys})
    report = stages.fold_report
    facts = fact_values(analysis.spec.sections.get("facts"), getattr(report, "flags", {}) if report else {})
    members = {m for cut in cuts if hasattr(cut, "removed_members") for m in cut.removed_members()}
    symbols = stages.symbols
    pruned = {(p.module, name) for p in (symbols.pruned if symbols is not None else ()) for name in p.names
              if mm.modules.get(p.module) is None or mm.modules[p.module].path not in restored}
    namespaces = {n for n, info in mm.modules.items() if info.path is None and mm.is_internal(n)}
    kept_paths = {mm.modules[m].path for m in support if m in mm.modules}
    removed_files = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS and r.path.endswith(".py")
                     and r.path not in restored and r.path not in kept_paths}
    loading, loads = loading_effects(analysis, folded, set(fork))
    return Library(original, fork, open_modules, removed_entries, facts, removed_keys, members, pruned,
                   effects=effects, namespaces=namespaces, removed_files=removed_files,
                   stars={m: found for m, found in stars.items() if found}, unknowable=unknowable,
                   fork_stars={m: found for m, found in fork_stars.items() if found}, fork_unknowable=fork_unknowable,
                   fork_all=fork_all, original_all=original_all, loading=loading, loads=loads,
                   dependencies=_namespace_dependencies(analysis, namespaces) if namespaces else set())


def _namespace_dependencies(analysis, namespaces: set[str]) -> set[str]:
    """The other distributions' parts of the tree's namespace packages that a module of the library (not a test)
    imports, ``google.auth`` from google-cloud-core's ``google/cloud/client``: its dependencies."""
    mm, globs = analysis.graph.mm, tests_of(analysis)
    out = set()
    for rel, summary in analysis.index.files.items():
        if first_match(globs, rel) is not None or not mm.is_internal(mm.by_path.get(rel) or ""):
            continue
        for edge in summary.imports:
            if edge.level or not edge.module:
                continue
            parts = edge.module.split(".")
            for i in range(len(parts) - 1, 0, -1):
                if ".".join(parts[:i]) in namespaces:
                    out.add(".".join(parts[:i + 1]))
                    break
            if edge.module in namespaces:  # from google import auth
                out.update(f"{edge.module}.{n}" for n in edge.names if n != "*")
    return out


def _dict_registry_keys(stages, mm, restored: frozenset[str]) -> dict[str, str]:
    """The keys dict registries lost (num2words' ``"fr"``: a test passing ``lang="fr"`` tests a removed entry),
    in key_form; a key also kept (case and ``-``/``_`` aside) is no removed key."""
    out: dict[str, str] = {}
    for reg in stages.symbols.registries if stages.symbols is not None else ():
        if mm.modules.get(reg["module"]) is not None and mm.modules[reg["module"]].path in restored:
            continue
        kept = {key_form(k) for k in reg["kept"]}
        where = f"{reg['module']}.{reg['variable']}"
        out.update({key_form(k): f"'{k}', a key of the registry {where} the spec does not keep"
                    for k in reg["removed"] if key_form(k) not in kept})
    return out


def _scan_registry_keys(registries, mm, gone: set[str]) -> dict[str, str]:
    """The modules a scanned registry's cut removes, by the first part of their name below the package
    (transliterate's ``contrib.languages.ka``: ``TranslipsumGenerator(language_code="ka")`` tests a removed pack);
    a name a kept module of the package also has is no removed key."""
    out: dict[str, str] = {}
    for reg in registries:
        kept: set[str] = set()
        removed: set[str] = set()
        for name in mm.descendants(reg.package):
            (removed if name in gone else kept).add(name[len(reg.package) + 1:].split(".")[0])
        out.update({key_form(k): f"'{k}', a module of the scanned package {reg.package} the spec does not keep"
                    for k in sorted(removed - kept) if len(k) > 1})
    return out


def _dropped_entry_keys(tree) -> dict[str, str]:
    """The names of the entry points the spec drops (pybtex's ``[pybtex.backends] latex``, which
    ``find_plugin("pybtex.backends", "latex")`` loads from the installed metadata): a test passing ``"latex"`` tests
    a removed entry. Not a console script's (a command, often the package's own name), nor a name another group
    still declares (``bibtex``, a dropped writer and a kept parser: unknown, the test stays)."""
    groups = tree.dist.entry_points if tree.dist is not None else {}
    kept = {key_form(name) for names in groups.values() for name in names}
    out: dict[str, str] = {}
    for group, names in sorted(tree.dropped_entries.items()):
        if group not in ("console_scripts", "gui_scripts"):
            out.update({key_form(name): f"'{name}', an entry point of [{group}] the spec drops" for name in names
                        if key_form(name) not in kept and len(name.strip(".")) > 1})
    return out


def _data_of_removed_entries(paths: list[str], globs: list[str], cuts) -> dict[str, str]:
    """Files under a test folder named after a removed registry entry (tests/examplefiles/ruby/...)."""
    names = {}
    for cut in cuts:
        for name in cut.removed_names():
            if name and not name.startswith(".") and not any(c in name for c in "/*?[ "):  # not globs or mimetypes
                names[name] = f"{cut.registry.module}.{cut.registry.variable}"
    out = {}
    for rel in paths:
        for folder in rel.split("/")[:-1]:
            if folder in names and first_match(globs, rel) is not None:
                out[rel] = f"test data for '{folder}', an entry removed from the registry {names[folder]}"
                break
    return out


def _edits(root: Path, files, decisions: TestDecisions, data_gone: dict[str, str], index):
    edits, data_edits, removals = [], [], []
    by_file: dict[str, list] = {}
    for r in decisions.removals:
        by_file.setdefault(r.path, []).append(r)
    for path, rs in sorted(by_file.items()):
        lines = index.files[path].lines if path in index.files else 0
        whole = next((r for r in rs if r.qualname is None), None)
        if whole is not None:
            edits.append(Edit(path, None, f"test file: {whole.reason}", "test"))
            removals.append(Removal(RemovalKind.TEST, path, whole.reason, lines=lines, group="tests"))
            continue
        try:
            new = cut_units((root / path).read_bytes(), {r.qualname for r in rs})
        except Exception as exc:  # uncut, it would use what the fork removes: the whole file goes (a conftest or
            # package __init__ stays, as every test below it would go)
            if posixpath.basename(path) in ("conftest.py", "__init__.py"):
                decisions.warnings.append(f"{path}: tests not cut ({type(exc).__name__}: {exc})")
                continue
            why = f"its tests of removed code could not be cut ({type(exc).__name__}: {exc}): {rs[0].reason}"
            edits.append(Edit(path, None, f"test file: {why}", "test"))
            removals.append(Removal(RemovalKind.TEST, path, why, lines=lines, group="tests"))
            continue
        edits.append(Edit(path, new, "; ".join(f"{r.qualname}: {r.category}" for r in rs)[:500], "test"))
        removals += [Removal(RemovalKind.TEST, path, r.reason, symbol=r.qualname, group="tests") for r in rs]
    for path, reason in sorted(data_gone.items()):
        if path not in by_file:
            data_edits.append(Edit(path, None, reason, "test"))
            removals.append(Removal(RemovalKind.TEST, path, reason, lines=index.files[path].lines if path in index.files else 0,
                                    group="tests"))
    return edits, data_edits, removals


def _tests_naming_removed_files(files, decisions: TestDecisions) -> None:
    """A kept test whose strings name, by its file name, a test file the fork removes whole (plumbum 1.9.0's
    ``test_iterdir`` lists its own folder and asserts ``"test_remote.py"`` is there) reads that file: it goes too.
    A name some kept test file also has may mean that one: it counts for nothing."""
    whole = decisions.removed_files()
    kept = {posixpath.basename(p) for p in files if p not in whole}
    gone = {posixpath.basename(p): p for p in sorted(whole) if p.endswith(".py")}
    gone = {name: p for name, p in gone.items() if name not in kept}
    if not gone:
        return
    units = decisions.removed_units()
    for rel, tf in sorted(files.items()):
        for unit in tf.tests if rel not in whole else ():
            named = sorted(unit.strings & set(gone))
            if named and (rel, unit.qualname) not in units:
                decisions.removals.append(TestRemoval(rel, unit.qualname, REMOVED, f"names the test file "
                                                      f"{gone[named[0]]}, which the fork removes"))


def _keep_submodule_loads(root: Path, py: list[str], edits: list[Edit], stages, mm) -> None:
    """Kept test files that read a submodule (``click.testing.CliRunner`` after ``import click``) only a removed
    or cut file loaded import it themselves (testsuite/loads.py)."""
    by_path = {e.path: e for e in edits}
    gone_paths = {r.path for r in stages.plan.removals if r.kind in GONE_KINDS} | {
        e.path for e in edits if e.content is None}
    kept = {p: by_path[p].content if p in by_path else (root / p).read_bytes() for p in py if p not in gone_paths}
    if not kept:  # no test stays (or none at all: `tests = []`): nothing reads a lost load
        return
    gone = {p: (root / p).read_bytes() for p in sorted(gone_paths) if p.endswith(".py") and (root / p).is_file()}
    cut = {e.path: ((root / e.path).read_bytes(), e.content) for e in edits
           if e.content is not None and e.path.endswith(".py") and (root / e.path).is_file()}
    cut.update({p: ((root / p).read_bytes(), c) for p, c in stages.rewritten.items()
                if p.endswith(".py") and p not in cut and (root / p).is_file()})
    lost = lost_loads(gone, cut, kept)  # type: ignore[arg-type]  # kept: no None (gone_paths left out)
    for module in list(lost):
        info = mm.modules.get(module) if mm.is_internal(module) else None
        if mm.is_internal(module) and (info is None or info.path in gone_paths):
            del lost[module]  # a removed module of the project: a test reading it goes with it
    if not lost:
        return
    for path in sorted(kept):
        source = kept[path]
        needed = needed_loads(source, lost) if source is not None else {}
        if not needed:
            continue
        try:
            new = add_loads(source, needed)  # type: ignore[arg-type]
        except (SyntaxError, ValueError):
            continue
        why = f"imports {', '.join(needed)}: the files that loaded it leave ({', '.join(sorted(set(needed.values())))})"
        if path in by_path:
            old = by_path[path]
            edits[edits.index(old)] = Edit(path, new, f"{old.reason}; {why}"[:500], old.kind)
        else:
            edits.append(Edit(path, new, why, "test"))


def _data(files, decisions: TestDecisions, data_gone: dict[str, str], library: Library) -> dict:
    return {
        "files": len(files), "tests": sum(len(f.tests) for f in files.values()),
        "removed": [{"path": r.path, "test": r.qualname, "category": r.category, "reason": r.reason}
                    for r in decisions.removals],
        "removed_data": sorted(data_gone),
        "inherited": inherited_removals(files, decisions),
        "removed_registry_names": sorted(library.removed_entries),
        "cut_cases": cut_case_names(files, decisions),
        "warnings": decisions.warnings,
    }


def cut_case_names(files, decisions: TestDecisions) -> dict[str, list[str]]:
    """Path -> the last parts of what the table entries the plan cuts from the file name (``FLAC`` of mutagen's
    ``_FILETYPES[5]``): the test classes the file makes per entry (``TFileTypeFLAC``) go with them (the pytest
    check)."""
    out: dict[str, set[str]] = {}
    for r in decisions.removals:
        if r.qualname is not None and r.qualname.startswith(TABLE) and r.path in files:
            entry = r.qualname[len(TABLE):]
            out.setdefault(r.path, set()).update(use.dotted.rsplit(".", 1)[-1] for value, use in files[r.path].tables
                                                 if value == entry)
    return {path: sorted(names) for path, names in out.items()}


def inherited_removals(files, decisions: TestDecisions) -> list[tuple[str, str]]:
    """The tests a class of a test file inherits from a class of the same file whose test the plan removes
    (mutagen's ``TASFTags1(TASF, TASFMixin)`` runs ``TASFMixin.test_auto_bool`` as ``TASFTags1::test_auto_bool``):
    pytest no longer collects them in the fork. (path, "TASFTags1.test_auto_bool"), for the pytest check."""
    units = decisions.removed_units()
    out = []
    for path, tf in sorted(files.items()):
        gone = {q for p, q in units if p == path and q.count(".") == 1 and " " not in q}
        methods: dict[str, set[str]] = {}
        for q in tf.units:
            if q.count(".") == 1:
                methods.setdefault(q.split(".")[0], set()).add(q.split(".")[1])
        for cls in sorted(tf.bases) if gone else ():
            found = set(methods.get(cls, ()))  # the first class of the lookup order that defines a name wins
            todo, seen = list(tf.bases[cls]), set()
            while todo:
                base = todo.pop(0)
                if base in seen:
                    continue
                seen.add(base)
                for method in sorted(methods.get(base, set()) - found):
                    found.add(method)
                    if f"{base}.{method}" in gone:
                        out.append((path, f"{cls}.{method}"))
                todo += tf.bases.get(base, [])
    return out


def _cases_markdown(cases) -> str:
    if not cases:
        return ""
    out = ["", "## Test cases in data files that name removed registry keys", ""]
    out += [f"- `{c.path}`: {c.cases} cases ({', '.join(c.keys)})" for c in cases]
    return "\n".join(out)


def _markdown(files, decisions: TestDecisions, data_gone: dict[str, str]) -> str:
    fakes = [r for r in decisions.removals if r.category == FAKES]
    other = [r for r in decisions.removals if r.category != FAKES]
    out = [f"{len(files)} test files, {sum(len(f.tests) for f in files.values())} tests. Removed: "
           f"{len(other)} that use removed code, {len(fakes)} that fake a folded fact, {len(data_gone)} data files of "
           "removed registry entries or tests.", ""]
    if fakes:
        out += ["## Tests that fake a folded fact (they test code the fork no longer has)", ""]
        out += [f"- `{r.path}`{'::' + r.qualname if r.qualname else ''}: {r.reason}" for r in fakes] + [""]
    if other:
        out += ["## Tests of removed code", ""]
        out += [f"- `{r.path}`{'::' + r.qualname if r.qualname else ''}: {r.reason}" for r in other[:300]] + [""]
    folders = sorted({posixpath.dirname(p) for p in data_gone})
    if folders:
        out += ["## Test data of removed registry entries or tests", "",
                ", ".join(f"`{f}/`" for f in folders[:300]), ""]
    out += [f"- warning: {w}" for w in decisions.warnings]
    return "\n".join(out)


def _lazy(summary) -> bool:
    """A module ``__getattr__`` that may answer any name (not one that writes out the names it answers)."""
    return summary.module_getattr and summary.symbols.getattr_answers is None


def _answered(summary) -> set[str]:
    """The names a module ``__getattr__`` that writes them out may answer (jsonschema's deprecated names)."""
    return set(summary.symbols.getattr_answers or ()) if summary.module_getattr else set()
