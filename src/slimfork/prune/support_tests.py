"""The tests in a test-support module: geopy 2.5.0's ``test/geocoders/__init__.py`` is the package of every
geocoder test (support, kept whole) and holds tests of its own, ``test_all_geocoders_are_exported_from_package``
reading ``set(dir(geopy.geocoders))``: that read held every name of the package and the 30 geocoders it imports.
A test is no support: what only it uses is pruned, and the tests stage decides it as any other test (one that
lists a package's names tests the whole package and goes with the names the slice removes)."""

from __future__ import annotations

import ast
import dataclasses

from slimfork.index.symbol_model import SymbolSummary


def without_tests(summary: SymbolSummary, source: bytes) -> SymbolSummary:
    """``summary`` with its top-level ``test_*`` functions using nothing, where defining one runs none of its code
    (no decorator, default or annotation) and no other statement of the module names it."""
    try:
        body = ast.parse(source).body
    except (SyntaxError, ValueError):
        return summary
    tests = {st.index for st in summary.statements if st.kind == "def" and len(st.binds) == 1
             and st.binds[0].startswith("test") and st.index < len(body) and _runs_nothing(body[st.index])}
    named = {n for st in summary.statements if st.index not in tests
             for n in st.names | st.strings | {c[0] for c in st.chains if c}}
    tests = {st.index for st in summary.statements if st.index in tests and st.binds[0] not in named}
    if not tests:
        return summary
    return dataclasses.replace(summary, statements=[
        dataclasses.replace(st, names=set(), chains=set(), strings=set(), words=set(), getattrs=set(),
                            inner_imports=set(), own_lookups=set(), walks=set(), anywhere=set(),
                            anywhere_lookups=set()) if st.index in tests else st for st in summary.statements])


def _runs_nothing(node: ast.stmt) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.decorator_list or node.returns:
        return False
    args = node.args
    every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
    return not args.defaults and not any(args.kw_defaults) and not any(a.annotation for a in every)
