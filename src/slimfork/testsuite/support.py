"""Test-support code inside the package: modules named as test code that no root reaches, even in the original
(``pkg.testing._fake_net``), and that kept tests import. They stay with the tests that use them, so that tests of
kept code keep running; a test goes only when it uses removed code or fakes a folded fact. Other library modules
no root reaches are removed code: the tests that use them go."""

from __future__ import annotations

import posixpath
import re
from typing import Collection

from slimfork.graph.edges import registry_members
from slimfork.source.test_subjects import names_its_subject
from slimfork.spec.kinds import REWRITING_KINDS
from slimfork.testsuite.decide import importable_names

_FOLLOWED = ("import", "from", "dynamic", "parent")


# A module named as test code (``pkg.testing._fake_net``, ``pkg._testutils``, ``pkg.tests.helpers``): the rest of
# the library that no root reaches leaves the fork with its tests, as a hand fork cuts it.
_SUPPORT_NAME = re.compile(r"(^|_)(tests?|testing|testutils?|utils_?test|test_?utils?|test_?helpers?|fixtures?|"
                           r"mocks?|fakes?|stubs?|dummy|conftest|pytest_?plugin|testsuite|testlib)(_|$)")


def support_candidates(analysis, plan, test_paths: set[str], named: Collection[str] = ()) -> set[str]:
    """Modules named as test code (``_SUPPORT_NAME``, in any part of the dotted name) that the plan removes as
    unreachable and that no root reached in the original code either, or that left only after symbol pruning (so
    neither a fact, nor a registry, nor a drop took them), outside the declared registries' packages and the tests. ``named``: modules the test setup loads
    whatever their name (a plugin pytest's configuration names): they and what they import are candidates too."""
    graph = analysis.graph
    filtered = set()
    for reg in analysis.spec.registries:
        filtered |= set(graph.mm.descendants(reg.package)) - set(registry_members(graph.mm, reg))
    after_symbols = {r.module for r in plan.removals if r.kind == "unreachable" and r.module and r.group == "symbols"}
    removable = {r.module for r in plan.removals if r.kind == "unreachable" and r.module and r.path not in test_paths
                 and (r.module not in graph.reached or r.group == "symbols") and r.module not in filtered}
    # group "symbols": reached in the original, unreachable only once symbol pruning removed the names that imported
    # or named it (asn1crypto.pem, named by load_order()'s strings): no fact, registry or drop took it; but a
    # registry's cut also runs in that stage, and what only its cut entries imported is the registry's
    removable -= _freed_by_registries(analysis, after_symbols)
    return {m for m in removable if is_support_name(m)} | _imported_closure(graph.edges, set(named), removable)


def _freed_by_registries(analysis, after_symbols: set[str]) -> set[str]:
    """The modules that left after symbol pruning and that a rewriting registry's module imports in the original,
    with what only they import among them (num2words' ``lang_TET``, imported by ``CONVERTER_CLASSES``' module for a
    cut key: a test of it stays out with it, not as a test of kept code)."""
    mm, edges = analysis.graph.mm, analysis.graph.edges
    holders = {m for reg in analysis.spec.raw.get("registries", []) if isinstance(reg, dict)
               and reg.get("kind") in REWRITING_KINDS and (m := mm.longest_module(str(reg.get("package", ""))))}
    start = {e.target for holder in holders for e in edges.get(holder, ()) if e.target in after_symbols}
    return _imported_closure(edges, start, after_symbols)


def _imported_closure(edges, start: set[str], within: set[str]) -> set[str]:
    out: set[str] = set()
    todo = [m for m in start if m in within]
    while todo:
        module = todo.pop()
        if module not in out:
            out.add(module)
            todo += [e.target for e in edges.get(module, ()) if e.kind in _FOLLOWED and e.target in within]
    return out


def is_support_name(module: str) -> bool:
    return any(_SUPPORT_NAME.search(part.lower()) for part in module.split("."))


def needed_support(analysis, candidates: set[str], used: dict[str, str], gone: set[str]) -> dict[str, str]:
    """The candidates the kept tests need (``used``: module -> where a kept test imports it), with what they import
    among the candidates; a candidate that imports a removed module that is no candidate stays out (it would break).
    Returns module -> why it stays."""
    edges = analysis.graph.edges
    out: dict[str, str] = {}
    todo = [(m, why) for m, why in used.items() if m in candidates]
    while todo:
        module, why = todo.pop()
        if module in out:
            continue
        out[module] = why
        for edge in edges.get(module, ()):
            if edge.kind in _FOLLOWED and edge.target in candidates and edge.target not in out:
                todo.append((edge.target, f"imported by {module}, {why}" if edge.kind != "parent"
                             else f"parent package of {module}, {why}"))
    dropped: set[str] = set()
    changed = True
    while changed:  # a candidate importing a removed module would break; so would what imports it
        changed = False
        for module in list(out):
            if any(e.kind in ("import", "from") and (e.target in gone and e.target not in candidates
                                                     or e.target in dropped) for e in edges.get(module, ())):
                del out[module]
                dropped.add(module)
                changed = True
    return out


def used_support(files, decisions, library, candidates: set[str]) -> dict[str, str]:
    """Candidate modules the tests that stay import: module -> the first place one does. A test file counts only
    if it also uses code the roots reach (boltons' test_cacheutils, when the root is boltons.iterutils, tests only
    code the spec leaves out); a conftest or test package counts; a file with no tests (a helper) counts only where
    a file that counts imports it (fontTools' ``Tests/ufoLib/testSupport.py``, imported by ufoLib's tests alone)."""
    gone_files, gone_units = decisions.removed_files(), decisions.removed_units()
    counted = _counted_files(files, library, candidates)
    out: dict[str, str] = {}
    for path, tf in sorted(files.items()):
        if path in gone_files or path not in counted:
            continue
        for qualname, unit in tf.units.items():
            if (path, qualname) in gone_units or (path, qualname.split(".")[0]) in gone_units:
                continue
            for use in unit.uses:
                module = library.module_of(use.dotted)
                while module in candidates and not names_its_subject(path, module):
                    out.setdefault(module, f"kept test {path}:{use.line} {use.via or 'imports it'}")
                    module = module.rpartition(".")[0]
    return out


def _counted_files(files, library, candidates: set[str]) -> set[str]:
    """Test files that test kept code, conftests and test packages; then the helpers (no tests) they import, and
    those no test file imports (pytest may load them another way: ``-p``, a plugin list)."""
    def importers(of: set[str]) -> set[str]:
        parts = [u.dotted.split(".") for p in of for unit in files[p].units.values() for u in unit.uses]
        prefixes = {".".join(dotted[:i]) for dotted in parts for i in range(1, len(dotted) + 1)}
        return {p for p, names in helpers.items() if prefixes.intersection(names)}

    tests = {n for p in files for n in importable_names(p)}  # a test module's import of a helper tests nothing
    counted = {p for p, tf in files.items() if tf.tests and _tests_kept_code(tf, library, candidates | tests)
               or posixpath.basename(p) in ("conftest.py", "__init__.py")}
    helpers = {p: importable_names(p) for p, tf in files.items() if not tf.tests and p not in counted}
    counted |= helpers.keys() - importers(set(files))
    while found := importers(counted) - counted:
        counted |= found
    return counted


def _tests_kept_code(tf, library, candidates: set[str]) -> bool:
    used = {library.module_of(use.dotted) for unit in tf.units.values() for use in unit.uses}
    return any(m is not None and m not in candidates and m in library.fork for m in used)
