"""Read one test file (stdlib ast, read-only): its tests, helpers and fixtures, what each uses from the library
(imports, attribute chains), which facts it patches, and which other units it calls or requests as fixtures."""

from __future__ import annotations

import ast
import re
from contextvars import ContextVar
from dataclasses import dataclass, field

from slimfork.index.doctests import doctest_examples
from slimfork.index.relative import absolute_module
from slimfork.index.own_expr import constant_string
from slimfork.index.case_tables import case_tables
from slimfork.index.param_tables import param_tables
from slimfork.testsuite.paths import FILE_USE, PACKAGE_SCAN, doc_runs, package_scans, path_constants, run_paths
from slimfork.testsuite.env_patches import REMOVED, env_patches, env_stores

UNKNOWN = object()  # a patched value not known statically
_GENERATED: ContextVar[dict[str, list[str]]] = ContextVar("generated_parameters", default={})
_KEYED = re.compile(r"\s*[\w.-]+\s*,")


@dataclass(frozen=True)
class Use:
    dotted: str  # "click._termui_impl.WIN", "pygments.lexers.ruby"
    line: int
    via: str = ""  # how, when not imported: "loads tests/data/a.pkl, which names it"
    param: str = ""  # "mod=a": one value of the test's own ``@pytest.mark.parametrize("mod", [...])`` names it


@dataclass(frozen=True)
class Patch:
    target: str  # "sys.platform", "click._termui_impl.WIN", "env:VAR"
    value: object  # the literal set (UNKNOWN if not literal); ("returns", v) for a lambda returning a literal
    line: int


@dataclass
class Unit:
    """A module-level function, a class, a method, or "<module>" (the statements at module level)."""

    qualname: str
    kind: str  # "test", "class", "fixture", "helper", "module"
    line: int
    end: int
    uses: list[Use] = field(default_factory=list)
    patches: list[Patch] = field(default_factory=list)
    names: set[str] = field(default_factory=set)  # bare names it reads (helpers it calls)
    fixtures: set[str] = field(default_factory=set)  # parameters and usefixtures
    strings: set[str] = field(default_factory=set)  # short string literals (registry keys it may pass)
    autouse: bool = False
    alias: str | None = None  # a fixture's name=: @pytest.fixture(name="mod") def _mod(...) is requested as mod
    attrs: dict[str, int] = field(default_factory=dict)  # attributes it reads off other objects -> first line
    params: dict[str, list[str]] = field(default_factory=dict)  # its own parametrize decorators' literal strings
    decorated: bool = False  # a decorator other than staticmethod/classmethod (it may call the function at import)
    self_strings: dict[str, set[str]] = field(default_factory=dict)  # ``self.url = "sqla+pg://..."``: attr -> the
    # strings assigned to it (a setup method's: the tests reading the attribute use them)
    handed: list[tuple[int, int]] = field(default_factory=list)  # a fixture's nested functions it returns or yields
    # (lines): the test calls them (cookiecutter's ``cli_runner`` returns ``cli_main``, which runs the CLI)


@dataclass
class TestFile:
    path: str
    units: dict[str, Unit] = field(default_factory=dict)
    error: str | None = None
    imports: dict[str, tuple[int, str]] = field(default_factory=dict)  # module-level import: local -> (line, dotted)
    plugins: list[str] = field(default_factory=list)  # the modules its ``pytest_plugins`` names, internal or not
    stars: list[str] = field(default_factory=list)  # internal modules it star-imports at module level
    tags: dict[str, int] = field(default_factory=dict)  # own function/class -> line of ``name.attr = value``
    bases: dict[str, list[str]] = field(default_factory=dict)  # class -> its bases that the file defines
    tables: list[tuple[str, Use]] = field(default_factory=list)  # "ALGS[3]": an entry of a table that only
    # parametrizes tests (index/param_tables.py) and what of the library it names
    statements: list[tuple[int, int, tuple[str, ...], frozenset[str], bool]] = field(default_factory=list)
    # module level, but imports and definitions: (first line, last line, the names a plain `A = B = value` binds
    # (none for any other statement), the names it reads, whether it calls anything)

    @property
    def tests(self) -> list[Unit]:
        return [u for u in self.units.values() if u.kind == "test"]


_PATCH_FUNCS = {"setattr", "patch", "object", "setenv", "delenv"}


def scan_test_file(path: str, source: bytes, internal: set[str], package: str | None = None,
                   doctests: bool = False, generated: dict[str, list[str]] | None = None) -> TestFile:
    """``internal``: top-level names of the analysed packages (only their names count as uses); ``package``: the
    package a test file inside the analysed packages is in (its relative imports count as the absolute ones);
    ``doctests``: pytest runs the file's docstrings (``--doctest-modules``): their examples are code of the unit
    whose docstring holds them; ``generated``: the literals a ``pytest_generate_tests`` hook of the file or of a
    conftest above it gives its arguments (``generated_parameters``)."""
    token = _GENERATED.set(generated or {})
    try:
        return _scan_test_file(path, source, internal, package, doctests)
    finally:
        _GENERATED.reset(token)


def _scan_test_file(path: str, source: bytes, internal: set[str], package: str | None, doctests: bool) -> TestFile:
    out = TestFile(path)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        out.error = f"does not parse: {exc}"
        return out
    if package:
        _absolute_imports(tree, package)
    aliases = {**path_constants(tree), **_aliases(tree, internal)}
    module = Unit("<module>", "module", 1, len(source.splitlines()) or 1)
    out.units["<module>"] = module
    own = {st.name for st in tree.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    tables = _table_entries(tree, out, aliases, internal)
    cases = _case_entries(tree, out, aliases, internal)
    for stmt in tree.body:
        if id(stmt) in tables:  # the entries naming the library count for the tests they parametrize
            for elt in tables[id(stmt)]:
                _collect(elt, module, aliases, internal)
            continue
        if id(stmt) in cases:  # a table of cases and its stores: their entries go with what they name
            for part, entry in cases[id(stmt)]:
                _entry_uses(part, entry, out, module, aliases, internal)
            continue
        tagged = _tagged(stmt, own)
        if tagged:  # test_x.unittest = [".data"]: an attribute set on the file's own test, which goes with it
            out.tags.setdefault(tagged, stmt.lineno)
            _collect(stmt.value, module, aliases, internal)  # type: ignore[attr-defined]
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _add(out, stmt, stmt.name, _kind(stmt), aliases, internal)
        elif isinstance(stmt, ast.ClassDef):
            cls = _add(out, stmt, stmt.name, "class", aliases, internal, shallow=True)
            out.bases[stmt.name] = [b.id for b in stmt.bases if isinstance(b, ast.Name) and b.id in own]
            for sub in stmt.body:
                if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    _collect(sub, cls, aliases, internal)  # class attributes (num2words: lang = 'az'), nested classes
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    kind = _kind(sub)
                    if kind == "helper" and sub.name in ("setup_method", "setUp", "setup_class", "setUpClass",
                                                         "setup", "setup_function"):
                        kind = "setup"
                    _add(out, sub, f"{stmt.name}.{sub.name}", kind, aliases, internal)
            for deco in stmt.decorator_list:
                _collect(deco, cls, aliases, internal)
            for base in stmt.bases + [k.value for k in stmt.keywords]:  # class Case(BaseTestCase): a helper's class
                _collect(base, cls, aliases, internal)
        elif isinstance(stmt, ast.Try):
            _collect_guarded(stmt, module, aliases, internal)
        else:
            _collect(stmt, module, aliases, internal)
            module.uses += _pytest_plugins(stmt, internal)
            out.plugins += [u.dotted for u in _pytest_plugins(stmt, None)]
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and not getattr(stmt, "level", 0):
                out.imports.update(_bindings(stmt))
            if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level \
                    and stmt.module.split(".")[0] in internal and any(a.name == "*" for a in stmt.names):
                out.stars.append(stmt.module)  # from pkg.util import *: its names are read bare
    out.statements = [_statement(stmt) for stmt in tree.body
                      if not isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef,
                                               ast.ClassDef)) and not _is_docstring(stmt)]
    _helper_imports(tree, out, internal)
    _table_users(tree, out)
    if doctests:
        _docstring_doctests(tree, out, aliases, internal)
    for unit in out.units.values():  # pytestmark = pytest.mark.usefixtures("x"): every test of the file requests x
        if unit.kind != "module":
            unit.fixtures |= module.fixtures
    return out


def _table_entries(tree: ast.Module, out: TestFile, aliases: dict[str, str],
                   internal: set[str]) -> dict[int, list[ast.expr]]:
    """The entries of the file's tables (``ALGS = (pkg.bag, pkg.mra)``) that are plain references to the library
    go to ``out.tables``; returns, per table statement, the other entries (read at import as any code)."""
    found: dict[int, list[ast.expr]] = {}
    tables = param_tables(tree)
    for stmt in tree.body:
        table = tables.get(stmt.targets[0].id) if isinstance(stmt, ast.Assign) \
            and isinstance(stmt.targets[0], ast.Name) and stmt.value is not None else None
        if table is None or table.line != stmt.lineno:
            continue
        found[id(stmt)] = rest = []
        for i, elt in enumerate(table.entries):
            dotted = _dotted(elt, aliases) if table.cuttable(i) else None
            if dotted and dotted.split(".")[0] in internal:
                out.tables.append((f"{table.name}[{i}]", Use(dotted, elt.lineno)))
            else:
                rest.append(elt)
    return found


def _case_entries(tree: ast.Module, out: TestFile, aliases: dict[str, str], internal: set[str]
                  ) -> dict[int, list[tuple[ast.expr, str]]]:
    """Per statement of a table of cases (index/case_tables.py) or of a store filling one: its parts, each with the
    entry it belongs to (``_FILETYPES[3]``, the third store ``_FILETYPES@2``)."""
    found: dict[int, list[tuple[ast.expr, str]]] = {}
    for table in case_tables(tree).values():
        stmt = next(s for s in tree.body if isinstance(s, ast.Assign) and s.lineno == table.line)
        found[id(stmt)] = [(part, f"{table.name}[{i}]") for i, parts in enumerate(table.entries) for part in parts]
        for k, store in enumerate(table.stores):
            found[id(store)] = [(store.targets[0].slice, f"{table.name}@{k}"),  # type: ignore[attr-defined]
                                (store.value, f"{table.name}@{k}")]
    return found


def _entry_uses(part: ast.expr, entry: str, out: TestFile, module: Unit, aliases: dict[str, str],
                internal: set[str]) -> None:
    """What ``part`` of a table entry uses of the library names the entry (it goes when that goes); the rest of
    what it reads (``os.path.join(DATA_DIR, ...)``) is read at import as any code."""
    unit = Unit("<entry>", "module", part.lineno, part.end_lineno or part.lineno)
    _collect(part, unit, aliases, internal)
    out.tables += [(entry, use) for use in unit.uses]
    module.names |= {n for n in unit.names if n not in aliases or aliases[n].split(".")[0] not in internal}
    for attr, line in unit.attrs.items():
        module.attrs.setdefault(attr, line)


def _table_users(tree: ast.Module, out: TestFile) -> None:
    """Each test a table parametrizes uses its entries as the values of its argument (``alg=ALGS[3]``): when every
    one names removed code the test goes, else it loses those values (the stage cuts them from the table)."""
    for table in param_tables(tree).values():
        entries = [(v, u) for v, u in out.tables if v.startswith(table.name + "[")]
        for qualname, arg in table.users if entries else ():
            unit = out.units.get(qualname)
            if unit is not None:
                unit.params[arg] = [f"{table.name}[{i}]" for i in range(len(table.entries))]
                unit.uses += [Use(use.dotted, use.line, param=f"{arg}={value}") for value, use in entries]


def _tagged(stmt: ast.stmt, own: set[str]) -> str | None:
    """The file's own function or class a module-level ``name.attr = value`` sets an attribute on (every target
    such an attribute of that one name), else None."""
    if not isinstance(stmt, ast.Assign):
        return None
    bases = {t.value.id if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) else None
             for t in stmt.targets}
    name = bases.pop() if len(bases) == 1 else None
    return name if name in own else None


def collect_uses(tree: ast.Module, unit: Unit, internal: set[str], names: dict[str, str] | None = None) -> None:
    """What ``tree`` (code of ``unit`` standing alone: a doctest's examples) uses of the analysed packages;
    ``names``: what its bare names are besides its own imports (a library docstring's: its module's names)."""
    _collect(tree, unit, {**(names or {}), **_aliases(tree, internal)}, internal)


def _docstring_doctests(tree: ast.Module, out: TestFile, aliases: dict[str, str], internal: set[str]) -> None:
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        text = ast.get_docstring(node, clean=False)
        examples = doctest_examples(text) if text else []
        if not examples:
            continue
        for example in examples:  # the docstring's lines become the file's
            ast.increment_lineno(example, node.body[0].lineno - 1)
        code = ast.Module(body=[s for e in examples for s in e.body], type_ignores=[])
        line = getattr(node, "lineno", 1)
        owners = [u for u in out.units.values() if u.kind != "module" and u.line <= line <= u.end]
        unit = min(owners, key=lambda u: u.end - u.line) if owners and line > 1 else out.units["<module>"]
        _collect(code, unit, {**aliases, **_aliases(code, internal)}, internal)


def _pytest_plugins(stmt: ast.stmt, internal: set[str] | None) -> list[Use]:
    """``pytest_plugins = ["pkg.testing.plugin"]`` (or one string): pytest imports those modules for their fixtures,
    which tests request by parameter name only (pitfall 5)."""
    if not (isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and stmt.value is not None and any(
            isinstance(t, ast.Name) and t.id == "pytest_plugins"
            for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]))):
        return []
    return [Use(name, stmt.lineno) for name in _plugin_names(stmt.value)
            if internal is None or name.split(".")[0] in internal]


def _plugin_names(node: ast.expr) -> list[str]:
    """The strings a ``pytest_plugins`` value holds: literals, concatenations of lists, and comprehensions of an
    f-string over a literal tuple (``[f"pkg.testing.{n}" for n in ("db", "net")]``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [name for elt in node.elts for name in _plugin_names(elt)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _plugin_names(node.left) + _plugin_names(node.right)
    if isinstance(node, ast.ListComp) and len(node.generators) == 1 and isinstance(node.elt, ast.JoinedStr):
        gen = node.generators[0]
        values = _plugin_names(gen.iter) if isinstance(gen.iter, (ast.List, ast.Tuple, ast.Set)) else []
        if isinstance(gen.target, ast.Name) and not gen.ifs:
            return [name for value in values if "{" not in (name := _fill(node.elt, gen.target.id, value))]
    return []


def _fill(text: ast.JoinedStr, name: str, value: str) -> str:
    return "".join(str(p.value) if isinstance(p, ast.Constant) else value if isinstance(p, ast.FormattedValue)
                   and _variable(p.value) == name else "{?}" for p in text.values)


def _variable(node: ast.expr) -> str | None:
    """``name``, or ``request.param`` (a fixture's parameter value): what a literal binding may name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _bindings(stmt) -> dict[str, tuple[int, str]]:
    """The local names a module-level import binds, each with its line and the dotted name it reads."""
    if isinstance(stmt, ast.Import):
        return {a.asname or a.name.split(".")[0]: (stmt.lineno, a.name) for a in stmt.names}
    return {a.asname or a.name: (stmt.lineno, f"{stmt.module}.{a.name}") for a in stmt.names
            if a.name != "*" and stmt.module}


def _absolute_imports(tree: ast.Module, package: str) -> None:
    """``from ..x import y`` in a test inside ``package``: rewritten in the tree as ``from <pkg>.x import y``."""
    parts = package.split(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and node.level <= len(parts):
            node.module, node.level = absolute_module(package, node.level, node.module), 0


def _kind(node) -> str:
    """A fixture: a decorator whose callee names a fixture (``pytest.fixture``, ``pytest_asyncio.fixture(...)``,
    ``yield_fixture``); ``@pytest.mark.usefixtures("x")`` marks a test (plumbum 1.9.0's ``test_iterdir``)."""
    callees = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list]
    if any("fixture" in c and c.rsplit(".", 1)[-1] != "usefixtures" for c in callees):
        return "fixture"
    return "test" if node.name.startswith("test") else "helper"


def _add(out: TestFile, node, qualname: str, kind: str, aliases, internal, shallow: bool = False) -> Unit:
    unit = Unit(qualname, kind, node.lineno, node.end_lineno or node.lineno)
    if kind == "fixture":
        unit.autouse = any("autouse=True" in ast.unparse(d) for d in node.decorator_list)
        unit.alias = next((k.value.value for d in node.decorator_list if isinstance(d, ast.Call) for k in d.keywords
                           if k.arg == "name" and isinstance(k.value, ast.Constant)
                           and isinstance(k.value.value, str)), None)
    unit.params = own_parameters(node)
    unit.decorated = any(not (isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod"))
                         for d in node.decorator_list)
    if kind == "fixture":
        unit.handed = _handed(node)
    if not shallow:
        args = node.args
        unit.fixtures = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs} - {"self", "cls"}
        _collect(node, unit, aliases, internal)
    for deco in node.decorator_list:
        if "usefixtures" in ast.unparse(deco) and isinstance(deco, ast.Call):
            unit.fixtures |= {a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    out.units[qualname] = unit
    return unit


def _handed(node) -> list[tuple[int, int]]:
    """The lines of the functions a fixture defines in its own body and returns or yields by name (``return
    cli_main``): the tests that request the fixture call them."""
    nested = {st.name: (st.lineno, st.end_lineno or st.lineno) for st in getattr(node, "body", ())
              if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out = []
    for sub in ast.walk(node) if nested else ():
        value = sub.value if isinstance(sub, (ast.Return, ast.Yield)) else None
        if isinstance(value, ast.Name) and value.id in nested and nested[value.id] not in out:
            out.append(nested[value.id])
    return out


def _aliases(tree: ast.Module, internal: set[str]) -> dict[str, str]:
    """Local name -> dotted name, from every import in the file (shadowing is ignored: names are rarely reused). A
    name bound to the analysed packages keeps that meaning against a later import of something else: ``try: from .
    import documentation`` / ``except ImportError: import documentation`` (decorator's tests, run in the package or
    from its folder) reads the package's module."""
    out = {"sys": "sys", "os": "os"}

    def bind(local: str, dotted: str) -> None:
        if local in out and out[local].split(".")[0] in internal and dotted.split(".")[0] not in internal:
            return
        out[local] = dotted

    for cls in ast.walk(tree):  # class DebugMode: from pkg import _log as __module ... self.__module.defer()
        for stmt in cls.body if isinstance(cls, ast.ClassDef) else ():
            if isinstance(stmt, ast.Import):
                out.update({f"self.{a.asname}": a.name for a in stmt.names if a.asname})
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                out.update({f"self.{a.asname or a.name}": f"{stmt.module}.{a.name}" for a in stmt.names
                            if a.name != "*"})
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                bind(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name != "*":
                    bind(a.asname or a.name, f"{node.module}.{a.name}")
    return out


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in aliases:
        return ".".join([aliases[node.id], *reversed(parts)])
    if isinstance(node, ast.Name) and node.id in ("self", "cls") and parts and f"self.{parts[-1]}" in aliases:
        return ".".join([aliases[f"self.{parts[-1]}"], *reversed(parts[:-1])])  # a class attribute bound by an import
    return None


def _collect_guarded(stmt: ast.Try, unit: Unit, aliases, internal) -> None:
    """``try: import x / except ImportError:`` at module level: the import is optional, only the rest counts. A
    handler that may raise again (huey's ``except ImportError: if peewee is not None: raise``) makes nothing
    optional: the file fails at import where the module is missing, so the body counts too."""
    reraises = any(isinstance(n, ast.Raise) and n.exc is None for h in stmt.handlers for n in ast.walk(h))
    parts: list[ast.AST] = [stmt] if reraises else [*stmt.handlers, *stmt.orelse, *stmt.finalbody]
    for part in parts:
        _collect(part, unit, aliases, internal)


def _collect(node: ast.AST, unit: Unit, aliases: dict[str, str], internal: set[str]) -> None:
    literals = _literal_bindings(node)
    for sub in ast.walk(node):
        if unit.kind != "module" and isinstance(sub, (ast.Constant, ast.JoinedStr)):
            unit.uses += [Use(m, sub.lineno) for m in _snippet_imports(sub) if m.split(".")[0] in internal]
        if isinstance(sub, ast.Import):
            unit.uses += [Use(a.name, sub.lineno) for a in sub.names if a.name.split(".")[0] in internal]
        elif isinstance(sub, ast.ImportFrom) and sub.module and not sub.level \
                and sub.module.split(".")[0] in internal:
            unit.uses += [Use(sub.module if a.name == "*" else f"{sub.module}.{a.name}", sub.lineno)
                          for a in sub.names]
        elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load):
            if isinstance(sub.value, ast.Name) and sub.value.id in ("self", "cls"):
                unit.names.add(f"self.{sub.attr}")  # a method of its class it calls (self._test_cases)
            else:
                unit.attrs.setdefault(sub.attr, sub.lineno)  # instrument._check_name(...): maybe a pruned method
            dotted = _dotted(sub, aliases)
            if dotted and dotted.split(".")[0] in internal:
                unit.uses.append(Use(dotted, sub.lineno))
                if sub.attr == "__all__":  # sorted(pkg.__all__) == [...]: the list the fork prunes names from
                    unit.uses.append(Use(f"{dotted[:-len('.__all__')]}.{NAMESPACE}", sub.lineno))
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            unit.names.add(sub.id)
            dotted = aliases.get(sub.id)
            if dotted and dotted.split(".")[0] in internal and ("." in dotted or sub.id == dotted):
                # import attrs; params=(attr, attrs): a top-level module read by its own name is used too
                unit.uses.append(Use(dotted, sub.lineno))
        elif isinstance(sub, (ast.Assign, ast.Delete)):
            if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Constant) and isinstance(sub.value.value, str):
                for t in sub.targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                        unit.self_strings.setdefault(t.attr, set()).add(sub.value.value[:40])
            unit.patches += [_env_patch(*found) for found in env_stores(sub)]
            unit.patches += [Patch(dotted, _value(sub.value) if isinstance(sub, ast.Assign) else UNKNOWN, sub.lineno)
                             for t in sub.targets if isinstance(t, ast.Attribute)
                             and (dotted := _dotted(t, aliases)) and dotted.split(".")[0] in internal]
            # config.DEBUG = True: sets a module's name, as monkeypatch.setattr does
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and len(sub.value) <= 40:
            unit.strings.add(sub.value)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and (_KEYED.match(sub.value)
                                                                              or "://" in sub.value[:40]):
            unit.strings.add(sub.value[:40])  # "oracle, version = 19.5": a key with options; a URL's scheme
        elif isinstance(sub, ast.Call):
            patch = _patch(sub, aliases)
            if patch is not None:
                unit.patches.append(patch)
            unit.patches += [_env_patch(*found) for found in env_patches(sub)]
            named = _imported_by_string(sub)
            if named and named.split(".")[0] in internal:
                unit.uses.append(Use(named, sub.lineno))
            category = _warning_category(sub)
            if category and category.split(".")[0] in internal:
                unit.uses.append(Use(category, sub.lineno, via=WARNING_CATEGORY))
            unit.uses += [Use(n, sub.lineno, param=f"{var}={value}" if unit.params.get(var) == literals.get(var)
                              else "") for n, var, value in _imported_by_values(sub, literals)
                          if n.split(".")[0] in internal]
            unit.uses += [Use(p, sub.lineno) for p in _imported_from_template(sub, literals)
                          if p.split(".")[0] in internal]
            unit.fixtures |= _fixtures_named(sub)
            unit.uses += [Use(m, sub.lineno) for m in _run_as_main(sub) if m.split(".")[0] in internal]
            unit.uses += [Use(t, sub.lineno) for t in _patch_targets(sub, aliases) if t.split(".")[0] in internal]
            if unit.kind != "module":  # runpy.run_path(join(ROOT, "examples", "demo.py")), [python, "tool.py"]
                unit.uses += [Use(FILE_USE + p, sub.lineno) for p in run_paths(sub, aliases)]
                unit.uses += [Use(d, sub.lineno) for d in doc_runs(sub)]
                unit.uses += [Use(p + PACKAGE_SCAN, sub.lineno) for p in package_scans(sub, lambda n: _dotted(
                    n, aliases) or (n.id if isinstance(n, ast.Name) else None)) if p.split(".")[0] in internal]
            unit.uses += [Use(f"{m}.{NAMESPACE}", sub.lineno) for m in _namespace_reads(sub, aliases)
                          if m.split(".")[0] in internal]
            unit.uses += [Use(d, sub.lineno) for d in _named_attr_reads(sub, aliases) if d.split(".")[0] in internal]


NAMESPACE = "__dict__"  # Use.dotted "pkg.mod.__dict__": a test reads every name of the module


def _namespace_reads(call: ast.Call, aliases: dict[str, str]) -> list[str]:
    """``vars(jsonpickle)``, ``dir(mod)``, ``inspect.getmembers(mod)``: the test reads the module's whole namespace
    (jsonpickle 3.3.0's ``test_API_names`` asserts the names ``vars(jsonpickle)`` lists)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in ("getattr", "hasattr") and len(call.args) >= 2 and not (
            isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str)):
        found = _dotted(call.args[0], aliases)  # getattr(util, "pruned_" + kind): any name of the module
        return [found] if found else []
    if name not in ("vars", "dir", "getmembers") or not call.args:
        return []
    found = _dotted(call.args[0], aliases)
    return [found] if found else []


def _named_attr_reads(call: ast.Call, aliases: dict[str, str]) -> list[str]:
    """``hasattr(util, "helper")``, ``getattr(util, "helper")``: a read of ``util.helper`` by its name."""
    name = call.func.id if isinstance(call.func, ast.Name) else ""
    if name not in ("getattr", "hasattr") or len(call.args) < 2 or not (
            isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str)):
        return []
    found = _dotted(call.args[0], aliases)
    return [f"{found}.{call.args[1].value}"] if found else []


def _run_as_main(call: ast.Call) -> list[str]:
    """``subprocess.run([sys.executable, "-m", "pkg"])``: the child runs ``pkg.__main__`` (a package) or ``pkg``;
    ``runpy.run_module("pkg.tool")`` runs it here. ``[sys.executable, "-c", "import pkg.sub as m; ..."]``: the
    child imports what the code imports."""
    out = []
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "run_module" and call.args and isinstance(call.args[0], ast.Constant) \
            and isinstance(call.args[0].value, str):
        out.append(f"{call.args[0].value}.__main__")
    for arg in call.args[:1] + [k.value for k in call.keywords if k.arg == "args"]:
        if isinstance(arg, (ast.List, ast.Tuple)):
            items = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None for e in arg.elts]
            out += [f"{name}.__main__" for flag, name in zip(items, items[1:]) if flag == "-m" and name]
            out += [m for flag, code in zip(items, items[1:]) if flag == "-c" and code for m in _code_imports(code)]
    return out


def _code_imports(code: str) -> list[str]:
    """The modules a snippet of code run by ``python -c`` imports."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [node.module if a.name == "*" else f"{node.module}.{a.name}" for a in node.names]
    return out


def _snippet_imports(node: ast.Constant | ast.JoinedStr) -> list[str]:
    """The modules the import lines of code held in a string import, an f-string's fields read as ``_``: code a
    test hands to a child Python some other way than a literal ``[python, "-c", code]`` (plumbum 1.9.0's
    ``code = f"from plumbum.fs.atomic import AtomicCounterFile ..."``, then ``local.python["-c", code]``)."""
    if isinstance(node, ast.JoinedStr):
        text = "".join(p.value if isinstance(p, ast.Constant) and isinstance(p.value, str) else "_"
                       for p in node.values)
    elif isinstance(node.value, str):
        text = node.value
    else:
        return []
    if "import " not in text:
        return []
    lines = [line.strip() for line in text.splitlines()]
    return [m for line in lines if line.startswith(("import ", "from ")) for m in _code_imports(line)]


def _fixtures_named(call: ast.Call) -> set[str]:
    """Fixtures named as strings: ``pytest.mark.usefixtures("x", "y")`` (a decorator, or ``pytestmark = ...``) and
    ``request.getfixturevalue("x")`` request them as a parameter does."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    args = call.args if name == "usefixtures" else call.args[:1] if name == "getfixturevalue" else []
    return {a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str)}


def generated_parameters(source: bytes | str) -> dict[str, list[str]]:
    """What a ``pytest_generate_tests`` hook gives each argument: ``metafunc.parametrize("modname", MODULES)``
    with a literal list of strings, or a module-level name bound to one. The hook of a conftest parametrizes the
    tests below it, a test file's its own tests."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    constants = {t.id: stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                 for t in stmt.targets if isinstance(t, ast.Name)}
    out: dict[str, list[str]] = {}
    for hook in tree.body:
        if not isinstance(hook, (ast.FunctionDef, ast.AsyncFunctionDef)) or hook.name != "pytest_generate_tests":
            continue
        for sub in ast.walk(hook):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "parametrize" \
                    and len(sub.args) >= 2 and isinstance(sub.args[0], ast.Constant) \
                    and isinstance(sub.args[0].value, str) and "," not in sub.args[0].value.strip().strip(","):
                values: ast.expr | None = sub.args[1]
                if isinstance(values, ast.Name):
                    values = constants.get(values.id)
                if isinstance(values, (ast.List, ast.Tuple, ast.Set)) and values.elts and all(
                        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in values.elts):
                    out.setdefault(sub.args[0].value.strip().strip(","), []).extend(
                        e.value for e in values.elts)  # type: ignore[attr-defined]
    return out


def _literal_bindings(node: ast.AST) -> dict[str, list[str]]:
    """Names that take each of a literal list of strings in ``node``: ``@pytest.mark.parametrize("name", ["a",
    "b"])`` and ``for name in ("a", "b"):`` (a comprehension too), and the arguments a ``pytest_generate_tests``
    hook parametrizes (``generated_parameters``)."""
    out: dict[str, list[str]] = {k: list(v) for k, v in _GENERATED.get().items()}
    for sub in ast.walk(node):
        target = values = None
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "parametrize" \
                and len(sub.args) >= 2 and isinstance(sub.args[0], ast.Constant) \
                and isinstance(sub.args[0].value, str) and "," not in sub.args[0].value.strip().strip(","):
            target, values = sub.args[0].value.strip().strip(","), sub.args[1]
        elif isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(sub.target, ast.Name):
            target, values = sub.target.id, sub.iter
        elif isinstance(sub, ast.Call) and _called(sub) == "fixture":  # @pytest.fixture(params=[...])
            target, values = "request.param", next((k.value for k in sub.keywords if k.arg == "params"), None)
        if target and isinstance(values, (ast.List, ast.Tuple, ast.Set)) and values.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in values.elts):
            out.setdefault(target, []).extend(e.value for e in values.elts)  # type: ignore[attr-defined]
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "parametrize":
            for name, strings in _parametrized_columns(sub).items():
                out.setdefault(name, []).extend(strings)
    return out


def _parametrized_columns(call: ast.Call) -> dict[str, list[str]]:
    """``@pytest.mark.parametrize("mod,name,val", [("core", "f", 1), ("extra", "g", 2)])``: each argument whose
    column holds only literal strings -> those strings (``mod``: core, extra)."""
    if len(call.args) < 2 or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
        return {}
    names = [n.strip() for n in call.args[0].value.split(",") if n.strip()]
    rows = call.args[1]
    if len(names) < 2 or not isinstance(rows, (ast.List, ast.Tuple)) or not rows.elts or not all(
            isinstance(r, (ast.List, ast.Tuple)) and len(r.elts) == len(names) for r in rows.elts):
        return {}
    out = {}
    for i, name in enumerate(names):
        column = [r.elts[i] for r in rows.elts]  # type: ignore[attr-defined]
        if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in column):
            out[name] = [e.value for e in column]  # type: ignore[attr-defined]
    return out


def own_parameters(node) -> dict[str, list[str]]:
    """The literal strings each ``@pytest.mark.parametrize("name", ["a", "b"])`` decorator of a function gives one
    argument (the list written in the decorator)."""
    out: dict[str, list[str]] = {}
    for deco in getattr(node, "decorator_list", ()):
        if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "parametrize" and len(deco.args) >= 2):
            continue
        names, values = deco.args[0], deco.args[1]
        if isinstance(names, ast.Constant) and isinstance(names.value, str) and names.value.strip().isidentifier() \
                and isinstance(values, (ast.List, ast.Tuple)) and values.elts and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in values.elts):
            out.setdefault(names.value.strip(), []).extend(e.value for e in values.elts)  # type: ignore[attr-defined]
    return out


def _imported_by_names(call: ast.Call, literals: dict[str, list[str]]) -> list[str]:
    return [name for name, _, _ in _imported_by_values(call, literals)]


def _imported_by_values(call: ast.Call, literals: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """``import_module(f"pkg.plugins.{name}")`` or ``"pkg.plugins." + name``, ``name`` bound to literals
    (``_literal_bindings``): an import of each candidate module, as a literal import of it would be: (module, the
    name, the literal it took)."""
    name = _called(call)
    if name not in ("import_module", "importorskip", "__import__") or not call.args:
        return []
    arg, found = call.args[0], []
    if (var := _variable(arg)) in literals:  # import_module(modname), modname parametrized
        found = [(v, var, v) for v in literals[var]]
    elif isinstance(arg, ast.JoinedStr):
        names = {_variable(p.value) for p in arg.values if isinstance(p, ast.FormattedValue)}
        if len(names) == 1 and (var := names.pop()) in literals:
            found = [(text, var, v) for v in literals[var] if "{" not in (text := _fill(arg, var, v))]
    elif isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and isinstance(arg.left, ast.Constant) \
            and isinstance(arg.left.value, str) and (var := _variable(arg.right)) in literals:
        found = [(arg.left.value + v, var, v) for v in literals[var]]
    package = call.args[1] if len(call.args) > 1 and name == "import_module" else next(
        (k.value for k in call.keywords if k.arg == "package"), None)
    if isinstance(package, ast.Constant) and isinstance(package.value, str):  # import_module(".x." + p, "pkg")
        found = [(_relative(package.value, text), var, v) for text, var, v in found]
    return found


def _imported_from_template(call: ast.Call, literals: dict[str, list[str]]) -> list[str]:
    """``import_module("pkg.tools.%s" % name)`` (also ``"pkg.tools." + x``, ``f"pkg.tools.{x}"``,
    ``"pkg.tools.{}".format(x)``) where the name is not one of known literals: it imports a module of
    ``pkg.tools`` (mutagen's ``tests/test_tools.py`` ``get_var``), a use of that package, which fails where the fork
    removes the package; which module below it is not known, so the removal of one does not take the test."""
    if _called(call) not in ("import_module", "importorskip", "__import__") or not call.args \
            or _imported_by_values(call, literals):
        return []
    arg = call.args[0]
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, (ast.Mod, ast.Add)) and isinstance(arg.left, ast.Constant):
        prefix = arg.left.value
    elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = arg.values[0].value
    elif isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format" \
            and isinstance(arg.func.value, ast.Constant):
        prefix = arg.func.value.value
    else:
        return []
    if not isinstance(prefix, str) or prefix.startswith("."):
        return []
    prefix = prefix.split("%")[0].split("{")[0]
    package = prefix[:-1] if prefix.endswith(".") else prefix.rpartition(".")[0]
    return [package] if package and all(p.isidentifier() for p in package.split(".")) else []


def _relative(package: str, name: str) -> str:
    """``import_module(name, package)``'s module: ``..x`` against ``pkg.sub`` is ``pkg.x``."""
    level = len(name) - len(name.lstrip("."))
    return absolute_module(package, level, name[level:] or None) or name if level else name


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _helper_imports(tree: ast.Module, out: TestFile, internal: set[str]) -> None:
    """A helper that imports a module named by its parameter (``def _run(self, name): import_module("examples." +
    name)``, pyparsing's ``test_examples.py``): each unit calling it with a string literal (``self._run("numerics")``)
    imports that module, as a literal import would."""
    defs = [(stmt.name, stmt) for stmt in tree.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
    defs += [(f"{stmt.name}.{sub.name}", sub) for stmt in tree.body if isinstance(stmt, ast.ClassDef)
             for sub in stmt.body if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef))]
    helpers: dict[str, tuple[int, str, list[str]]] = {}  # bare name -> (parameter index, name, candidate prefixes)
    for qualname, node in defs:
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        if "." in qualname and params[:1] in (["self"], ["cls"]):
            params = params[1:]
        literals = {p: [f"\0{p}"] for p in params}  # a marker the caller's literal replaces
        templates = [n for sub in ast.walk(node) if isinstance(sub, ast.Call)
                     for n in _imported_by_names(sub, literals)]
        for text in templates:
            param = next(p for p in params if f"\0{p}" in text)
            helpers[qualname.rsplit(".", 1)[-1]] = (params.index(param), param, [text])
    if not helpers:
        return
    for qualname, node in defs:
        unit = out.units.get(qualname)
        if unit is None:
            continue
        for sub in ast.walk(node):
            if not isinstance(sub, ast.Call):
                continue
            func = sub.func
            name = func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.value.id in ("self", "cls") else func.id if isinstance(func, ast.Name) else None
            if name not in helpers or name == qualname.rsplit(".", 1)[-1]:
                continue
            index, param, texts = helpers[name]
            arg = sub.args[index] if index < len(sub.args) else next(
                (k.value for k in sub.keywords if k.arg == param), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                unit.uses += [Use(m, sub.lineno) for t in texts if (m := t.replace(f"\0{param}", arg.value))
                              and m.split(".")[0] in internal]


def _imported_by_string(call: ast.Call) -> str | None:
    """``import_module("pkg.mod")``, ``pytest.importorskip("pkg.mod")``, ``__import__("pkg.mod")``,
    ``pydoc.locate("pkg.mod.Cls")``, ``pkgutil.resolve_name("pkg.mod:Cls")``: an import too."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in _BY_STRING and call.args and (text := constant_string(call.args[0])):  # "pkg" + ".fakes" too
        return text.replace(":", ".")
    return None


WARNING_CATEGORY = "pytest imports it as a filterwarnings category"


def _warning_category(call: ast.Call) -> str | None:
    """``pytest.mark.filterwarnings("ignore::pkg.warns.Old")``: pytest imports the category when it applies the
    mark, and a missing one stops the whole run (INTERNALERROR), not one test."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "filterwarnings" and call.args and (text := constant_string(call.args[0])) and text.count(":") >= 2:
        category = text.split(":")[2].strip()
        return category if "." in category else None
    return None


# import_module("pkg.mod") and what else imports the name it is given: pydoc.locate("pkg.mod.Cls"),
# pkgutil.resolve_name("pkg.mod:Cls") (and the frameworks' resolvers), doctest.DocTestSuite("pkg.mod")
_BY_STRING = ("import_module", "importorskip", "__import__", "locate", "resolve_name", "import_string",
              "import_object", "load_object", "DocTestSuite", "import_plugin")


def _patch_targets(call: ast.Call, aliases: dict[str, str]) -> list[str]:
    """What the other forms of patching name, which must exist: ``monkeypatch.delattr("pkg.mod.NAME")`` or
    ``(obj, "NAME")``, ``mock.patch.dict("pkg.mod.TABLE", ...)``, ``mock.patch.multiple("pkg.mod" | mod, NAME=...)``,
    ``mock.patch(target="pkg.mod.NAME")``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    first = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in ("target", "in_dict")),
                                                None)
    text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    owner = text or (_dotted(first, aliases) if first is not None else None)
    second = call.args[1] if len(call.args) >= 2 else None
    if name == "delattr" and isinstance(second, ast.Constant) and isinstance(second.value, str) and owner:
        return [f"{owner}.{second.value}"]
    if name in ("delattr", "dict") and text and "." in text:
        return [text]
    if name == "multiple" and owner:
        return [f"{owner}.{k.arg}" for k in call.keywords if k.arg]
    if name == "patch" and not call.args and text and "." in text:  # patch(target="pkg.mod.NAME")
        return [text]
    return []


def _patch(call: ast.Call, aliases: dict[str, str]) -> Patch | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name not in _PATCH_FUNCS:
        return None
    args = list(call.args)
    new = next((k.value for k in call.keywords if k.arg in ("new", "value")), None)
    text = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in args]
    if name in ("setenv", "delenv"):
        if args and text[0]:
            value = None if name == "delenv" else _value(args[1] if len(args) > 1 else new)
            return Patch(f"env:{text[0]}", value, call.lineno)
        return None
    if name == "patch" and isinstance(func, ast.Attribute) and func.attr == "patch" \
            and isinstance(func.value, ast.Attribute) and func.value.attr == "dict":
        return None
    if args and text[0] and "." in text[0] and name in ("setattr", "patch"):  # ("pkg.mod.NAME", value)
        return Patch(text[0], _value(args[1] if len(args) > 1 else new), call.lineno)
    if len(args) >= 2 and text[1] and name in ("setattr", "object"):  # (obj, "NAME", value)
        owner = _dotted(args[0], aliases)
        if owner:
            return Patch(f"{owner}.{text[1]}", _value(args[2] if len(args) > 2 else new), call.lineno)
    return None


def _env_patch(name: str, value, line: int) -> Patch:
    return Patch(f"env:{name}", None if value is REMOVED else _value(value), line)


def _value(node: ast.AST | None) -> object:
    if node is None:
        return UNKNOWN
    if isinstance(node, ast.Lambda):
        inner = _value(node.body)
        return UNKNOWN if inner is UNKNOWN else ("returns", inner)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def _statement(stmt: ast.stmt) -> tuple[int, int, tuple[str, ...], frozenset[str], bool]:
    targets = tuple(t.id for t in stmt.targets if isinstance(t, ast.Name)) if isinstance(stmt, ast.Assign) \
        and all(isinstance(t, ast.Name) for t in stmt.targets) else ()
    reads = frozenset(n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    calls = any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(stmt))
    return stmt.lineno, stmt.end_lineno or stmt.lineno, targets, reads, calls


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
