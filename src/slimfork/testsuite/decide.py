"""Which tests leave the fork and why: a test (file, class or function) that uses what the fork removed, or
that fakes a folded fact, directly or through a helper or fixture it uses. Helpers and fixtures stay unless only
removed tests used them and they are themselves broken."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace

from slimfork.source.test_folders import is_test_file
from slimfork.testsuite.library import Library
from slimfork.testsuite.scan import TestFile, Unit

REMOVED, FAKES = "uses removed code", "fakes a folded fact"


@dataclass(frozen=True)
class TestRemoval:
    path: str
    qualname: str | None  # None: the whole file
    category: str  # REMOVED or FAKES
    reason: str


@dataclass
class TestDecisions:
    removals: list[TestRemoval]
    warnings: list[str]
    held: dict[str, list[str]] = field(default_factory=dict)  # a conftest or test package __init__ that runs
    # removed code at import, with tests below it -> the removed modules it needs (it went, with those tests)

    def removed_files(self) -> set[str]:
        return {r.path for r in self.removals if r.qualname is None}

    def removed_units(self) -> set[tuple[str, str]]:
        return {(r.path, r.qualname) for r in self.removals if r.qualname is not None}


def decide(files: dict[str, TestFile], library: Library) -> TestDecisions:
    bad: dict[tuple[str, str], tuple[str, str]] = {}  # (path, qualname) -> (category, reason)
    params: dict[tuple[str, str], dict[str, str]] = {}  # a test's parameters naming removed modules -> why
    for path, tf in files.items():
        for unit in tf.units.values():
            why = _direct(path, unit, library, keys=is_test_file(path) and (unit.kind != "module" or bool(tf.tests))) \
                or _star_direct(path, tf, unit, library)
            if why and unit.kind == "setup" and "." in unit.qualname and _keys_only_in_attributes(
                    path, tf, unit, library, bad):
                continue  # the tests reading those attributes go, not the class
            if not why:
                why, cut = _parameters(path, unit, library)
                if cut:
                    params[(path, unit.qualname)] = cut
            if why:
                bad[(path, unit.qualname)] = why
    cuts = _conftest_cuts(files, bad, library)
    _propagate(files, bad)
    removals, warnings = [], []
    held: dict[str, tuple[str, str]] = {}  # a conftest or __init__ using removed code -> (category, reason)
    helpers = _helper_modules(files, bad, library)
    for path, tf in sorted(files.items()):
        module_bad = bad.get((path, "<module>"))
        is_conftest = posixpath.basename(path) in ("conftest.py", "__init__.py")
        if path in helpers:  # only its imports of removed code go, and what uses them
            names, shared = helpers[path]
            if shared or is_conftest or _still_tests_kept_code(path, tf, bad, library) \
                    or _aggregates_kept_tests(path, tf, files, bad, library):
                removals += [TestRemoval(path, f"{IMPORT}{name}", REMOVED, why) for name, why in names.items()]
                module_bad = None
        if module_bad and is_conftest:
            held[path] = module_bad
            continue
        if path in cuts:  # its module level loses what reads removed code only, without running any of it
            imports, assigned = cuts[path]
            removals += [TestRemoval(path, f"{IMPORT}{name}", REMOVED, why) for name, why in imports.items()]
            removals += [TestRemoval(path, f"{ASSIGN}{name}", REMOVED, f"bound from {', '.join(sorted(imports))}, "
                                     f"which go with removed code") for name in sorted(assigned)]
            warnings.append(f"{path}: its module-level {', '.join(sorted({*imports, *assigned}))} go with removed "
                            f"code ({next(iter(imports.values()))}); the tests below it stay, but for those using them")
        autouse = [bad[(path, u.qualname)] for u in tf.units.values()
                   if u.autouse and "." not in u.qualname and (path, u.qualname) in bad]
        gone = [u for u in tf.tests if _unit_bad(bad, path, u.qualname)]
        if autouse and is_conftest:  # setup for every test below: those tests stay and run without it
            folder = posixpath.dirname(path)
            warnings.append(f"{path}: its autouse fixture goes ({autouse[0][1]}); the tests below "
                            f"{folder + '/' if folder else 'the project'} run without it")
        whole = module_bad or (autouse[0] if autouse and not is_conftest else None)
        if whole is None and tf.tests and len(gone) == len(tf.tests) and not is_conftest \
                and not _aggregates_kept_tests(path, tf, files, bad, library):
            first = bad.get((path, gone[0].qualname)) or bad.get((path, gone[0].qualname.split(".")[0]))
            assert first is not None  # _unit_bad found it under one of the two
            whole = (first[0], f"every test in it goes: {first[1]}")
        if whole:
            removals.append(TestRemoval(path, None, whole[0], whole[1]))
            continue
        removals += [TestRemoval(path, f"{TABLE}{value}", REMOVED, f"uses {broken} ({path}:{use.line})")
                     for value, use in tf.tables if (broken := library.broken(use.dotted))]
        for qualname, unit in tf.units.items():
            if (path, qualname) in params and not _unit_bad(bad, path, qualname):
                removals += [TestRemoval(path, f"{PARAM}{qualname} {value}", REMOVED, why)
                             for value, why in params[(path, qualname)].items()]
            if (path, qualname) not in bad or unit.kind == "module":
                continue
            if "." in qualname and (path, qualname.split(".")[0]) in bad:
                continue  # the whole class goes
            if unit.kind in ("test", "class") or not _still_used(files, path, unit, bad):
                category, reason = bad[(path, qualname)]
                removals.append(TestRemoval(path, qualname, category, reason))
    emptied = _emptied_packages(files, bad, helpers, removals)
    removals = [r for r in removals if r.path not in {e.path for e in emptied}] + emptied
    removed_files = {r.path for r in removals if r.qualname is None}
    needs: dict[str, list[str]] = {}
    for path, (category, reason) in held.items():
        below = _tests_below(files, path, removed_files)
        if not below:  # nothing below it stays to be taken: it goes with the code it uses
            removals.append(TestRemoval(path, None, category, f"{reason}; no test below it stays"))
            continue
        # pytest imports it before every test below: the code it runs at import stays as test support where it
        # can (testsuite/stage.py); where it cannot, it goes with every test below it, which could not import
        needs[path] = _removed_needs(files, path, library)
        removals.append(TestRemoval(path, None, category, f"{reason}; the tests below it go with it"))
        folder = posixpath.dirname(path)
        removals += [TestRemoval(p, None, category, f"below {path}, which goes: {reason}") for p in sorted(files)
                     if p != path and p not in removed_files and (not folder or p.startswith(folder + "/"))]
        warnings.append(f"{path}: {reason}: it goes, with the {len(below)} test file{'s' if len(below) > 1 else ''} below it, "
                        f"which pytest imports through it ({', '.join(below[:3])}{', ...' if len(below) > 3 else ''})")
    return TestDecisions(removals, warnings, needs)


def _emptied_packages(files: dict[str, TestFile], bad: dict, helpers: dict, removals: list[TestRemoval]
                      ) -> list[TestRemoval]:
    """Whole removals of the test packages' ``__init__.py`` files that lose their imports of removed code
    (``helpers``: no other test file imports them) with every test of their own, while every file below them goes
    (libcloud's ``test/backup/__init__.py``, with its ``TestCaseMixin``, once the backup tests went): nothing is
    left for pytest to import through them. The deepest first, so that a package above sees them go."""
    gone = {r.path for r in removals if r.qualname is None}
    out = []
    for path in sorted((p for p in helpers if posixpath.basename(p) == "__init__.py"), key=lambda p: -p.count("/")):
        names, shared = helpers[path]
        folder = posixpath.dirname(path)
        below = [p for p in files if p != path and p.startswith(folder + "/") and p not in gone]
        if shared or below or path in gone or not all(_unit_bad(bad, path, u.qualname) for u in files[path].tests):
            continue
        gone.add(path)
        out.append(TestRemoval(path, None, REMOVED, f"{next(iter(names.values()))}; no test, and no file below it, "
                               "stays"))
    return out


def _keys_only_in_attributes(path: str, tf: TestFile, setup: Unit, library: Library, bad: dict) -> bool:
    """A setup method whose only use of removed code is a string naming a removed key that it stores on ``self``
    (kombu's ``setup_method`` setting ``self.pg_url = 'sqla+postgresql://...'`` beside URLs of kept transports):
    the methods of its class reading such an attribute go (the tests, and the helpers with those calling them);
    the setup and the other tests stay. False, deciding nothing, where the setup uses removed code otherwise."""
    held = {s for strings in setup.self_strings.values() for s in strings}
    if not held or _direct(path, replace(setup, strings=setup.strings - held), library):
        return False
    cls = setup.qualname.rsplit(".", 1)[0]
    lost = {attr: why for attr, strings in setup.self_strings.items()
            if (why := library.removed_key(replace(setup, strings=strings)))}
    for qualname, unit in tf.units.items():
        attr = next((a for a in sorted(lost) if f"self.{a}" in unit.names), None)
        if attr is not None and qualname.startswith(cls + ".") and unit is not setup:
            bad[(path, qualname)] = (REMOVED, f"uses {lost[attr]} (self.{attr}, set by {setup.qualname}, "
                                              f"{path}:{setup.line})")
    return True


def _removed_needs(files: dict[str, TestFile], path: str, library: Library) -> list[str]:
    """The removed modules the module level of ``path`` uses, directly or through the test files it imports that go
    for using removed modules (a unittest aggregator's ``SUITE = FunctionTestCase(test_mul)``), transitively."""
    by_name = {n: p for p in files for n in importable_names(p)}
    out: set[str] = set()
    seen, todo = {path}, [u for u in files[path].units["<module>"].uses]
    while todo:
        use = todo.pop()
        if not library.broken(use.dotted):
            continue
        other = _test_file_of(use.dotted, by_name)
        if other is None and (module := library.module_of(use.dotted)) is not None:
            out.add(module)
        elif other is not None and other not in seen:
            seen.add(other)
            todo += [u for unit in files[other].units.values() for u in unit.uses]
    return sorted(out)


def _tests_below(files: dict[str, TestFile], path: str, gone: set[str]) -> list[str]:
    """The test files in the folder of ``path`` (a conftest or package ``__init__``) or below it that stay."""
    folder = posixpath.dirname(path)
    return sorted(other for other, tf in files.items() if other != path and tf.tests and other not in gone
                  and (not folder or other.startswith(folder + "/")))


PARAM = "param "  # a TestRemoval qualname "param QUALNAME NAME=VALUE": the test's parametrize decorator loses
# the literal VALUE of its argument NAME (scan's Use.param), the test runs with the others
IMPORT = "import "  # a TestRemoval qualname "import NAME": the module-level import of NAME goes ("import pkg.mod":
# only the import of that module, `import pkg.mod` or `from pkg import mod`, when the name bound is pkg's)
ASSIGN = "assign "  # a TestRemoval qualname "assign NAME": the module-level ``NAME = value`` goes (a conftest's
# binding read off removed code: _conftest_cuts)
TABLE = "table "  # a TestRemoval qualname "table NAME[I]": entry I of the table NAME goes (the tests it parametrizes
# lose that value: their "param" removals say which)


def decide_across(files: dict[str, TestFile], library: Library) -> TestDecisions:
    """``decide``, then again while a test file imports a helper, fixture or class another test file loses (a
    helper module's ``both()`` that used removed code: ``from helpers import both`` must go too), to a fixed
    point. A test file is importable by its path from the root and from each folder above it (pytest's
    ``pythonpath`` and rootdir insertion put such folders on ``sys.path``). A name that starts like a module of
    the project counts only when it is the file's own full name: the test folder is then itself a package of the
    analysed project (a root-layout sdist with ``tests/__init__.py``: pyasn1's ``from tests.base import
    BaseTestCase``), and a shorter name of it would be the project's module, not the test file."""
    names = {path: importable_names(path) for path in files}
    tops = {m.split(".")[0] for m in library.original}
    decisions = decide(files, library)
    for _ in range(8):
        gone = {}
        for r in decisions.removals:
            if r.qualname is not None and r.qualname.startswith((IMPORT, PARAM, TABLE)):
                continue
            own = _module_name(r.path)
            for name in names.get(r.path, ()):
                if name.split(".")[0] not in tops or name == own:
                    gone[name if r.qualname is None else f"{name}.{r.qualname}"] = f"{r.path}: {r.reason}"
        if gone.keys() == library.test_gone.keys():
            break
        library.test_gone = gone
        decisions = decide(files, library)
    return decisions


def importable_names(path: str) -> list[str]:
    """``tests/helpers/qhelpers.py`` -> ``tests.helpers.qhelpers``, ``helpers.qhelpers``, ``qhelpers``."""
    parts = _module_name(path).split(".") if path.endswith(".py") else []
    return [".".join(parts[i:]) for i in range(len(parts)) if parts[i:] and all(p.isidentifier() for p in parts[i:])]


def _module_name(path: str) -> str:
    return path[:-len(".py")].removesuffix("/__init__").replace("/", ".")


def _still_tests_kept_code(path: str, tf: TestFile, bad: dict, library: Library) -> bool:
    """Whether a unit that stays after the cut uses a module the fork keeps (else the file tests nothing kept:
    mixins and helpers of the removed tests would be all that is left)."""
    return any(library.module_of(use.dotted) in library.fork for q, unit in tf.units.items()
               if unit.kind != "module" and not _unit_bad(bad, path, q) for use in unit.uses)


def _aggregates_kept_tests(path: str, tf: TestFile, files: dict[str, TestFile], bad: dict,
                           library: Library) -> bool:
    """Whether the file star-imports a test file whose tests stay (PyYAML's ``test_yaml.py``: ``from test_mark
    import *`` for each test module, which its conftest collects from there): the file is how those tests run."""
    by_name = {n: p for p in files for n in importable_names(p)}
    for star in tf.stars:
        other = by_name.get(star)
        if other is None or other == path or library.broken(star):
            continue
        # a test package's __init__ (``from tests import *``) brings the test classes it imports
        sources = [other] + [p for _, dotted in files[other].imports.values() if posixpath.basename(other) ==
                             "__init__.py" and (p := _test_file_of(dotted, by_name)) not in (None, path, other)]
        if any(not _unit_bad(bad, p, u.qualname) for p in sources for u in files[p].tests):
            return True
    return False


def _test_file_of(dotted: str, by_name: dict[str, str]) -> str | None:
    """The test file an imported dotted name comes from (``tests.coretest.AddTest`` -> tests/coretest.py)."""
    parts = dotted.split(".")
    return next((by_name[m] for i in range(len(parts), 0, -1) if (m := ".".join(parts[:i])) in by_name), None)


def _star_test_module(path: str, tf: TestFile, dotted: str, files: dict[str, TestFile], library: Library) -> bool:
    """Whether ``dotted`` is a test file the file star-imports at module level that leaves the fork whole, and no
    code of the file reads a name that file binds: only its star import goes (the names it bound were its tests,
    which the collector found there)."""
    if dotted not in tf.stars or dotted not in library.test_gone:
        return False
    other = next((p for p in files if p != path and dotted in importable_names(p)), None)
    if other is None:
        return False
    theirs = {q for q in files[other].units if "." not in q and q != "<module>"} | set(files[other].imports)
    read = set().union(*(u.names for u in tf.units.values()))
    return not (theirs & read) and not files[other].stars


def _gone_test_import(tf: TestFile, use, files: dict[str, TestFile], library: Library) -> set[str]:
    """The names ``use`` binds when it is a module-level ``from .geocodertest import GeocoderTest`` of a test file
    that leaves the fork whole and nothing in the file reads them (unittest's aggregating ``tests/__init__.py``
    imports each test class so ``unittest.main()`` finds it there): only that import goes. Else empty."""
    test_modules = {n for p in files for n in importable_names(p)}
    if not any(use.dotted == m or use.dotted.startswith(m + ".") for m in library.test_gone if m in test_modules):
        return set()
    local = {n for n, (line, dotted) in tf.imports.items() if line == use.line and dotted == use.dotted}
    return set() if local & set().union(*(u.names for u in tf.units.values())) else local


def _sets_library_names(dotted: str, path: str, files: dict[str, TestFile], library: Library) -> bool:
    """Whether ``dotted`` is a test file that leaves the fork whole and whose module level sets names on the
    library (``yaml.canonical_scan = canonical_scan``): importing it did something the importer may rely on."""
    if dotted not in library.test_gone:
        return False
    other = next((p for p in files if p != path and dotted in importable_names(p)), None)
    module = files[other].units.get("<module>") if other is not None else None
    return module is not None and bool(module.patches)


def _helper_modules(files: dict[str, TestFile], bad: dict, library: Library) -> dict[str, tuple[dict[str, str], bool]]:
    """Test files whose only breakage at module level is imports of removed code (``from pkg.util import double,
    triple`` when the fork drops ``triple``): path -> ({imported name to delete: why}, whether other tests import the
    file). Their tests that use those names leave one by one, the tests of kept code in the same file stay. An import
    no test, fixture or helper of the file reads takes the file where loading it may do something
    (``_loading_does_more``), and so does an import of a module the fork removes whose import does something (a
    module-level call: idna's ``import idna.codec`` registers the codec the file's other tests look up by name),
    unless other tests import the file (a test module that is also a helper, sqlglot's
    ``tests/dialects/test_dialect.py`` with ``Validator``). A test package's ``__init__.py`` loses only its star
    imports of test files that go whole (huey's ``huey/tests/__init__.py`` star-imports every test module, for
    ``python -m huey.tests``): any other breakage keeps it whole, as before."""
    out = {}
    for path, tf in files.items():
        if (path, "<module>") not in bad:
            continue
        known = importable_names(path)  # tests.helpers.b, or helpers.b from a folder on sys.path
        imported = any(u.dotted == m or u.dotted.startswith(m + ".") for other, f in files.items()
                       if other != path and not _gone_whole(other, library)
                       for unit in f.units.values() for u in unit.uses for m in known)
        read = set().union(*(u.names for u in tf.units.values() if u.kind != "module"))
        read |= {n for n, (_, dotted) in tf.imports.items()  # read by a table's entry, which goes with it
                 if any(u.dotted == dotted or u.dotted.startswith(dotted + ".") for _, u in tf.tables)}
        unit = tf.units["<module>"]
        if any(n in tf.units and n != "<module>" and (path, n) in bad for n in unit.names):
            continue  # its module level reads a unit of its own that goes: it fails at import, the file goes
        broken = [(u, why) for u in unit.uses if (why := library.broken(u.dotted))]
        names = {}
        for use, why in broken:
            if _star_test_module(path, tf, use.dotted, files, library):
                names[use.dotted] = f"imports {why} ({path}:{use.line})"
                continue
            local = [n for n, (line, dotted) in tf.imports.items() if line == use.line and dotted == use.dotted]
            if _sets_library_names(use.dotted, path, files, library):
                break  # PyYAML's canonical.py sets yaml.canonical_scan, which the importer's tests call
            if posixpath.basename(path) == "__init__.py" and (gone := _gone_test_import(tf, use, files, library)):
                names.update({n: f"imports {why} ({path}:{use.line})" for n in sorted(gone)})
                continue
            module = library.module_of(use.dotted)
            unread = not set(local) <= read and _loading_does_more(module, library)
            if not local or not imported and (unread or module is not None
                                              and module not in library.fork and module in library.effects):
                break  # a removed module's import ran its code (idna.codec registers a codec other tests use)
            # import pkg.gone binds pkg, which import pkg.kept binds too: only that statement goes ("import pkg.gone")
            names.update({(use.dotted if use.dotted.startswith(n + ".") else n): f"imports {why} ({path}:{use.line})"
                          + ("; other tests import this file" if imported else "") for n in local})
        else:
            if names and not unit.patches and not library.removed_key(unit):
                out[path] = (names, imported)
    return out


def _gone_whole(path: str, library: Library) -> bool:
    """Whether an earlier round of ``decide_across`` removed the test file ``path`` whole (its importing a helper
    makes the helper no one's: geopy's ``geocodeearth.py`` and ``test/geocoders/pelias.py``)."""
    return any(name in library.test_gone for name in importable_names(path))


def _loading_does_more(module: str | None, library: Library) -> bool:
    """Whether importing ``module`` (the module of a name a test file imports and none of its tests reads) may do
    more than bind names, so that the file may import it for that (a registration its tests rely on): not where the
    module and the removed modules it loads have no effect (convertdate's ``test_general.py`` imports ``ordinal``
    beside the calendars its tests use). Unknown (no module of the library) does."""
    if module is None:
        return True
    return module in library.loading if module in library.fork else library.loading_effect(module) is not None


def _star_direct(path: str, tf: TestFile, unit: Unit, library: Library) -> tuple[str, str] | None:
    """A bare name a unit reads that a module-level ``from pkg.util import *`` bound (the file binds no such name
    itself) and the fork removed: ``star_only()`` after the star import of a module symbol pruning cut it from."""
    if not tf.stars:
        return None
    local = set(tf.units) | set(tf.imports)
    for module in tf.stars:
        for name in sorted(unit.names & library.original.get(module, set()) - local):
            why = library.broken(f"{module}.{name}")
            if why:
                return REMOVED, f"uses {why} ({path}:{unit.line}, bound by its star import of {module})"
    return None


def _parameters(path: str, unit: Unit, library: Library) -> tuple[tuple[str, str] | None, dict[str, str]]:
    """A test parametrized with module names it imports (``@pytest.mark.parametrize("mod", ["pkg.a", "pkg.b"])``,
    ``import_module(mod)``): the values naming what the fork removes go from the decorator ("NAME=VALUE" -> why),
    and the test stays with the others; when every value of the argument goes, the test goes (the reason)."""
    lost: dict[str, str] = {}
    for use in unit.uses:
        if use.param and use.param not in lost and (why := library.broken(use.dotted)):
            lost[use.param] = f"uses {why} ({path}:{use.line}, the parameter {use.param})"
    for name, values in unit.params.items():
        if values and all(f"{name}={v}" in lost for v in values):
            return (REMOVED, lost[f"{name}={values[0]}"]), {}
    return None, lost


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_][\w.]*)?")


def _direct(path: str, unit: Unit, library: Library, keys: bool = True) -> tuple[str, str] | None:
    """Why a unit uses removed code. ``keys``: whether a string equal to a removed registry key counts: not in a
    file pytest does not collect, nor at the module level of one without tests, whose strings are data
    (SQLAlchemy's ``testing/profiles_file.py`` maps ``"mssql": "mssql"`` and went whole, so the kept
    ``testing/profiling.py`` could not import it; ``test/requirements.py``'s ``DefaultRequirements`` lost its
    ``deferrable_fks`` for ``only_on(["oracle", ...])`` and went, and the plugin setup.cfg names could not load it)."""
    for patch in unit.patches:
        why = library.fakes(patch)
        if why:
            return FAKES, f"{why} ({path}:{patch.line})"
    for patch in unit.patches:
        why = library.broken(patch.target) if not patch.target.startswith("env:") else None
        if why:
            return REMOVED, f"patches {why} ({path}:{patch.line})"
    for patch in unit.patches:  # monkeypatch.setattr("pkg.settings.BACKEND", "pkg.backends.fast"): the code
        # under test imports the value by its name (session 44: the test stayed and failed)
        value = patch.value
        why = library.broken(value.partition(":")[0]) if isinstance(value, str) and _DOTTED.fullmatch(value) else None
        if why:
            return REMOVED, f"patches in a name of {why} ({path}:{patch.line})"
    for use in unit.uses:
        why = library.broken(use.dotted) if not use.param else None  # a parameter's value: _parameters
        if why:
            return REMOVED, f"uses {why} ({path}:{use.line})"
    why = library.removed_key(unit) if keys else None
    if why:
        return REMOVED, f"uses {why} ({path}:{unit.line})"
    for attr, line in sorted(unit.attrs.items(), key=lambda a: a[1]):
        method = library.pruned_method(attr)
        if method:  # instrument._check_name_unit_description(...): the method is gone from the class; the object
            # read is not typed, so a method of the test file's own of that name counts too (a test too many goes)
            return REMOVED, f"calls .{attr}, and symbol pruning removed the method {method} ({path}:{line})"
    return None


def _conftest_cuts(files: dict[str, TestFile], bad: dict, library: Library
                   ) -> dict[str, tuple[dict[str, str], set[str]]]:
    """The conftests whose module level uses removed code only through imports of it and plain assignments from
    them that call nothing (``from pkg.gone import CASES`` then ``ALL = list(CASES)`` would call; ``ALL = CASES``,
    ``FIRST = gone.TABLE["a"]`` do not), where importing the removed module does nothing but bind names: path ->
    (import local -> why, names those assignments bind). Cutting them runs no less of the kept code: the units
    reading those names become tests of removed code (a fixture and the tests requesting it) and the conftest's other
    fixtures and the tests below it stay. Any other use (a call, a statement binding nothing, a removed module whose
    import registers something) keeps the conftest going whole with every test below it (a warning names them):
    what the removed code did there may be what the kept tests need. Marks those units bad, clears the module's."""
    out: dict[str, tuple[dict[str, str], set[str]]] = {}
    for path, tf in files.items():
        if posixpath.basename(path) != "conftest.py" or (path, "<module>") not in bad:
            continue
        broken = [(u, why) for u in tf.units["<module>"].uses if (why := library.broken(u.dotted))]
        imports: dict[str, str] = {}
        for use, why in broken:
            module = library.module_of(use.dotted)
            if module is not None and module not in library.fork and module in library.effects:
                break
            imports.update({n: f"imports {why} ({path}:{use.line})" for n, (line, dotted) in tf.imports.items()
                            if line == use.line and dotted == use.dotted})
        else:
            gone, lines = set(imports), {tf.imports[n][0] for n in imports}
            cut = _reading_statements(tf, gone)
            if cut is None or not imports:
                continue
            for first, last, targets, _, _ in cut:
                gone |= set(targets)
                lines |= set(range(first, last + 1))
            if any(use.line not in lines for use, _ in broken):
                continue  # removed code read elsewhere at module level (a decorator, a try): the file goes whole
            if any(q.startswith("pytest_") and unit.names & gone for q, unit in tf.units.items()):
                continue  # a hook reading them runs for every test below: it cannot go alone
            for q, unit in tf.units.items():
                if q != "<module>" and (path, q) not in bad and (read := sorted(unit.names & gone)):
                    bad[(path, q)] = (REMOVED, f"reads {read[0]}, which {path} loses with removed code")
            del bad[(path, "<module>")]
            out[path] = (imports, gone - set(imports))
    return out


def _reading_statements(tf: TestFile, names: set[str]):
    """The module-level statements that read ``names`` or what they bind, to a fixed point; None when one of them
    is not a plain assignment that calls nothing."""
    gone, cut = set(names), []
    changed = True
    while changed:
        changed = False
        for statement in tf.statements:
            _, _, targets, reads, calls = statement
            if statement in cut or not reads & gone:
                continue
            if not targets or calls:
                return None
            cut.append(statement)
            gone |= set(targets)
            changed = True
    return cut


def _propagate(files: dict[str, TestFile], bad: dict) -> None:
    """Helpers a unit calls and fixtures it requests pass their reason on, to a fixed point."""
    by_name = {n: p for p in files for n in importable_names(p)}
    changed = True
    while changed:
        changed = False
        for path, tf in files.items():
            helpers = {q: bad[(path, q)] for q, u in tf.units.items()  # a class that goes takes its subclasses
                       if u.kind in ("helper", "fixture", "class") and "." not in q and (path, q) in bad}
            fixtures = dict(_conftest_fixtures(files, path, bad))
            fixtures.update({tf.units[q].alias or q: why for q, why in helpers.items()
                             if tf.units[q].kind == "fixture"})
            for q, unit in tf.units.items():
                if (path, q) in bad:
                    continue
                if unit.kind == "module":  # module-level code reading a unit of the file that goes (a test's
                    # ``test_x.unittest = ...`` goes with the test: scan's tags) fails at import: the file goes
                    via = next((n for n in sorted(unit.names) if "." not in n and (path, n) in bad
                                and n in tf.units), None)
                    if via is not None:
                        why = bad[(path, via)]
                        bad[(path, q)] = (why[0], why[1] if why[1].startswith("via ") else f"via {via}: {why[1]}")
                        changed = True
                    continue
                via = next((n for n in sorted(unit.names) if n in helpers and n != q), None)
                why = helpers.get(via) if via is not None else None
                if why is None and "." in q:  # a method calling a broken helper method of its class or of a
                    # class of the file it may inherit from (jsonpickle's BackendBase.set_preferred_backend)
                    via = next((f"{c}.{n[5:]}" for c in _class_and_bases(tf, q.split(".")[0])
                                for n in sorted(unit.names) if n.startswith("self.")
                                and (path, f"{c}.{n[5:]}") in bad and f"{c}.{n[5:]}" != q), None)
                    why = bad.get((path, via)) if via is not None else None
                if why is None and unit.kind != "helper":  # pytest passes fixtures to tests and fixtures only: a
                    # helper's parameter named like one (cleo's FooCommand.interact(self, io)) requests nothing
                    via = next((f for f in sorted(unit.fixtures) if f in fixtures and f != q), None)
                    why = fixtures.get(via)
                if why is None and unit.kind != "helper" and "." in q:  # a fixture method of its class that goes
                    # (mimesis' TestTransport.transport returns Transport()): the tests requesting it go too
                    via = next((f"{c}.{f}" for c in _class_and_bases(tf, q.split(".")[0]) for f in sorted(unit.fixtures)
                                if f"{c}.{f}" != q and (path, f"{c}.{f}") in bad
                                and tf.units[f"{c}.{f}"].kind == "fixture"), None)
                    why = bad.get((path, via)) if via is not None else None
                if why is None and unit.kind == "class":
                    via = next((m for m, u in tf.units.items() if m.startswith(q + ".")
                                and (u.kind == "setup" or u.autouse) and (path, m) in bad), None)
                    why = bad.get((path, via))
                if why is None and unit.kind == "class":  # its method that goes, called through a base class
                    # another test file defines (a mixin's ``check()`` calling ``self.make()``)
                    via = _called_by_imported_base(files, by_name, path, q, bad)
                    why = bad.get((path, via)) if via is not None else None
                if why is None and unit.kind == "class" and not any(
                        u.kind == "test" for m, u in tf.units.items() if m.startswith(q + ".")):
                    # a helper class (no tests of its own) without one of its methods breaks whoever uses it
                    # (setuptools_scm's DebugMode.enable): the class goes, with its users
                    via = next((m for m in tf.units if m.startswith(q + ".") and (path, m) in bad), None)
                    why = bad.get((path, via))
                if why is not None:
                    bad[(path, q)] = (why[0], why[1] if why[1].startswith("via ") else f"via {via}: {why[1]}")
                    changed = True


def _called_by_imported_base(files: dict[str, TestFile], by_name: dict[str, str], path: str, cls: str,
                             bad: dict) -> str | None:
    """A method of ``cls`` (or of its bases in its file) that goes and that a base class imported from another test
    file calls as ``self.NAME``: its tests call the base's methods, which would fail (``AttributeError``)."""
    tf = files[path]
    own = _class_and_bases(tf, cls)
    for base in sorted(files[path].units[cls].names & set(tf.imports)):
        dotted = tf.imports[base][1]
        other = _test_file_of(dotted, by_name)
        name = dotted.rpartition(".")[2]
        if other is None or other == path or name not in files[other].units:
            continue
        theirs = _class_and_bases(files[other], name)
        called = {n[5:] for q, u in files[other].units.items() if q.split(".")[0] in theirs and "." in q
                  for n in u.names if n.startswith("self.")}
        hit = next((f"{c}.{m}" for c in own for m in sorted(called) if (path, f"{c}.{m}") in bad), None)
        if hit is not None:
            return hit
    return None


def _class_and_bases(tf: TestFile, cls: str) -> list[str]:
    """``cls`` and the classes of the same file its class statement names (its bases, and more: a class too many
    only takes a test too many), transitively."""
    out, todo = [cls], [cls]
    while todo:
        unit = tf.units.get(todo.pop())
        for name in sorted(unit.names) if unit is not None else ():
            if name not in out and (other := tf.units.get(name)) is not None and other.kind == "class":
                out.append(name)
                todo.append(name)
    return out


def _plugin_files(files: dict[str, TestFile]) -> set[str]:
    """Test files a ``pytest_plugins`` of the tests names (``pytest_plugins = ["tests.plugin"]``): pytest registers
    them for the whole run, so their fixtures are every test's, as a root conftest's are."""
    names = {n for tf in files.values() for n in tf.plugins}
    out = set()
    for path in files:
        dotted = path[:-3].replace("/", ".") if path.endswith(".py") else None
        if dotted and any(dotted == n or dotted.endswith("." + n) for n in names):
            out.add(path)
    return out


def _fixture_providers(files: dict[str, TestFile]) -> dict[str, str]:
    """Conftests (path -> the folder their fixtures serve, "" for all) and the plugin files tests name."""
    out = {p: posixpath.dirname(p) for p in files if posixpath.basename(p) == "conftest.py"}
    out.update({p: "" for p in _plugin_files(files)})
    return out


def _conftest_fixtures(files: dict[str, TestFile], path: str, bad: dict):
    folder = posixpath.dirname(path)
    for other, base in _fixture_providers(files).items():
        tf = files[other]
        if other == path:
            continue
        if base and not (folder == base or folder.startswith(base + "/")):
            continue
        for q, unit in tf.units.items():
            if unit.kind == "fixture" and (other, q) in bad:
                yield unit.alias or q, bad[(other, q)]


def _unit_bad(bad: dict, path: str, qualname: str) -> bool:
    return (path, qualname) in bad or ("." in qualname and (path, qualname.split(".")[0]) in bad)


def _still_used(files: dict[str, TestFile], path: str, unit: Unit, bad: dict) -> bool:
    """Is a broken helper or fixture still named by a unit that stays (in its file, or anywhere for conftest)?"""
    scope = files.items() if path in _fixture_providers(files) else [(path, files[path])]
    for other, tf in scope:
        for q, u in tf.units.items():
            if q != unit.qualname and not _unit_bad(bad, other, q) and \
                    (unit.qualname in u.names or unit.qualname in u.fixtures or unit.alias in u.fixtures):
                return True
    return False
