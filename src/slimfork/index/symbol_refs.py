"""What one top-level statement refers to, anywhere inside it: names, attribute chains, strings, ``getattr``
literals and the imports of its inner scopes (``StatementRefs``, for ``index.symbols``)."""

from __future__ import annotations

import ast
import re

from slimfork.index.doctests import doctest_sources
from slimfork.index.own_names import built_imports, own_lookup, own_pattern, own_relative_names, own_submodule, \
    relative_code_imports
from slimfork.index.pickled import pickled_literals
from slimfork.index.scopes import ScopedVisitor
from slimfork.index.symbol_model import ImportAlias, TopStatement

_IDENT = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?")
_IMPORT_LINE = re.compile(r"\s*(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*"
                          r"|from\s+[\w.]+\s+import\s+[\w\s,()*]+)\s*(?:#.*)?$")


_MODULES = ("sys", "modules")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_MODULE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


class StatementRefs(ScopedVisitor):
    """Names, attribute chains, strings and getattr literals anywhere under a statement."""

    def __init__(self, st: TopStatement, derived: dict[str, str] | None = None,
                 tables: dict[str, ast.expr] | None = None):
        super().__init__()  # scopes: the defs, classes and lambdas around the node: imports there bind local names
        self.st, self.derived = st, derived or {}
        self.tables = tables or {}  # the module's NAME = value assignments: a call may hand one on by name
        self.prose = False  # inside the arguments of a warning's or an exception's constructor
        self.raised: set[int] = set()  # the calls of `raise Call(...)`: an exception's constructor
        self.inner: set[int] = set()  # the pieces of an f-string or a `+` chain already read as built code
        self.imported: set[str] = set()  # local names bound to a module imported by a computed name

    def visit_Raise(self, node: ast.Raise) -> None:
        func = node.exc.func if isinstance(node.exc, ast.Call) else None
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name[:1].isupper():  # raise Gone("..."): a class's constructor (a factory's string may name a module)
            self.raised.add(id(node.exc))
        self.generic_visit(node)

    @property
    def depth(self) -> int:
        return len(self.scopes)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        """``x: T = v`` or ``self.x: T = v`` in a function body: Python never evaluates the annotation of a local
        assignment (PEP 526), so ``T`` is not a use; the prune drops such an annotation when it removes what
        ``T`` names (``slimfork.rewrite.annotations``)."""
        if self.is_local_annotation(node):
            self.visit(node.target)
            if node.value is not None:
                self.visit(node.value)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
        if self.depth:
            self.st.inner_imports.update(a._replace(position=0) for a in import_aliases(node))

    visit_ImportFrom = visit_Import

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.st.names.add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = attr_chain(node)
        if isinstance(node.value, ast.Call) and _imports_computed(node.value) or _loaded_module(node.value) or \
                chain and len(chain) == 2 and chain[0] in self.imported:
            self.st.anywhere.add(node.attr)  # import_module(f.__module__).gen_config: whichever module it is
        if chain:
            self.st.chains.add(chain)
        elif isinstance(node.value, ast.Call) and (module := returned_module(node.value)):
            self.st.strings.add(f"{module}:{node.attr}")  # __import__("pkg").__version__ reads one name of pkg
            self.visit(node.value.func)
        else:
            self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        """``del sys.modules[key]`` (mutagen's ``setup.py`` purges ``mutagen*`` before a coverage run) drops a
        module from the cache: it reads no module's names, so it is no ``sys.modules`` lookup."""
        for target in node.targets:
            if isinstance(target, ast.Subscript) and attr_chain(target.value) == _MODULES:
                self.st.names.add("sys")  # `import sys` stays
                self.visit(target.slice)
            else:
                self.visit(target)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        """``sys.modules["setuptools"]``: the module the literal names (its string counts), no computed lookup."""
        if attr_chain(node.value) == _MODULES and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            self.st.names.add("sys")
            self.visit(node.slice)
        else:
            self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        """``"setuptools" not in sys.modules``: a test of what is loaded, no lookup."""
        if all(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and all(attr_chain(c) == _MODULES for c in node.comparators):
            self.st.names.add("sys")
            self.visit(node.left)
        else:
            self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.st.names.update(node.names)  # pitfall 12: a global statement reads and writes the module name

    def visit_Assign(self, node: ast.Assign) -> None:
        if isinstance(node.value, ast.Call) and _imports_computed(node.value) or _loaded_module(node.value):
            self.imported.update(t.id for t in node.targets if isinstance(t, ast.Name))
        self._assign(node)

    def _assign(self, node: ast.Assign) -> None:
        """``f.__module__ = "pkg"`` or ``__module__ = "pkg"`` in a class body (mutagen's exceptions and base
        classes): the name a class or function reports, and ``__title__ = "httpx"``: the distribution's metadata,
        are labels no code looks up by name (httpx's ``__version__.py`` kept every name of
        ``httpx/__init__.py``)."""
        in_class = bool(self.scopes) and self.scopes[-1] is ast.ClassDef  # class X: __module__ = "mutagen"
        if all(isinstance(t, ast.Attribute) and _label(ast.Constant(t.attr), node.value)
               or isinstance(t, ast.Name) and in_class and _label(ast.Constant(t.id), node.value)
               or isinstance(t, ast.Name) and t.id in _METADATA and isinstance(node.value, ast.Constant)
               and isinstance(node.value.value, str) for t in node.targets):
            for target in node.targets:
                self.visit(target)
            self.st.words.add(node.value.value)  # type: ignore[attr-defined]
            return
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            text = node.value
            if len(text) <= 300 and self.prose:  # a message: each token a word of prose
                self.st.words.update(_IDENT.findall(text))
            elif len(text) <= 300:
                for token in _IDENT.findall(text):  # a bare word of a longer string: a URL, a logger, a hint
                    (self.st.words if token != text and not set(".:") & set(token) else self.st.strings).add(token)
            self._doctests(text)
            if "from ." in text:  # exec("from .backends.fast import NAME", {"__package__": ...}): as the absolute
                self.st.strings.update(relative_code_imports(text))  # spelling, which names the module whole
            if len(text) >= 24 and " " not in text:  # a pickle as base64 or hex text
                self.st.strings.update(found for found, _ in pickled_literals(node))
        elif isinstance(node.value, bytes) and len(node.value) > 4:  # a pickle's globals: pkg.mod:Thing
            self.st.strings.update(found for found, _ in pickled_literals(node))

    def visit_Expr(self, node: ast.Expr) -> None:
        """A string statement (a docstring) is prose nothing looks up by name: only its doctests count."""
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            self._doctests(node.value.value)
        else:
            self.generic_visit(node)

    def _doctests(self, text: str) -> None:
        """Pitfall 15: doctests run with the module's globals. A parsed example uses the names it loads and the
        attribute chains it reads (``etl.empty()``, spread over ``...`` lines too), and its imports name what they
        import, as a function's do; an import binds a name without using it as a value (``>>> import petl as
        etl`` kept every name of ``petl``). An example that does not parse (doctest fails it too) is read word by
        word, its import lines skipped."""
        if ">>>" not in text:
            return
        for source, example in doctest_sources(text):
            if example is None:
                for code in source.splitlines():
                    if _IMPORT_LINE.match(code) and ";" not in code:
                        continue
                    for ident in re.findall(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", code):
                        parts = tuple(ident.split("."))
                        if len(parts) > 1:
                            self.st.chains.add(parts)
                        else:
                            self.st.names.add(ident)
                continue
            inner = {id(n.value) for n in ast.walk(example) if isinstance(n, ast.Attribute)}
            for node in ast.walk(example):
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store) and id(node) not in inner:
                    self.st.names.add(node.id)  # (the head of a chain is read through the chain)
                elif isinstance(node, ast.Attribute) and id(node) not in inner and (chain := attr_chain(node)):
                    self.st.chains.add(chain)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    self.st.inner_imports.update(a._replace(position=0) for a in import_aliases(node))

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        """``f"{__name__}.ops"``: a submodule of the module itself (``{__name__}.ops``, filled in by the walker)."""
        own = own_submodule(node) or own_pattern(node, self.derived)
        if own:
            self.st.strings.add(own)
        self._built(node)
        self.generic_visit(node)

    def _built(self, node: ast.JoinedStr | ast.BinOp) -> None:
        """``exec(f"from {__package__}.runtime import helper")``: code built on the module's own name imports a
        module of it, named whole (a computed part, ``pkg.tasks.*``, is the graph's uncertain import)."""
        if id(node) not in self.inner:
            self.inner.update(id(n) for n in ast.walk(node) if n is not node)
            self.st.strings.update(name for name, _run in built_imports(node) if "*" not in name)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        """``__package__ + ".impl"``: as above."""
        own = own_submodule(node)
        if own:
            self.st.strings.add(own)
        self._built(node)
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        """``("pkg.mod", "Name")`` (a pickle allow-list entry, a lazy import table) names ``pkg.mod:Name``, one
        symbol, rather than the whole module."""
        first, second = node.elts if len(node.elts) == 2 else (None, None)
        if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                and isinstance(second, ast.Constant) and isinstance(second.value, str):
            module, name = first.value, second.value
            if _DOTTED.fullmatch(module) and "." in module and name.isidentifier():
                self.st.strings.add(f"{module}:{name}")
                return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        """A warning's or an exception's message is prose: the module names in it name no module whole
        (jsonschema's ``warnings.warn("... Import it from jsonschema.exceptions instead.")`` kept every name of
        ``jsonschema.exceptions``); a call inside the message is read as any other."""
        outer = self.prose
        self.prose = _message_call(node) or id(node) in self.raised
        try:
            if self.prose:
                self.st.chains.update(attribute_paths(node))
                self.generic_visit(node)
            else:
                # make_getattr(__name__, {"X": "._x"}), or a table of the module: make_getattr(__name__, _TABLE)
                self.st.strings.update(own_relative_names(node, self.tables))
                self.st.strings.update(name for name, _run in built_imports(node) if "*" not in name)
                self._call(node)
        finally:
            self.prose = outer

    def _call(self, node: ast.Call) -> None:
        if _reads_distribution(node):  # metadata.version("pkg"), getLogger("pkg"): a distribution's or a logger's name
            self.st.chains.update(attribute_paths(node))  # the reader itself is read: `import importlib.metadata`
            self.visit(node.func)
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    self.st.words.add(arg.value)
                else:
                    self.visit(arg)
            return
        if _setup_call(node):  # setup(name="pk", packages=["pk"]): what setuptools copies, which nothing imports
            self.st.chains.update(attribute_paths(node))
            self.visit(node.func)
            for arg in node.args:
                self.visit(arg)
            for kw in node.keywords:
                if kw.arg in _PACKAGING_KEYS and _literal_strings(kw.value):
                    self.st.words.update(n.value for n in ast.walk(kw.value) if isinstance(n, ast.Constant)
                                         and isinstance(n.value, str))
                else:
                    self.visit(kw.value)
            return
        self.st.chains.update(attribute_paths(node))
        named = _scan_prefix(node)
        if named is not None:  # pkgutil.iter_modules(pkg.__path__, "pkg.sub."): the modules below (the module
            # graph's scan lists them), no name of pkg.sub (geopy's test helper kept every name of geocoders/__init__)
            self.st.words.add(str(named.value))
            self.visit(node.func)
            for arg in node.args:
                if arg is not named:
                    self.visit(arg)
            for kw in node.keywords:
                if kw.value is not named:
                    self.visit(kw.value)
            return
        prefix = own_lookup(node)  # import_module(__name__), resolve_name(f"{__name__}:_impl_{kind}")
        if prefix is not None:
            self.st.own_lookups.add((prefix, node.lineno))
        func = node.func
        if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) == 3 and not node.keywords \
                and _label(node.args[1], node.args[2]):  # setattr(obj, "__module__", "pkg"): a label
            self.st.names.add(func.id)
            self.visit(node.args[0])
            self.st.words.add(node.args[2].value)  # type: ignore[attr-defined]
            return
        if isinstance(func, ast.Name) and func.id in ("getattr", "hasattr", "setattr", "delattr") \
                and len(node.args) >= 2:
            base = attr_chain(node.args[0])
            if base:  # the object is looked up, not used as a value: getattr(module, "name") names one symbol
                lit = node.args[1].value if isinstance(node.args[1], ast.Constant) and \
                    isinstance(node.args[1].value, str) else None
                self.st.getattrs.add((base, lit))
                if len(base) == 2 and base[0] in self.imported:  # getattr(pkg.helpers, name), pkg a module object
                    (self.st.anywhere_lookups if lit is None else self.st.anywhere).add(base[1])
                    self.st.anywhere.add(base[1])
                self.st.names.add(func.id)
                for arg in node.args[1:]:
                    self.visit(arg)
                for kw in node.keywords:
                    self.visit(kw)
                return
        self.generic_visit(node)


_MESSAGE_SUFFIXES = ("Error", "Warning", "Exception")
_LABELS = frozenset({"__module__", "__qualname__", "__name__"})
_METADATA = frozenset({"__title__", "__description__", "__summary__", "__author__", "__author_email__", "__email__",
                       "__maintainer__", "__license__", "__copyright__", "__url__", "__uri__", "__version__",
                       "__status__", "__credits__"})


def _label(attr: ast.expr, value: ast.expr) -> bool:
    """Whether setting attribute ``attr`` (a literal) to ``value`` sets a label: ``__module__``, ``__qualname__``
    or ``__name__`` to a string literal (httpx's ``setattr(obj, "__module__", "httpx")`` for each exported name)."""
    return isinstance(attr, ast.Constant) and attr.value in _LABELS and isinstance(value, ast.Constant) \
        and isinstance(value.value, str)


def _message_call(node: ast.Call) -> bool:
    """``warnings.warn(...)``, ``warn(...)`` or ``SomeError(...)`` / ``SomeWarning(...)`` / ``SomeException(...)``
    (and any ``raise Call(...)``, ``StatementRefs.visit_Raise``): its strings are a message for people."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "warn" or name.endswith(_MESSAGE_SUFFIXES) and name[:1].isupper()


def _imports_computed(call: ast.Call) -> bool:
    """``importlib.import_module(name)`` or ``__import__(name)`` with a name that is no literal (bandit's
    ``import_module(plugin.__module__)``): the module it returns is not known."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in ("import_module", "__import__") and bool(call.args) and not (
        isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))


def _loaded_module(node: ast.expr) -> bool:
    """``sys.modules[name]`` or ``sys.modules.get(name)`` of a name that is no literal (``sys.modules[__name__.
    rpartition(".")[0]]``: the package, whose submodules are then read as its attributes): a module not known."""
    if isinstance(node, ast.Subscript):
        key: ast.expr | None = node.slice
        holder = node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and node.args:
        key, holder = node.args[0], node.func.value
    else:
        return False
    return ast.unparse(holder) == "sys.modules" and not (isinstance(key, ast.Constant) and isinstance(key.value, str))


def returned_module(call: ast.Call) -> str | None:
    """The module a call imports by a literal name and returns: ``import_module("a.b")`` (no package, not
    relative) or ``__import__("a")`` (one name, no fromlist: ``__import__("a.b")`` returns ``a``); else None."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if len(call.args) != 1 or call.keywords or name not in ("import_module", "__import__"):
        return None
    arg = call.args[0]
    if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)) or not _MODULE.fullmatch(arg.value) \
            or name == "__import__" and "." in arg.value:
        return None
    return arg.value


def attribute_paths(node: ast.Call) -> list[tuple[str, ...]]:
    """``operator.attrgetter("inner.fns.f")(pkg)`` and ``functools.reduce(getattr, "inner.fns.f".split("."), pkg)``
    (or a literal list of parts): the chain ``pkg.inner.fns.f`` they read."""
    func, texts, base = node.func, [], None
    if isinstance(func, ast.Call) and _called(func) == "attrgetter" and len(node.args) == 1:
        texts = [a.value.split(".") for a in func.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        base = attr_chain(node.args[0])
    elif _called(node) == "reduce" and len(node.args) == 3 and isinstance(node.args[0], ast.Name) \
            and node.args[0].id == "getattr":
        parts, base = _split_literal(node.args[1]), attr_chain(node.args[2])
        texts = [parts] if parts else []
    if not texts or base is None:
        return []
    return [base + tuple(parts) for parts in texts if all(p.isidentifier() for p in parts)]


_DIST_READERS = frozenset({"version", "metadata", "distribution", "requires", "files"})
_DIST_MODULES = frozenset({("importlib", "metadata"), ("importlib_metadata",), ("metadata",)})


def _scan_prefix(node: ast.Call) -> ast.Constant | None:
    """The literal prefix (ending with a dot) a ``pkgutil.iter_modules``/``walk_packages`` call gives the names it
    lists."""
    chain = attr_chain(node.func)
    if not chain or chain[-1] not in ("iter_modules", "walk_packages") or chain[:-1] not in ((), ("pkgutil",)):
        return None
    arg = node.args[1] if len(node.args) > 1 else next((kw.value for kw in node.keywords if kw.arg == "prefix"), None)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.endswith("."):
        return arg
    return None


def _reads_distribution(node: ast.Call) -> bool:
    """``importlib.metadata.version("pkg")`` (``metadata.version``, ``importlib_metadata.version``,
    ``distribution``, ``metadata``, ``requires``, ``files``) and ``pkg_resources.get_distribution("pkg")``: the
    strings it passes are distribution names, which nothing imports; and ``logging.getLogger("pkg")``: a logger's
    name (httpx's ``_client.py`` kept every name of ``httpx/__init__.py``)."""
    chain = attr_chain(node.func)
    if chain and chain[-1] == "getLogger" and chain[:-1] in ((), ("logging",)) and not node.keywords:
        return True
    if not chain or len(chain) < 2 or node.keywords:
        return False
    if chain[:-1] == ("pkg_resources",):
        return chain[-1] in ("get_distribution", "require")
    return chain[-1] in _DIST_READERS and chain[:-1] in _DIST_MODULES


# setup()'s keywords that name what the build copies (the distribution, its packages and modules, their folders
# and data): setuptools reads files, it imports none of them. entry_points, cmdclass and the rest stay lookups.
_PACKAGING_KEYS = frozenset({"name", "packages", "py_modules", "package_dir", "namespace_packages",
                             "package_data", "exclude_package_data", "provides", "obsoletes"})
_SETUP_OWNERS: frozenset[tuple[str, ...]] = frozenset({(), ("setuptools",), ("distutils", "core")})


def packaging_strings(tree: ast.Module) -> set[tuple[str, int]]:
    """(text, line) of the strings of ``setup()``'s packaging keywords (``packages=["pk", "pk.sub"]``): folders and
    files setuptools copies, no module it imports (index/imports.py leaves them out of the module strings)."""
    return {(n.value, n.lineno) for node in ast.walk(tree) if isinstance(node, ast.Call) and _setup_call(node)
            for kw in node.keywords if kw.arg in _PACKAGING_KEYS and _literal_strings(kw.value)
            for n in ast.walk(kw.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _setup_call(node: ast.Call) -> bool:
    """``setup(...)``, ``setuptools.setup(...)``, ``distutils.core.setup(...)``."""
    chain = attr_chain(node.func)
    return chain is not None and chain[-1] == "setup" and chain[:-1] in _SETUP_OWNERS


def _literal_strings(node: ast.expr) -> bool:
    """A literal made of strings only: a list, tuple, set or dict of them (nested), or one."""
    return all(isinstance(n, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Load)) or isinstance(n, ast.Constant)
               and isinstance(n.value, str) for n in ast.walk(node))


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _split_literal(node: ast.expr) -> list[str] | None:
    """``"a.b.c".split(".")`` or ``["a", "b", "c"]``: the parts."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split" \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str) \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == ".":
        return node.func.value.value.split(".")
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def import_aliases(node) -> list[ImportAlias]:
    out = []
    for pos, alias in enumerate(node.names):
        if isinstance(node, ast.Import):
            bound = alias.asname or alias.name.split(".")[0]
            obj = alias.name if alias.asname else alias.name.split(".")[0]
            out.append(ImportAlias(bound, alias.name, 0, None, pos, obj))
        else:
            out.append(ImportAlias(alias.asname or alias.name, node.module or "", node.level, alias.name, pos))
    return out


def attr_chain(node) -> tuple[str, ...] | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return tuple([node.id] + parts[::-1])
    return None
