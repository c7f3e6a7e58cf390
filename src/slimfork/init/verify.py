"""The draft's ``[verify]`` suggestion: without one the checks run with the interpreter running slimfork, which
a newcomer's venv gives no pytest, no plugin and none of the project's dependencies, so the checked run verifies
no test. The suggestion lists the project's dependencies as its metadata declares them (markers kept, extras
left out), those of its test extras and dependency groups, pytest, and the plugins its pytest configuration
needs (``addopts = --benchmark-skip``: pytest-benchmark; ``required_plugins``; a plugin's ini key). Other extras
and groups (``dev``: linters, docs) give only pytest, its plugins and what the tests import."""

from __future__ import annotations

import ast
import configparser
import email.parser
import re
import sys
import tomllib
from pathlib import Path

from packaging.markers import InvalidMarker, Marker

from slimfork.init.project import Project
from slimfork.init.undeclared import undeclared_imports
from slimfork.source.declared_requirements import declared_requirements, is_test_group
from slimfork.testsuite.pytest_config import read_pytest_config

TEST_EXTRAS = ("test", "tests", "testing")
_EXTRA = re.compile(r"""(?:\s+and\s+)?\(?\s*extra\s*==\s*["']([^"']+)["']\s*\)?(?:\s+and\s+)?""")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def verify_requirements(project: Project, tests: list[str] | None = None) -> tuple[list[str], list[str], list[str]]:
    """(requirement lines, why the plugins are there: `pytest-benchmark (setup.cfg addopts: --benchmark-skip)`,
    notes on lines the draft changed). ``tests``: the draft's, when not the test folders found (test modules inside
    the packages). Without tests, the project's dependencies alone (the import and install checks need them too)."""
    dist = project.tree.dist
    root = project.tree.root
    tests = project.tests if tests is None else tests
    tested = bool(tests)
    lines: list[str] = []
    imported = _test_imports(project, tests)
    metadata = list(dist.requires) if dist else []
    if dist and dist.origin == "pyproject.toml" and _dynamic_requirements(root) and (root / "PKG-INFO").is_file():
        metadata += _pkg_info_requires(root / "PKG-INFO")  # dynamic dependencies: the sdist's metadata has them
    for req in metadata:
        req = req.strip()
        match = _EXTRA.search(req)
        if match is None:
            lines.append(req)
        elif tested and (match.group(1) in TEST_EXTRAS or _for_tests(req, imported)):
            spec, _, marker = req.partition(";")
            marker = " and ".join(part for part in re.split(r"\s+and\s+", marker.strip())
                                  if not re.fullmatch(r"""\(?\s*extra\s*==\s*["'][^"']+["']\s*\)?""", part.strip()))
            lines.append(spec.strip() + (f"; {marker}" if marker else ""))
    # setup.py, setup.cfg, poetry, requirements files, tox: what a checkout (or an older sdist's PKG-INFO) lacks
    declared = declared_requirements(root)
    if not lines:
        lines += declared.runtime
    if tested:
        for name, reqs in declared.groups.items():
            whole = name in TEST_EXTRAS or is_test_group(name)
            lines += [req for req in reqs if whole or _for_tests(req, imported)]
        lines += _pyproject_lists(project, imported)
    config = read_pytest_config(project.tree.root)
    needs = {"pytest": "", **config.needs}
    if "pytest-cov" in needs or any(_key(line) in ("pytest-cov", "coverage") for line in lines):
        for module, where in coverage_plugins(root):
            needs.setdefault(module.split(".")[0], f"{where} plugins: {module}")
    why = []
    for name, reason in (needs if tested else {}).items():
        if _key(name) not in {_key(line) for line in lines if ";" not in line}:  # every Python gets it
            lines.append(name)
        if reason:
            why.append(f"{name} ({reason})")
    runtime = {_key(req) for req in metadata if not _EXTRA.search(req)} | {_key(req) for req in declared.runtime}
    lines, notes = _not_for_the_checks(_first_of_each(lines), imported, set(needs), runtime)
    notes += [f"{line}: {pin} in a requirements file, as a lower bound (the pinned release may not install on this "
             "Python)" for line, pin in declared.relaxed.items() if line in lines]
    notes += [f"not drafted: {path} (the oldest releases the project supports, a CI run beside the list it varies)"
              for path in declared.oldest if tested]
    user = _pkg_resources_user(project, tests)
    if user:
        lines, changed = _setuptools_below_81(lines)
        notes += [f"{changed}: {user} imports pkg_resources, which setuptools 81 and later lack"] if changed else []
    if tested and lines:  # a module the tests need that no line (the setuptools added above included) provides
        notes += [f"the tests import {module} ({where}), which no line here provides: add its distribution if the "
                  "tests need it (the name may differ: yaml is PyYAML's)"
                  for module, where in undeclared_imports(project, tests, lines)]
    return lines, why, notes


# PyPI backports of standard-library modules whose distribution is named otherwise (enum34 is ``enum``)
_BACKPORTS = {"enum34": "enum", "futures": "concurrent.futures", "functools32": "functools",
              "subprocess32": "subprocess"}
_UPLOADER = re.compile(r"coveralls|codecov|codacy|codeclimate")
# linters, type checkers and a hook runner of them: they check the code, the project's tests do not need them
_CHECKERS = re.compile(r"flake8(-.*)?|pylint(-.*)?|black|isort|ruff|mypy|pyright|pytype|pycodestyle|pydocstyle|"
                       r"pyflakes|autopep8|yapf|bandit|pre-commit")
# pytest plugins that add only checks of their own (lint, types, packaging metadata) beside the project's tests
_CHECKER_PLUGINS = re.compile(r"pytest-(mypy|ruff|flake8|flakes|black|isort|pylint|pycodestyle|pydocstyle|pep8|"
                              r"codestyle|mccabe|checkdocs)")
# pytest plugins that only change how results are shown or where they are written (a CI's annotations, HTML, JSON
# or Markdown reports, another progress display): the tests run the same without them
_REPORTER_PLUGINS = re.compile(r"pytest-(github-actions-annotate-failures|github-report|azurepipelines|html|"
                               r"json-report|json|reportlog|md-report|md|sugar|instafail|emoji|pretty|clarity|"
                               r"icdiff|tldr|rich|custom-exit-code|junitxml|nunit|reportportal|testreport)")


def _not_for_the_checks(lines: list[str], imported: set[str], plugins: set[str],
                        runtime: set[str]) -> tuple[list[str], list[str]]:
    """The lines without standard-library backports (``typing``, ``enum34``: pip finds no release of ``typing``
    for Python 3.5 and later, so the checks' venv would not build), coverage uploaders a CI runs after the tests
    (``coveralls``, ``codecov``), linters and type checkers, and the pytest plugins that add only such checks of
    their own (``pytest-mypy``, ``pytest-ruff``: a checked run that failed on one of them would fail on the
    project's style, not on the fork), unless the tests import them, pytest's configuration asks for them
    (``addopts = --mypy``) or the project itself depends on them (a flake8 plugin needs flake8); a note for each
    (pyhocon 0.3.63's setup.py ``tests_require``; jaraco's ``testing`` extras, httplib2 0.32.1's flake8), and the
    plugins that only report the results (``pytest-github-actions-annotate-failures``, ``pytest-html``) unless
    asked for as the others are."""
    kept, notes = [], []
    for line in lines:
        key = _key(line)
        module = _BACKPORTS.get(key) or (key.replace("-", "_") if key.replace("-", "_") in sys.stdlib_module_names
                                         else None)
        needed = key.replace("-", "_") in imported or key in plugins or key in runtime
        if module:
            notes.append(f"not drafted: {line} (a backport of the standard library's {module}, which Python 3 has)")
        elif _UPLOADER.search(key) and not needed:
            notes.append(f"not drafted: {line} (uploads coverage from a CI run; the tests do not import it)")
        elif _CHECKER_PLUGINS.fullmatch(key) and not needed:
            notes.append(f"not drafted: {line} (a pytest plugin that adds its own lint or type checks beside the "
                         "tests, which pytest's configuration does not turn on)")
        elif _REPORTER_PLUGINS.fullmatch(key) and not needed:
            notes.append(f"not drafted: {line} (a pytest plugin that only reports the results (a CI's annotations, "
                         "a report file, another display), which pytest's configuration does not turn on)")
        elif _CHECKERS.fullmatch(key) and not needed:
            notes.append(f"not drafted: {line} (checks the code's style or types: the tests do not import it)")
        else:
            kept.append(line)
    return kept, notes


def _pkg_resources_user(project: Project, tests: list[str]) -> str | None:
    """``file:line`` of the first import of ``pkg_resources`` (``__import__('pkg_resources')`` included) in the
    packages or the tests: the checks' venv needs a setuptools that still has it (PasteDeploy 2.1.1's loadwsgi.py
    and its namespace ``paste/__init__.py``, zope.event 5.0's ``zope/__init__.py``)."""
    tested = [rel for rel in project.index.files if any(rel == t or rel.startswith(t + "/") for t in tests)]
    paths = sorted({*project.internal_modules().values(), *tested})
    for rel in paths:
        summary = project.index.files.get(rel)
        found = [(e.line, e.module) for e in summary.imports if not e.level] + [
            (d.line, d.target) for d in summary.dynamic_imports if not d.prefix] if summary is not None else []
        line = min((line for line, module in found if module and module.split(".")[0] == "pkg_resources"), default=0)
        if line:
            return f"{rel}:{line}"
    return None


def _setuptools_below_81(lines: list[str]) -> tuple[list[str], str | None]:
    """Each setuptools line bounded below 81 (its other bounds and marker kept), or ``setuptools<81`` added; the
    line changed (None where an upper bound was there already)."""
    out, changed = [], ""
    for line in lines:
        if _key(line) == "setuptools" and "<" not in line.partition(";")[0]:
            spec, semi, marker = line.partition(";")
            name = _NAME.match(spec)
            rest = re.match(r"\s*(\[[^\]]*\])?\s*\(?\s*(.*?)\s*\)?\s*$", spec[name.end():] if name else "")
            extras, bounds = (rest.group(1) or "", rest.group(2)) if rest else ("", "")
            line = f"setuptools{extras}{bounds + ',' if bounds else ''}<81" + (f"; {marker.strip()}" if semi else "")
            changed = line
        out.append(line)
    if not any(_key(line) == "setuptools" for line in out):
        out.append(changed := "setuptools<81")
    return out, changed or None


def coverage_plugins(root: Path) -> list[tuple[str, str]]:
    """coverage's ``[run] plugins`` (``.coveragerc``, setup.cfg and tox.ini ``[coverage:run]``, pyproject
    ``[tool.coverage.run]``): (module, where). With pytest-cov, coverage imports each when pytest starts, and a
    missing one stops the run (yarl 1.9.4: ``plugins = Cython.Coverage``, "No module named 'Cython'")."""
    found: list[tuple[str, str]] = []
    for name, section in ((".coveragerc", "run"), ("setup.cfg", "coverage:run"), ("tox.ini", "coverage:run")):
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string((root / name).read_text(encoding="utf-8", errors="replace"))
        except (OSError, configparser.Error):
            continue
        text = parser.get(section, "plugins", fallback="")
        found += [(m, f"{name} [{section}]") for m in re.split(r"[\s,]+", text) if re.fullmatch(r"[A-Za-z_][\w.]*", m)]
    try:
        data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        data = {}
    tool = data.get("tool")
    coverage = tool.get("coverage") if isinstance(tool, dict) else None
    run = coverage.get("run") if isinstance(coverage, dict) else None
    plugins = run.get("plugins") if isinstance(run, dict) else None
    found += [(m, "pyproject.toml [tool.coverage.run]") for m in plugins if isinstance(m, str)] if isinstance(plugins, list) else []
    return found


def _first_of_each(lines: list[str]) -> list[str]:
    """One line a package and marker, the first (the metadata's before a requirements file's pin): a line per
    Python version (httplib2 0.32.1's ``pytest==6.2.5;python_version<"3.9"``, then ``...>="3.10"``) all stay, or
    the checks' venv on a newer Python got none."""
    seen: dict[tuple[str, str], str] = {}
    for line in lines:
        seen.setdefault((_key(line), _marker_key(line.partition(";")[2])), line)
    return list(seen.values())


def _marker_key(text: str) -> str:
    """A marker as packaging writes it: setup.py's ``== 'CPython'`` and PKG-INFO's ``== "CPython"`` are one."""
    try:
        return str(Marker(text)) if text.strip() else ""
    except InvalidMarker:
        return re.sub(r"\s+", "", text)


def _dynamic_requirements(root: Path) -> bool:
    """pyproject.toml's ``[project]`` leaves its dependencies or extras to the build backend (``dynamic``)."""
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8")).get("project")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    dynamic = project.get("dynamic") if isinstance(project, dict) else None
    return isinstance(dynamic, list) and bool({"dependencies", "optional-dependencies"} & set(dynamic))


def _pkg_info_requires(path: Path) -> list[str]:
    try:
        msg = email.parser.Parser().parsestr(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
    return list(msg.get_all("Requires-Dist") or [])


def _pyproject_lists(project: Project, imported: set[str]) -> list[str]:
    """pyproject.toml's ``[project.optional-dependencies]`` (a source without metadata: PKG-INFO's Requires-Dist
    has them) and PEP 735 ``[dependency-groups]``: a test one whole, another's pytest plugins and what the tests
    import (an ``include-group`` table is left out)."""
    path = project.tree.root / "pyproject.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError):
        return []
    project_table = data.get("project")
    extras = project_table.get("optional-dependencies", {}) if isinstance(project_table, dict) else {}
    groups = data.get("dependency-groups", {})
    out: list[str] = []
    for lists in (extras, groups):
        if not isinstance(lists, dict):
            continue
        out += [req for name in TEST_EXTRAS for req in lists.get(name, []) if isinstance(req, str)]
        out += [req for name, reqs in lists.items() if name not in TEST_EXTRAS and isinstance(reqs, list)
                for req in reqs if isinstance(req, str) and _for_tests(req, imported)]
    return out


def _for_tests(req: str, imported: set[str]) -> bool:
    key = _key(req)
    return key == "pytest" or key.startswith("pytest-") or key.replace("-", "_") in imported


def _test_imports(project: Project, tests: list[str]) -> set[str]:
    """The top-level names the tests import (lower case)."""
    out: set[str] = set()
    for rel in project.index.files:
        if rel.endswith(".py") and any(rel == t or rel.startswith(t + "/") for t in tests):
            for node in ast.walk(project.parse(rel) or ast.Module(body=[], type_ignores=[])):
                if isinstance(node, ast.Import):
                    out |= {a.name.split(".")[0].lower() for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    out.add(node.module.split(".")[0].lower())
    return out


def _key(line: str) -> str:
    match = _NAME.match(line)
    return re.sub(r"[-_.]+", "-", match.group(1)).lower() if match else line
