"""The draft's suggestions for how the checked run runs the project's tests where pytest's defaults run none: the
package folders of a doctest-only project, a ``python_files`` pattern, a Django app's settings module (one
``[checks.pytest]`` table), the test modules inside the packages, or a top-level test runner script
(``[[checks.command]]``)."""

from __future__ import annotations

import ast
import json
import textwrap
from fnmatch import fnmatch

from slimfork.init.django_tests import DjangoSettings
from slimfork.init.project import Project
from slimfork.source.pytest_ini import pytest_options
from slimfork.testsuite.pytest_config import read_pytest_config


def pytest_check(project: Project, django: DjangoSettings | None) -> list[str]:
    """One ``[checks.pytest]`` suggestion (two tables would not parse once both were accepted): the package folders
    of a project whose only tests are its docstrings' examples, a ``python_files`` pytest's default names need, and
    a Django app's settings module."""
    if not project.tests and not test_modules(project) and (folders := doctest_folders(project)):
        return ["## no tests folder found; pytest's configuration runs the examples of the docstrings "
                "(--doctest-modules):", "## accept this to run them as the pytest check",
                "# [checks.pytest]", "# tests = [" + ", ".join(_s(f) for f in folders) + "]"]
    notes, args = [], []
    if pattern := _pytest_names(project):
        notes += ["pytest collects none of the test files by its default names (test_*.py, *_test.py); accept "
                  f"this to run them as the pytest check (they are {pattern})"]
        args += ["-o", f"python_files={pattern}"]
    if django:
        notes += [f"the tests need Django's settings, which Django's test runner configures ({django.where}): "
                  "accept this, with pytest-django in [verify], to run them as the pytest check"]
        args.append(f"--ds={django.module}")
    # pytest-django puts a manage.py's folder on sys.path where the selection names it (tests/manage.py)
    selection = [f'# tests = [{_s(django.folder)}]'] if django and django.folder else []
    wrapped = [f"## {line}" for note in notes for line in textwrap.wrap(note, 104)]
    return [*wrapped, "# [checks.pytest]", *selection, "# args = [" + ", ".join(_s(a) for a in args) + "]"] \
        if args else []


RUNNERS = ("runtests.py", "run_tests.py")


def runner_check(project: Project) -> list[str]:
    """A ``[[checks.command]]`` for a test runner script at the top (pep8-naming 0.15.1's ``run_tests.py``, which
    checks the files of ``testsuite/`` with flake8) where no test pytest collects was found: the checked run
    verified the imports and the install alone."""
    if project.tests or test_modules(project) or doctest_folders(project):
        return []
    for name in RUNNERS:
        if name in project.index.files and "__main__" in (project.tree.root / name).read_text(errors="replace"):
            return [f"## no tests pytest collects; {name} runs the project's tests: accept this to run it as a "
                    "check", "## (the same exit code on the original and the fork)",
                    "# [[checks.command]]", f"# name = {_s(name)}", f'# argv = ["python", {_s(name)}]',
                    '# cwd = "."', '# match = "exit"']
    return []


def _pytest_names(project: Project) -> str | None:
    """A ``python_files`` pattern where pytest's default names (``test_*.py``, ``*_test.py``) match none of the test
    folders' files that hold tests but ``*test.py`` does (phonenumbers' ``phonenumbertest.py``; django-appconf
    1.2.0's ``tests.py`` beside a ``test_settings.py`` of no test): without it the check collects none."""
    files = [f for f in project.index.files for t in project.tests if f.startswith(t.rstrip("/") + "/")]
    names = [f.rsplit("/", 1)[-1] for f in files if f.endswith(".py") and _holds_tests(project.parse(f))]
    if not names or any(fnmatch(n, "test_*.py") or fnmatch(n, "*_test.py") for n in names) \
            or any("python_files" in options for _, options in pytest_options(project.tree.root)):
        return None
    return next((p for p in ("*test.py", "*tests.py", "test*.py") if any(fnmatch(n, p) for n in names)), None)


def _holds_tests(tree: ast.Module | None) -> bool:
    """A function or method named ``test*`` (unparsable: assume so)."""
    return tree is None or any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                               and node.name.startswith("test") for node in ast.walk(tree))


def doctest_folders(project: Project) -> list[str]:
    """The library's top-level package folders (a module's file), where pytest's configuration has
    ``--doctest-modules``: a project whose only tests are its docstrings' examples (jaraco.classes 3.4.0) ran no
    test in its checked run."""
    if not read_pytest_config(project.tree.root).doctest_modules:
        return []
    found: set[str] = set()
    for name, path in project.internal_modules().items():
        parts, depth = path.split("/"), len(name.split("."))
        if parts[-1] == "__init__.py":
            found.add("/".join(parts[:len(parts) - depth]))
        elif depth == 1:
            found.add(path)
        else:
            found.add("/".join(parts[:len(parts) - depth + 1]))
    return sorted(found)


def test_modules(project: Project) -> list[str]:
    """Test modules of the packages where no tests folder holds them (``pkg/tests.py``, ``pkg/test_x.py``; not a
    ``pkg/testing.py`` of helpers for the users' tests)."""
    names = [(path, path.rsplit("/", 1)[-1]) for path in project.internal_modules().values()]
    return sorted(path for path, name in names if name in ("tests.py", "test.py")
                  or name.startswith("test_") or name.endswith(("_test.py", "_tests.py")))


def _s(text: str) -> str:
    return json.dumps(text)  # a TOML basic string
