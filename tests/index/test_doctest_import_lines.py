"""A doctest's import line binds a name; it uses no name as a value. The doctest scan read every identifier of
every example line, so ``>>> import petl as etl`` (petl 1.7.15's docstrings) and ``>>> import httpx`` (httpx 0.27.2's
``_api.request``) used the bound module as a value, which keeps every name of the package: all of ``petl``'s and
``httpx``'s API stayed for one kept function (session 37's depth round). The import itself is read as an import (the
chains after it, ``etl.values``, say what it uses, also spread over ``...`` lines: ``(etl\n... .empty())`` used the
bare name ``etl`` when read line by line); an example that does not parse is read word by word as before, its import
lines skipped."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

A = '''
def f(x):
    """Double it.

    >>> import dp as d
    >>> d.f(2)
    4
    >>> import dp
    >>> dp.f(1)
    2
    >>> (
    ...     d
    ...     .f(3)
    ... )
    6
    """
    return 2 * x
'''

FILES = {
    "pyproject.toml": '[project]\nname = "dp"\nversion = "1.0"\n',
    "dp/__init__.py": "from dp.a import f\nfrom dp.b import g\n",
    "dp/a.py": A,
    "dp/b.py": "def g():\n    return 3\n",
}
SPEC = 'source = "."\nroots = ["dp.a:f"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_an_import_line_of_a_doctest_uses_no_name():
    st = symbol_summary(ast.parse(A)).statements[0]
    assert "d" not in st.names and "dp" not in st.names and "import" not in st.names
    assert ("d", "f") in st.chains and ("dp", "f") in st.chains
    assert {a.bound for a in st.inner_imports} == {"d", "dp"}


def test_the_package_keeps_only_what_the_doctest_reads(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    assert "dp/b.py" in {r.path for r in analysis.plan.removals}
    assert not analysis.stages.symbols.reach.keep_all.get("dp")


def test_an_example_that_does_not_parse_is_read_word_by_word():
    st = symbol_summary(ast.parse('def f():\n    """\n    >>> import dp\n    >>> dp.f(1 +\n    """\n')).statements[0]
    assert ("dp", "f") in st.chains and "dp" not in st.names


def test_a_line_that_does_more_is_read_as_before():
    st = symbol_summary(ast.parse('def f():\n    """\n    >>> import dp; print(dp)\n    """\n')).statements[0]
    assert "dp" in st.names
