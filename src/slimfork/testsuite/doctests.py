"""Doctests as test code: the text files pytest collects as doctests (``--doctest-glob``, by default
``test*.txt``), each one test whose uses are what its ``>>>`` examples import and read, and the examples in a test
file's docstrings (``--doctest-modules``)."""

from __future__ import annotations

import ast
import fnmatch
import posixpath

from slimfork.globs import first_match
from slimfork.index.doctests import doctest_examples
from slimfork.testsuite.scan import TestFile, Unit, collect_uses

_TEXT = (".txt", ".rst", ".md", ".text", ".doctest", ".test")  # not data pytest would fail to read as text


def collected_by_pytest(path: str, globs: list[str]) -> bool:
    """As pytest's ``fnmatch_ex``: a glob without ``/`` matches the file name, one with ``/`` the path's end."""
    name = posixpath.basename(path)
    return any(fnmatch.fnmatch(name, g) if "/" not in g else fnmatch.fnmatch(path, g) or
               fnmatch.fnmatch(path, "*/" + g) for g in globs)


def doctest_files(paths: list[str], globs: list[str], test_globs: list[str], testpaths: list[str]) -> list[str]:
    """The files of ``paths`` pytest collects as doctests: matching ``globs``, in a test folder or ``testpaths``."""
    return [p for p in paths if p.endswith(_TEXT) and collected_by_pytest(p, globs) and (
        first_match(test_globs, p) is not None or any(_under(p, t) for t in testpaths))]


def _under(path: str, testpath: str) -> bool:
    """Whether pytest collects ``path`` from a ``testpaths`` entry: a folder above it, or the file itself
    (``testpaths = tests README.md``)."""
    entry = testpath.strip().removeprefix("./").rstrip("/")
    return entry in ("", ".") or path == entry or path.startswith(entry + "/")


def scan_doctest_file(path: str, text: str, internal: set[str]) -> TestFile:
    """One test (named as pytest names it: the file's name) that uses what the examples import."""
    out = TestFile(path)
    lines = text.count("\n") + 1
    out.units["<module>"] = Unit("<module>", "module", 1, lines)
    unit = Unit(posixpath.basename(path), "test", 1, lines)
    collect_uses(ast.Module(body=[s for tree in doctest_examples(text) for s in tree.body], type_ignores=[]),
                 unit, internal)
    out.units[unit.qualname] = unit
    return out
