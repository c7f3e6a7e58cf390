"""A statement that only names names (mutagen 1.47.0's ``asf/__init__.py``: ``error, ASFError, ASFHeaderError,
ASFValue`` under ``# flake8``, marking imports as used) runs nothing at import: no effect, so a test file's import
of the module, which the fork removes, no longer takes the whole file with it (testsuite.decide's "a removed
module's import ran its code"). A tuple with a call or an attribute still may run code."""

from __future__ import annotations

from slimfork.index.build import summary_of


def test_a_tuple_of_names_runs_nothing():
    statements = summary_of(b"from m import a, b\n\n# flake8\na, b\na\n(a, b.c)\n(a, f())\n").symbols.statements
    effects = [st.effect for st in statements[1:]]
    assert effects[0] is None and effects[1] is None
    assert effects[2] and effects[3], effects
