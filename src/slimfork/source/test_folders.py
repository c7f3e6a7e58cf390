"""The project's test folders when the spec names none: folders called tests/test/testing/testsuite/unittests that
hold test files (``test_*.py``, ``*_test.py``, ``*_tests.py``, ``conftest.py``, unittest's ``*test.py``), the
outermost of each; and test modules at the top (``test_six.py``). Without them, tests of kept code looked
unreachable and left the fork (boltons' ``tests/test_iterutils.py`` with the root ``boltons.iterutils``;
asyncstdlib 3.12.5's ``unittests/``)."""

from __future__ import annotations

import itertools
from typing import Collection, Iterable

from slimfork.globs import first_match
from slimfork.source.pytest_ini import configured_testpaths

TEST_DIRS = ("tests", "test", "testing", "testsuite", "test_suite", "unittests", "unit_tests")


def is_test_file(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test") or name.endswith(("_test.py", "_tests.py"))
                                     or name == "conftest.py")  # mkdocs' build_tests.py (unittest's *tests.py)


def find_test_folders(paths: Iterable[str]) -> list[str]:
    paths = list(paths)
    found: list[str] = []
    for rel in paths:
        parts = rel.split("/")
        for i, part in enumerate(parts[:-1]):
            if part in TEST_DIRS:
                folder = "/".join(parts[:i + 1])
                if not any(folder == f or folder.startswith(f + "/") for f in found):
                    found = [f for f in found if not f.startswith(folder + "/")] + [folder]
                break
    folders = [f for f in found if any(is_test_file(r) or r.endswith(("test.py", "tests.py"))  # phonenumbertest.py
                                       for r in paths if r.startswith(f + "/"))]
    return sorted(folders + [r for r in paths if _top_level_test(r)])


def _top_level_test(rel: str) -> bool:
    """A test module beside a single-module project's code: ``test_six.py``, ``tests.py`` (jsonpointer),
    ``src/test_typing_extensions.py``. Not a ``conftest.py``: it configures every test, kept as it is."""
    parts = rel.split("/")
    if len(parts) > 2 or (len(parts) == 2 and parts[0] != "src"):
        return False
    name = parts[-1]
    return name in ("tests.py", "test.py") or (name.startswith("test_") or name.endswith("_test.py")) \
        and name.endswith(".py")


def tests_of(analysis) -> list[str]:
    """The spec's ``tests``, else the test folders found in the source (``tests = []`` says there are none); with
    either, the test files and folders the pytest configuration's ``testpaths`` names, which plain ``pytest`` runs
    (phonenumbers' ``testpaths = ["testwrapper.py"]``, which star-imports the tests)."""
    tests = analysis.spec.sections.get("tests")
    globs = list(tests.globs) if tests is not None else find_test_folders(analysis.index.files)
    if tests is None:
        globs += [f for f in configured_test_folders(analysis.tree.root, analysis.index.files)
                  if first_match(globs, f + "/x.py") is None]
    if globs:
        globs += [p for p in _configured(analysis.tree.root, analysis.index.files) if first_match(globs, p) is None]
    return globs + conftests_above(globs, analysis.index.files)


def _configured(root, files: Collection[str]) -> list[str]:
    """``testpaths`` entries that are Python files of the source, or test folders: named so (``tests``,
    ``testing``, ...) or holding mostly test files (kombu's ``t/unit/``); any other folder (``src``, for doctests of
    the code) is no test."""
    known = set(files)
    out = []
    for entry in configured_testpaths(root):
        entry = entry.strip().removeprefix("./").rstrip("/")
        inside = [f for f in files if f.startswith(entry + "/") and f.endswith(".py")]
        if entry in known and entry.endswith(".py") or inside and (entry.rsplit("/", 1)[-1] in TEST_DIRS
                                                                  or _mostly_tests(inside)):
            out.append(entry)
    return out


def configured_test_folders(root, files: Collection[str]) -> list[str]:
    """The folders pytest's ``testpaths`` names that hold mostly test files, which no name shows (``t/unit``)."""
    return [entry for entry in _configured(root, files) if not entry.endswith(".py")]


def _mostly_tests(paths: list[str]) -> bool:
    """Test files are most of the modules (``__init__.py`` aside): a folder of tests and their helpers."""
    named = [p for p in paths if not p.endswith("/__init__.py")]
    return sum(map(is_test_file, named)) * 2 > len(named)


def conftests_above(globs: list[str], paths: Iterable[str]) -> list[str]:
    """The ``conftest.py`` files in the folders above the test folders (the project root's, ``src/``'s): pytest
    loads them for those tests, so they are test setup, not scripts (a root ``conftest.py`` defining fixtures with
    a helper of ``pkg.devtools`` left the fork as a script importing removed code, and every test erred)."""
    folders = set()
    for glob in globs:
        parts = glob.strip().lstrip("./").rstrip("/").split("/")
        literal = list(itertools.takewhile(lambda p: not set("*?[") & set(p), parts))
        folders |= {"/".join(literal[:i]) for i in range(len(literal) + 1)}
    found = sorted(rel for rel in paths if rel.rsplit("/", 1)[-1] == "conftest.py"
                   and (rel.rpartition("/")[0] in folders))
    return [rel for rel in found if first_match(globs, rel) is None]
