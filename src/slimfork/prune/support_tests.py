"""The tests in a test-support module: geopy 2.5.0's ``test/geocoders/__init__.py`` is the package of every
geocoder test (support, kept whole) and holds tests of its own, ``test_all_geocoders_are_exported_from_package``
reading ``set(dir(geopy.geocoders))``: that read held every name of the package and the 30 geocoders it imports.
A test is no support: what only it uses is pruned, and the tests stage decides it as any other test (one that
lists a package's names tests the whole package and goes with the names the slice removes)."""

from __future__ import annotations

import dataclasses

from slimfork.index.symbol_model import SymbolSummary


def without_tests(summary: SymbolSummary) -> SymbolSummary:
    """``summary`` without its top-level test functions and ``Test`` classes that no other statement names."""
    tests = [st for st in summary.statements if st.kind in ("def", "class") and st.binds and not st.decorators
             and all(b.startswith("test_" if st.kind == "def" else "Test") for b in st.binds)]
    if not tests:
        return summary
    others = [st for st in summary.statements if st not in tests]
    named = {n for st in others for n in st.names | st.strings | {c[0] for c in st.chains if c}}
    gone = [st for st in tests if not set(st.binds) & named]
    if not gone or summary.all_names is not None and any(b in summary.all_names for st in gone for b in st.binds):
        return summary
    return dataclasses.replace(summary, statements=[st for st in summary.statements if st not in gone])
