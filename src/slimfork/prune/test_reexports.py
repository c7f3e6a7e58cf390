"""Re-exports the tests import. ``from treelib import Node`` in a test file, where ``treelib/__init__.py`` only
re-exports ``Node`` from ``treelib.node``, which the fork keeps: under ``public_api = "roots"`` with ``package_api =
false`` the re-export is no API and went, and with it every test of the kept class (treelib 1.7.0: test_node.py whole
and 3 tests of test_tree.py, 14 of 55). A re-export costs one import line and what it names stays anyway, so one a
kept test file imports (or reads as ``pkg.Name``) stays. A name the module defines itself still goes with the tests
that use it: tests follow the code."""

from __future__ import annotations

import ast

from slimfork.globs import first_match
from slimfork.graph.symbols import SymbolReach
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.symbols import SymbolSummary
from slimfork.source.test_folders import tests_of

_HOPS = 8  # a re-export of a re-export of ...: followed this far


def test_reads(analysis, mm, removed: frozenset[str] | set[str]) -> list[tuple[str, str, str]]:
    """(module, name, test file) for each library name a test file imports (``from pkg.mod import Name``) or reads
    off an imported module (``import pkg`` then ``pkg.Name``), anywhere in the file; submodules aside. A test file
    the fork does not have (``removed``) reads nothing."""
    globs = tests_of(analysis)
    out: set[tuple[str, str, str]] = set()
    for rel in sorted(analysis.index.files):
        if not rel.endswith(".py") or rel in removed or first_match(globs, rel) is None:
            continue
        try:
            tree = ast.parse((analysis.tree.root / rel).read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        modules: dict[str, str] = {}  # local name -> internal module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level and mm.is_internal(node.module):
                for a in node.names:
                    if f"{node.module}.{a.name}" in mm.modules:
                        modules[a.asname or a.name] = f"{node.module}.{a.name}"
                    elif a.name != "*":
                        out.add((node.module, a.name, rel))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if mm.is_internal(a.name):
                        modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        for node in ast.walk(tree):
            chain: list[str] = []
            while isinstance(node, ast.Attribute):
                chain.insert(0, node.attr)
                node = node.value
            if chain and isinstance(node, ast.Name) and node.id in modules:
                dotted = ".".join([modules[node.id], *chain])
                target = mm.longest_module(dotted)
                if target and len(dotted) > len(target):
                    out.add((target, dotted[len(target) + 1:].split(".")[0], rel))
    return sorted(out)


def kept_reexports(reads: list[tuple[str, str, str]], summaries: dict[str, SymbolSummary], reach: SymbolReach,
                   mm) -> list[tuple[str, str, str]]:
    """Symbol roots: each re-export a test reads that ``reach`` prunes and that names (through other re-exports) a
    name or module the fork keeps."""
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for module, name, rel in reads:
        chain = _reexport_chain(module, name, summaries, reach, mm)
        for hop in chain or ():
            if hop not in seen:
                seen.add(hop)
                out.append((*hop, f"a re-export of kept code that the test file {rel} imports"))
    return out


def _kept(module: str, name: str, summaries, reach: SymbolReach) -> bool:
    return module in summaries and (module in reach.keep_all or name in reach.kept_names.get(module, ()))


def _reexport_chain(module: str, name: str, summaries, reach: SymbolReach, mm) -> list[tuple[str, str]] | None:
    """The pruned re-exports from (module, name) to a kept name or module, or None when it does not end at one
    (a definition that goes, a name bound otherwise too, a removed module)."""
    chain: list[tuple[str, str]] = []
    for _ in range(_HOPS):
        if _kept(module, name, summaries, reach):
            return chain
        summary = summaries.get(module)
        if summary is None:
            return None
        statements = [summary.statements[i] for i in summary.binders().get(name, ())]
        aliases = [a for st in statements for a in st.aliases if a.bound == name]
        if not statements or any(st.kind != "import" for st in statements) or len(aliases) != 1:
            return None
        chain.append((module, name))
        alias = aliases[0]
        base = absolute_module(package_of(module, mm.modules[module].is_package), alias.level, alias.module)
        if base is None:
            return None
        if alias.name is None or f"{base}.{alias.name}" in mm.modules:  # a module: kept when the plan keeps it
            return chain if (alias.obj or base if alias.name is None else f"{base}.{alias.name}") in summaries \
                else None
        module, name = base, alias.name
    return None
