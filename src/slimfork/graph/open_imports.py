"""Imports of a name computed entirely at run time (``import_module(name)`` with ``name`` from the command line, a
config file or a caller). Unknown means keep: in kept code such an import may load any module of the project that
nothing in the original imports or names (a plugin run by its name), so those *loose* modules stay with it, unless
the spec's ``outside_imports`` says the run-time names of that module's imports load code outside the fork (a
user's own plugins, hooks given on the command line). Modules that code of the original imports or names are not
loose: when the plan removes that code, they go with it (docs/soundness.md)."""

from __future__ import annotations

import ast
from dataclasses import replace

from slimfork.decisions import Uncertain
from slimfork.globs import match_modules
from slimfork.graph.dynamic import LAZY_WHY, RUNTIME_WHY, is_test_module
from slimfork.graph.edges import Edge, build_edges
from slimfork.graph.modules import ModuleMap
from slimfork.graph.weigh import LOOSE
from slimfork.source.test_folders import TEST_DIRS, is_test_file


def loose_modules(mm: ModuleMap, edges: dict, registries, excluded) -> frozenset[str]:
    """The project's modules (not tests or modules of a test folder, nor top-level packages) that no other module
    of the original imports or names, outside a package the spec declares as a registry (its members are the
    registry's to keep or cut) and the modules the spec drops."""
    named: set[str] = set()
    for source, out in edges.items():
        for edge in out:
            if edge.kind != "parent" and edge.target != source and not source.startswith(edge.target + "."):
                named.add(edge.target)
    scanned = tuple(reg.package for reg in registries)
    return frozenset(m for m, info in mm.modules.items()
                     if m not in named and m not in excluded and m not in mm.top_names and mm.is_internal(m)
                     and info.path is not None and info.path.endswith(".py") and not _test_side(info.path)
                     and not any(m == p or m.startswith(p + ".") for p in scanned))


def open_import_edges(mm: ModuleMap, edges: dict, uncertain: list[Uncertain], loose: frozenset[str],
                      outside: tuple[str, ...], registry_packages: tuple[str, ...] = ()) -> list[Uncertain]:
    """Add an edge from each module with an import of a name computed entirely at run time to every loose module,
    and say so in its uncertain place; a module ``outside`` (globs) matches keeps only what strings name. One in a
    module ``__getattr__`` (a lazy attribute) also keeps every module of its package (but tests): the name is an
    attribute of the package, and a module of it that another module imports (not loose) may be the one it loads
    when the plan removes that other module; not where the spec declares a registry in that package (pygments'
    ``LEXERS`` mapping in ``pygments.lexers._mapping``): its entries are the names the lazy attributes load, and
    the declaration says which of them to keep."""
    declared = set().union(*(match_modules(p, mm.modules) for p in outside)) if outside else set()
    out = []
    for place in uncertain:
        module = mm.module_of(place.path)
        if place.kept or not place.why.startswith(RUNTIME_WHY) or module is None:
            out.append(place)
        elif _of_loaded_object(place.what):
            out.append(replace(place, why=f"{RUNTIME_WHY}, the module of an object (`__module__`): one that is "
                                          "loaded already, so it keeps no other module"))
        elif module in declared:
            out.append(replace(place, why=f"{RUNTIME_WHY}, which outside_imports says loads code outside the fork: "
                                          "the modules kept are those the code names in strings", declare=""))
        else:
            kept = sorted(loose - {module})
            edges[module] += [Edge(m, "dynamic", place.line, f"{place.what} ({LOOSE}: nothing in the original "
                                   "imports or names it)") for m in kept]
            why = f"{RUNTIME_WHY}: kept all {len(kept)} modules of the project that nothing in the original " \
                  "imports or names"
            package = module if mm.modules[module].is_package else module.rpartition(".")[0]
            if place.why.startswith(LAZY_WHY) and package and \
                    not any(r == package or r.startswith(package + ".") for r in registry_packages):
                own = sorted(m for m in [package, *mm.descendants(package)]
                             if m in mm.modules and m != module and m not in kept and not is_test_module(m))
                edges[module] += [Edge(m, "dynamic", place.line, f"{place.what} (a lazy attribute of {package})")
                                  for m in own]
                kept = sorted({*kept, *own})
                why = f"{LAZY_WHY}: kept all {len(own)} other modules of the package {package}, any of which it " \
                      f"may load, and the {len(kept) - len(own)} modules of the project that nothing in the " \
                      "original imports or names"
            out.append(replace(place, kept=tuple(kept), why=why))
    return out


def _test_side(path: str) -> bool:
    """A test file, or any module in a test folder (test kits, fixtures): no run-time name of kept code loads it."""
    return is_test_file(path) or any(part in TEST_DIRS for part in path.split("/")[:-1])


def open_places(mm: ModuleMap, index) -> list[Uncertain]:
    """The imports of a name computed entirely at run time in the project's code (not its tests) that keep loose
    modules, each with those it keeps (``slimfork init`` suggests ``outside_imports`` for them)."""
    edges, _, uncertain, _ = build_edges(mm, index, [])
    places = open_import_edges(mm, edges, uncertain, loose_modules(mm, edges, (), set()), ())
    return [u for u in places if u.kept and u.why.startswith(RUNTIME_WHY) and not _test_side(u.path)]


def _of_loaded_object(call: str) -> bool:
    """``import_module(check.__module__)``, ``import_module(type(x).__module__)``: the module an object already
    loaded comes from."""
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except SyntaxError:
        return False
    return isinstance(node, ast.Call) and bool(node.args) and isinstance(node.args[0], ast.Attribute) \
        and node.args[0].attr == "__module__"
