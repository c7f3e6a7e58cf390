"""Library modules no root reaches that tests of kept code need: a test file whose tests use kept code but whose
module-level statements read a name of such a module (``SAMPLE = color3.RGBA(...)``), or whose helper, fixture or
base class that such a test uses does (tinycss2's ``tests/test_tinycss2.py``: every test of the root
``tinycss2.parser`` goes through ``to_json``, a helper a decorator calls at import time, which maps
``tinycss2.color3.RGBA`` and ``tinycss2.color4.Color``). Without the module the file does not import, or every one
of those tests goes with the helper; with it, they stay. The module is kept as test support (what it imports with
it), unless the plan removes it for another reason (a fold, a registry filter, a drop: then the tests go as before).
A decorator of such a test is test setup as a helper is (``@retry.repeat(3)``). A use in a test's own body is that
test's: the test goes with the module (it tests removed code), and what its helpers need counts only for tests whose
own body uses no removed module, in a file that uses kept code."""

from __future__ import annotations

import posixpath
import re

from slimfork.source.test_subjects import names_its_subject
from slimfork.testsuite.decide import importable_names
from slimfork.testsuite.library import Library
from slimfork.testsuite.scan import WARNING_CATEGORY, TestFile, Unit, Use

_SHARED = ("helper", "fixture", "class", "setup")


def kept_test_needs(files: dict[str, TestFile], library: Library) -> dict[str, str]:
    """Module -> why tests of kept code need it (modules the fork does not have; the caller keeps those it may)."""
    out: dict[str, str] = {}
    fixtures = _conftest_fixtures(files)
    by_name = {name: p for p in files for name in importable_names(p)}
    for path, tf in sorted(files.items()):
        libraries, helpers = _star_chain(tf, files, by_name)
        of_kept = any(_uses_kept(u, library) for u in tf.units.values()) or any(
            u.names & library.fork.get(m, set()) for u in tf.units.values() for m in libraries)
        near = fixtures.get(posixpath.dirname(path), {})
        derived = _bound_from_removed(tf, library)
        kept = [u for u in tf.tests if of_kept and _no_removed(_own_body(u), library)
                and not _tests_a_helper_of_removed_code(u, derived, library)
                and _no_removed(_class_body(tf, u), library)
                and _no_removed(_called_code(path, tf, u, near, files, by_name, library), library)
                and _no_removed(_named_setup(path, tf, u, near, files, by_name, library), library)]
        conftest = posixpath.basename(path) == "conftest.py"
        if not kept and not conftest:
            continue
        module = tf.units.get("<module>")
        if module is not None:  # module-level statements run when the file is imported
            for local in sorted(module.names & tf.imports.keys()):
                line, dotted = tf.imports[local]
                _add(out, library, path, dotted, f"the test file {path} reads it at import time ({path}:{line}), and "
                     + (f"its tests of kept code ({kept[0].qualname}) need the file" if kept else
                        "pytest loads it for every test below it (a conftest)"))
            for use in module.uses:  # pytestmark = pytest.mark.filterwarnings("error::pkg.warns.Old")
                if use.via == WARNING_CATEGORY:
                    _add(out, library, path, use.dotted, f"{WARNING_CATEGORY} for every test of {path} "
                         f"({path}:{use.line})")
        for unit in tf.units.values() if conftest else ():  # its pytest_* hooks run for every test below it:
            if unit.kind == "helper" and unit.qualname.startswith("pytest_"):  # import_plugin("pkg.testing.plugin"),
                for dotted in [u.dotted for u in unit.uses] + sorted(unit.strings):  # addoption(default="pkg.x")
                    _add(out, library, path, dotted, f"the hook {unit.qualname} of {path} names it "
                         f"({path}:{unit.line}), and pytest runs it for every test below it")
        for helper in helpers if kept else ():  # from tests.helpers import *: the helper file imports with it
            for use in helper.units["<module>"].uses if "<module>" in helper.units else ():
                _add(out, library, path, use.dotted, f"the test file {path} star-imports {helper.path}, which "
                     f"imports it ({helper.path}:{use.line}), and its tests of kept code ({kept[0].qualname}) need "
                     "the file")
        for test in kept:
            for use in test.uses:
                if use.line < test.line:  # @retry.repeat(3), @pytest.mark.parametrize("a", cases.ALL)
                    _add(out, library, path, use.dotted, "a decorator of the test of kept code "
                         f"{path}::{test.qualname} uses it ({path}:{use.line})")
            for owner, unit in _shared_units(tf, test, fixtures.get(posixpath.dirname(path), {}), files, by_name):
                for use in unit.uses:
                    _add(out, library, path, use.dotted, f"{unit.qualname} ({owner.path}:{use.line}) uses it, and the "
                         f"test of kept code {path}::{test.qualname} uses {unit.qualname}")
    return out


def _star_chain(tf: TestFile, files: dict[str, TestFile], by_name: dict[str, str]
                ) -> tuple[list[str], list[TestFile]]:
    """The library modules a file's module-level star imports bind names from, directly or through the test files
    it star-imports (``from .helpers import *``, which does ``from pkg.core import *``), and those test files."""
    libraries: list[str] = []
    helpers: list[TestFile] = []
    todo, seen = list(tf.stars), set()
    while todo:
        dotted = todo.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        path = by_name.get(dotted)
        if path is not None and files[path] is not tf:
            helpers.append(files[path])
            todo += files[path].stars
        elif path is None:
            libraries.append(dotted)
    return libraries, helpers


def _add(out: dict[str, str], library: Library, path: str, dotted: str, why: str) -> None:
    """Records a module the fork lacks that the test file ``path`` needs, unless the file is named after it (it
    tests that module: its tests go with it, source/test_subjects.py)."""
    module = library.module_of(dotted)
    if module is not None and module not in library.fork and not names_its_subject(path, module):
        out.setdefault(module, why)


def _uses_kept(unit: Unit, library: Library) -> bool:
    return any((m := library.module_of(u.dotted)) is not None and m in library.fork for u in unit.uses)


def _bound_from_removed(tf: TestFile, library: Library) -> set[str]:
    """The module-level names of a test file bound from a module the fork removes: its imports of one, and what
    module-level statements reading them bind, to a fixed point (``CUBIC_GLYPHS = GlyphSet(...)``)."""
    out = {local for local, (_, dotted) in tf.imports.items() if library.broken(dotted)}
    changed = bool(out)
    while changed:
        changed = False
        for _, _, targets, reads, _ in tf.statements:
            if reads & out and not set(targets) <= out:
                out |= set(targets)
                changed = True
    return out


def _tests_a_helper_of_removed_code(test: Unit, derived: set[str], library: Library) -> bool:
    """A test of its file's own helpers on data from removed code (fontTools' ``Tests/pens/utils.py``:
    ``TestDummyGlyph.test_equal`` compares ``DummyGlyph`` copies of ``CUBIC_GLYPHS["a"]``, a ``GlyphSet`` of the
    removed ufoLib): its own body uses no library module and reads a name bound from removed code. It tests no kept
    code; a test that calls kept code itself does (tinycss2's ``to_json(parse(...))``)."""
    own = _own_body(test)
    return bool(test.names & derived) and all(library.module_of(u.dotted) is None for u in own)


def _own_body(test: Unit) -> list[Use]:
    """The uses of a test's own body, not of its decorators (above its ``def`` line): a decorator is test setup
    (``@retry.repeat(3)``, ``@pytest.mark.parametrize("a", cases.ALL)``), as a helper is."""
    return [u for u in test.uses if u.line >= test.line]


def _class_body(tf: TestFile, test: Unit) -> list[Use]:
    """The uses of the body of a test method's own class (a nested helper class, class attributes: the test's own
    code, pycparser's ``TestVisitor._Visitor``), not of its header (the base classes, on the ``class`` line)."""
    cls = tf.units.get(test.qualname.split(".")[0]) if "." in test.qualname else None
    return [u for u in cls.uses if u.line > cls.line] if cls is not None else []


def _called_code(path: str, tf: TestFile, test: Unit, conftest: dict[str, tuple[TestFile, Unit]],
                 files: dict[str, TestFile], by_name: dict[str, str], library: Library) -> list[Use]:
    """The uses of the code a test calls, which runs as part of the test: the plain helper functions and methods it
    calls, through each other (in its file or imported from another test file; not a decorated one, which its
    decorator may call at import time, nor one the file's module level reads), and the functions a fixture it
    requests returns for it to call. A test that runs removed code there tests it (anyconfig's
    ``test_runs_for_datasets`` -> ``self.run_main`` -> ``self._run_main``, which runs ``anyconfig.cli.main``;
    plumbum's ``TestParamikoMachine._connect``; cookiecutter's ``cli_runner`` fixture returning ``cli_main``): it
    goes with that code, which stays out. A helper's use counts only where the test names the module it uses (its
    folder, file, class or own name: ``tests/cli/``, ``TestParamikoMachine``): a helper that prepares the input of
    kept code with a removed module (asn1crypto's ``X509Tests._load_cert`` calls ``pem.unarmor``) is setup, as
    what fixtures, ``setUp``, base classes and decorators use is (it stays as test support)."""
    words = _subject_words(path, test.qualname)
    out: list[Use] = []
    seen: list[Unit] = []
    todo = [(tf, test)]
    while todo:
        here, unit = todo.pop()
        units = here.units
        classes = _own_and_bases(here, unit.qualname.split(".")[0]) if "." in unit.qualname else []
        found = [(here, units.get(n)) for n in sorted(unit.names) if "." not in n]
        found += [(here, next((units[f"{c}.{n[5:]}"] for c in classes if f"{c}.{n[5:]}" in units), None))
                  for n in sorted(unit.names) if n.startswith("self.")]
        found += [_imported(here.imports[n][1], files, by_name) for n in sorted(unit.names)
                  if n not in units and n in here.imports]
        if unit is test:
            for name in sorted(unit.fixtures):
                owner, fixture = next(((here, u) for u in units.values() if u.kind == "fixture"
                                       and (u.alias or u.qualname) == name and "." not in u.qualname),
                                      conftest.get(name, (here, None)))
                if fixture is not None and fixture.kind == "fixture":
                    out += [use for use in fixture.uses if any(a <= use.line <= b for a, b in fixture.handed)]
        for owner, other in found:
            if other is None or other is test or other.kind != "helper" or other.decorated \
                    or any(other is u for u in seen) or ("." not in other.qualname and other.qualname in (
                        owner.units["<module>"].names if "<module>" in owner.units else set())):
                continue
            seen.append(other)
            out += [use for use in other.uses if _module_words(library.module_of(use.dotted)) & words]
            todo.append((owner, other))
    return out


def _named_setup(path: str, tf: TestFile, test: Unit, conftest: dict[str, tuple[TestFile, Unit]],
                 files: dict[str, TestFile], by_name: dict[str, str], library: Library) -> list[Use]:
    """The uses of a test's setup (its class, ``setUp``/``setup_method``, the fixtures it requests, the helpers those
    read) of a module whose own name the test's file or class names as its subject: ``tests/test_check.py``'s
    ``TestWarningStream.setup_method`` builds ``twine.commands.check._WarningStream()``, huey's ``test_stats.py``
    ``StatsTestCase.setUp`` initialises ``huey.contrib.stats``' database. That setup builds the object the test
    exercises: the test tests the module and goes with it, which stays out. Setup using a module the test does not
    name (asn1crypto's ``_load_cert`` and ``pem``) stays setup, and the module test support."""
    words = _subject_words(posixpath.basename(path), test.qualname.split(".")[0] if "." in test.qualname else "")
    return [use for _, unit in _shared_units(tf, test, conftest, files, by_name) for use in unit.uses
            if _own_word(library.module_of(use.dotted)) in words]


def _own_word(module: str | None) -> str | None:
    """A module's own name as a subject word (``huey.contrib.stats``: stats; ``pkg.cli._main``: main)."""
    return module.rpartition(".")[2].replace("_", "").lower() if module and "." in module else None


def _subject_words(path: str, qualname: str) -> set[str]:
    """What a test names as its subject: the words of its folders and file (``tests/cli/test_base.py``: cli, base),
    of its class and its own name (``TestParamikoMachine``: paramiko, machine, paramikomachine), lower case."""
    parts = [p for p in path[:-3].split("/") if p not in ("tests", "test", "testing")] if path.endswith(".py") else []
    out: set[str] = set()
    for part in parts + [re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", q) for q in qualname.split(".")]:
        words = [w for w in part.lower().split("_") if w and w not in ("test", "tests", "testcase", "case", "cases")]
        out |= set(words) | {"".join(words)}
    return out


def _module_words(module: str | None) -> set[str]:
    """The names of a module below its top-level package, as subject words (``plumbum.machines.paramiko_machine``:
    machines, paramikomachine; ``anyconfig.cli._main``: cli, main)."""
    return {w for part in (module or "").split(".")[1:] if (w := part.replace("_", "").lower())}


def _own_and_bases(tf: TestFile, cls: str) -> list[str]:
    """A class and the classes of the same file its header names, nearest first (where ``self.x`` may live)."""
    out, todo = [], [cls]
    while todo:
        name = todo.pop(0)
        unit = tf.units.get(name)
        if name in out or unit is None or unit.kind != "class":
            continue
        out.append(name)
        todo += [n for n in sorted(unit.names) if n in tf.units and tf.units[n].kind == "class"]
    return out


def _no_removed(uses: list[Use], library: Library) -> bool:
    """A test of kept code: a test of a file that uses kept code, whose own body uses no module the fork removes (a
    codec test that calls a removed decoder on kept types tests the decoder: what its setUp needs stays out; a
    test that only calls ``spec.to_dict()`` on its fixture tests the kept code the fixture builds)."""
    return all((m := library.module_of(u.dotted)) is None or m in library.fork for u in uses)


def _shared_units(tf: TestFile, test: Unit, conftest: dict[str, tuple[TestFile, Unit]], files: dict[str, TestFile],
                  by_name: dict[str, str]) -> list[tuple[TestFile, Unit]]:
    """The helpers, fixtures and classes a test uses, through each other: its class, the methods it calls on
    ``self``, the names it reads (also those a module-level import takes from another test file: pyasn1's
    ``from tests.base import BaseTestCase``), the fixtures it requests (its file's, the conftests' above it), and
    the ``setUp`` of each class reached."""
    seen: list[tuple[TestFile, Unit]] = []
    todo = [(tf, test)]
    while todo:
        here, unit = todo.pop()
        units = here.units
        cls = unit.qualname.split(".")[0] if "." in unit.qualname else None
        names = set(unit.names) | ({cls} if cls else set())
        if cls:
            names |= {f"{cls}.{n[5:]}" for n in unit.names if n.startswith("self.")}
        found = [(here, units.get(n)) for n in sorted(names)]
        found += [_imported(here.imports[n][1], files, by_name) for n in sorted(names)
                  if n not in units and n in here.imports]
        for name in sorted(unit.fixtures):
            own = units.get(name) or next((u for u in units.values() if u.kind == "fixture" and u.alias == name),
                                          None)
            found.append((here, own) if own is not None else conftest.get(name, (here, None)))
        if unit.kind == "class":  # its setUp runs before each of its tests
            found += [(here, u) for q, u in units.items() if q.startswith(unit.qualname + ".") and u.kind == "setup"]
        for owner, other in found:
            if other is not None and other.kind in _SHARED and other is not test \
                    and all(other is not u for _, u in seen):
                seen.append((owner, other))
                todo.append((owner, other))
    return seen


def _imported(dotted: str, files: dict[str, TestFile], by_name: dict[str, str]) -> tuple[TestFile, Unit | None]:
    """The unit of another test file a module-level import names (``tests.base.BaseTestCase``)."""
    module, _, name = dotted.rpartition(".")
    path = by_name.get(module)
    tf = files[path] if path is not None else TestFile("")
    return tf, tf.units.get(name)


def _conftest_fixtures(files: dict[str, TestFile]) -> dict[str, dict[str, tuple[TestFile, Unit]]]:
    """Folder -> the fixtures of the conftests at or above it (the nearest wins), by the name tests request."""
    by_folder: dict[str, dict[str, tuple[TestFile, Unit]]] = {}
    conftests = {posixpath.dirname(p): tf for p, tf in files.items() if posixpath.basename(p) == "conftest.py"}
    for path in files:
        folder = posixpath.dirname(path)
        if folder in by_folder:
            continue
        found: dict[str, tuple[TestFile, Unit]] = {}
        parts = folder.split("/") if folder else []
        for i in range(len(parts), -1, -1):
            tf = conftests.get("/".join(parts[:i]))
            if tf is None:
                continue
            for q, unit in tf.units.items():
                if unit.kind == "fixture" and "." not in q:
                    found.setdefault(unit.alias or q, (tf, unit))
        by_folder[folder] = found
    return by_folder
