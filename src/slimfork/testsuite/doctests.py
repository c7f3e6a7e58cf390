"""Doctests as test code: the text files pytest collects as doctests (``--doctest-glob``, by default
``test*.txt``), each one test whose uses are what its ``>>>`` examples import and read, and the examples in a test
file's docstrings (``--doctest-modules``)."""

from __future__ import annotations

import ast
import fnmatch
import posixpath
import re
import textwrap

from slimfork.globs import first_match
from slimfork.index.doctests import doctest_examples
from slimfork.testsuite.paths import DOC_RUN
from slimfork.testsuite.scan import TestFile, Unit, Use, collect_uses

_TEXT = (".txt", ".rst", ".md", ".text", ".doctest", ".test")  # not data pytest would fail to read as text


def collected_by_pytest(path: str, globs: list[str]) -> bool:
    """As pytest's ``fnmatch_ex``: a glob without ``/`` matches the file name, one with ``/`` the path's end."""
    name = posixpath.basename(path)
    return any(fnmatch.fnmatch(name, g) if "/" not in g else fnmatch.fnmatch(path, g) or
               fnmatch.fnmatch(path, "*/" + g) for g in globs)


def doctest_files(paths: list[str], globs: list[str], test_globs: list[str], testpaths: list[str],
                  norecursedirs: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The files of ``paths`` pytest collects as doctests: matching ``globs``, in a test folder or ``testpaths``;
    without ``testpaths``, plain ``pytest`` at the root collects them anywhere but in ``norecursedirs`` folders (a
    ``README.md`` beside ``pyproject.toml`` under ``--doctest-glob=*.md``)."""
    return [p for p in paths if p.endswith(_TEXT) and collected_by_pytest(p, globs) and (
        first_match(test_globs, p) is not None or collected_path(p, testpaths, norecursedirs))]


def collected_path(path: str, testpaths: list[str], norecursedirs) -> bool:
    """Whether plain ``pytest`` at the root reaches ``path``: under a ``testpaths`` entry, or, without any, in no
    folder ``norecursedirs`` matches."""
    if testpaths:
        return any(_under(path, t) for t in testpaths)
    return not any(fnmatch.fnmatch(part, d) for part in path.split("/")[:-1] for d in norecursedirs)


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


def add_doc_runs(files: dict[str, TestFile], texts: dict[str, str], internal: set[str]) -> None:
    """A test that runs a documentation file's examples (``doctest.testfile``, ``DocFileSuite``) uses what they
    import: each ``doc:`` use becomes the uses of the file it names (by the end of its path), or of every text
    file with examples in ``texts`` when the path is computed. ``texts``: the project's text files with examples."""
    scanned: dict[str, list] = {}
    for tf in files.values():
        for unit in tf.units.values():
            runs = [u for u in unit.uses if u.dotted.startswith(DOC_RUN)]
            for run in runs:
                unit.uses.remove(run)
                end = run.dotted[len(DOC_RUN):]
                for rel in sorted(texts):
                    if end == "*" or rel == end or rel.endswith("/" + end):
                        if rel not in scanned:
                            scanned[rel] = scan_doctest_file(rel, texts[rel], internal).units[
                                posixpath.basename(rel)].uses
                        unit.uses += [Use(u.dotted, run.line) for u in scanned[rel]]


_FENCE = re.compile(r"^[ \t]*(```|~~~)[ \t]*(?:python|py|python3|pycon)\b[^\n]*\n(.*?)^[ \t]*\1", re.S | re.M)
_DIRECTIVE = re.compile(r"^([ \t]*)\.\. (?:code-block|code|sourcecode)::[ \t]*(?:python|py|python3)[ \t]*\n"
                        r"(?:\1[ \t]+:\w[^\n]*\n)*\n?((?:(?:\1[ \t]+[^\n]*)?\n)+)", re.M)
_RUNNERS = frozenset({"exec", "compile", "run_path", "run_code"})


def add_code_block_runs(files: dict[str, TestFile], root, paths: list[str], internal: set[str]) -> None:
    """A test that runs a documentation file's code blocks (reads ``README.md`` by name, finds its fenced
    ```` ```python ```` blocks or ``.. code-block:: python`` directives and runs each with ``exec``) uses what they
    import, as one that runs the file's doctests does: its uses join the test's. ``paths``: the project's files."""
    for tf in files.values():
        for unit in tf.units.values():
            if unit.kind == "module" or not unit.names & _RUNNERS:
                continue
            named = [s for s in unit.strings if s.endswith(_TEXT) and "\n" not in s]
            for rel in paths:
                if rel.endswith(_TEXT) and any(rel == n.lstrip("./") or rel.endswith("/" + n.lstrip("./"))
                                               for n in named):
                    unit.uses += [Use(u.dotted, unit.line, f"runs the code blocks of {rel}, which import it")
                                  for u in _code_block_uses(root, rel, internal)]


def _code_block_uses(root, rel: str, internal: set[str]) -> list[Use]:
    text = (root / rel).read_text("utf-8", "replace")
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    blocks += [textwrap.dedent(m.group(2)) for m in _DIRECTIVE.finditer(text)]
    unit = Unit(posixpath.basename(rel), "test", 1, 1)
    body: list[ast.stmt] = [s for tree in doctest_examples(text) for s in tree.body]
    for block in blocks:
        try:
            body += ast.parse(block).body
        except SyntaxError:  # a console session, a fragment: its imports by line
            for line in block.splitlines():
                try:
                    body += ast.parse(line.strip().removeprefix(">>> ")).body
                except SyntaxError:
                    continue
    collect_uses(ast.Module(body=body, type_ignores=[]), unit, internal)
    return unit.uses


def library_doctests_load(root, modules: dict[str, str], internal: set[str], module_of) -> dict[str, str]:
    """Under ``--doctest-modules`` pytest runs the docstring examples of the library modules it collects
    (``modules``: name -> path, the kept ones under its test paths): the project modules their ``>>>`` lines import
    (``module_of``: a dotted use -> its module, or None) -> why they stay as test support. A module's docstring
    importing what only it imports fails in the fork otherwise."""
    out: dict[str, str] = {}
    for name, rel in sorted(modules.items()):
        source = (root / rel).read_bytes()
        if b">>>" not in source:
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        texts = [(getattr(node, "lineno", 1), ast.get_docstring(node, clean=False) or "") for node in ast.walk(tree)
                 if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
        for line, text in texts + _test_dict_texts(tree):
            unit = Unit(name, "test", 1, 1)
            collect_uses(ast.Module(body=[s for e in doctest_examples(text) for s in e.body], type_ignores=[]),
                         unit, internal)
            for use in unit.uses:
                module = module_of(use.dotted)
                if module is not None and module != name:
                    out.setdefault(module, f"a doctest in {rel} (line {line}), which pytest runs "
                                           "(--doctest-modules), imports it")
    return out


def _test_dict_texts(tree: ast.Module) -> list[tuple[int, str]]:
    """The examples of a module-level ``__test__`` dict, which doctest runs as it runs docstrings: each string
    value, written in place or a module-level name bound to one (a value it cannot read runs unseen)."""
    strings = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
               and isinstance(n.value.value, str) for t in n.targets if isinstance(t, ast.Name)}
    out = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict) and any(
                isinstance(t, ast.Name) and t.id == "__test__"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            for value in node.value.values:
                text = value.value if isinstance(value, ast.Constant) else \
                    strings.get(value.id) if isinstance(value, ast.Name) else None
                if isinstance(text, str):
                    out.append((value.lineno, text))
    return out


def text_files(root, paths: list[str]) -> dict[str, str]:
    """The text files of ``paths`` (by their suffix) that hold doctest examples -> their text."""
    out = {}
    for rel in paths:
        if rel.endswith(_TEXT):
            text = (root / rel).read_text("utf-8", "replace")
            if ">>>" in text:
                out[rel] = text
    return out
