"""Symbol-level reachability: which top-level functions, classes, assignments and imports of the kept modules
anything kept refers to (a worklist over ``(module, name)``, built once per round and queried).

Roots: every statement that runs code at import, every statement of a module that keeps all its symbols (a
root module, a package ``__init__`` and what it exports, tests and scripts, modules looked up by name), names in
``__all__``, the spec's symbol roots and entry points. From a reached statement, every name, attribute chain
through an imported module (``mod.f``, ``pkg.sub.f``), ``from m import f``, ``getattr(mod, "f")`` and string
naming ``pkg.mod.f`` or ``pkg.mod:f`` reaches further. Methods of a kept class stay with it. Imports stay when
their names are used, when they re-export, when they load a module some kept code reaches as an attribute of
its package (pitfall 6), when they are third-party (their import may have effects), and inside an import cycle
(the order modules initialise in matters, pitfall 32).
"""

from __future__ import annotations

import sys
from collections import deque
from fnmatch import fnmatchcase

from slimfork.graph.symbol_result import PrunedCollector, PrunedSymbol, SymbolInputs, SymbolReach
from slimfork.index.own_expr import MARK, evaluate_own
from slimfork.index.symbols import ImportAlias, TopStatement

__all__ = ["PrunedSymbol", "SymbolInputs", "SymbolReach", "reach_symbols"]


def reach_symbols(inputs: SymbolInputs) -> SymbolReach:
    return _Walker(inputs).run()


class _Walker(PrunedCollector):
    def __init__(self, inputs: SymbolInputs):
        super().__init__(inputs.mm, inputs.summaries)
        self.i = inputs
        self.result = SymbolReach()
        self.done: set[tuple[str, int]] = set()
        self.kept_alias: set[tuple[str, int, int]] = set()
        self.queue: deque = deque()
        self.need_one: dict[tuple[str, str], tuple[list, str]] = {}
        self.by_target: dict[str, list[tuple[str, TopStatement, ImportAlias]]] = {}
        self._by_last: dict[str, list[str]] | None = None  # a submodule's last part -> the modules so named
        self._stars: dict[str, list[tuple[TopStatement, ImportAlias, str | None]]] = {}
        self.in_use: set[str] = set()  # modules kept code loads (code of another module uses them, an import stays)
        self.reading: str | None = None  # the module whose own statements are being read (its uses load no module)
        self.waiting_doctests: dict[str, list[tuple[TopStatement, str]]] = {}  # module -> its doctests, until then
        self._index_targets()

    # ---- driving -------------------------------------------------------------------------------------------
    def run(self) -> SymbolReach:
        for module, why in sorted(self.i.keep_all.items()):
            self.keep_everything(module, why)
        for module, why in sorted(self.i.looked_up.items()):
            self.keep_all_but_cut(module, why)
        for module, summary in self.s.items():
            if summary.keep_all:
                self.keep_everything(module, summary.keep_all[0])
                self.result.uncertain.append((module, summary.keep_all[0]))
            free = self._all_free(module)
            self.reading = module
            for st in summary.statements:
                if st.keep is not None and not (free and st.kind == "assign" and "__all__" in st.binds):
                    self.reach_statement(module, st, f"{module}: {st.keep}")
                for alias in st.aliases:
                    forced = self.forced(module, st, alias)
                    if forced:
                        self.keep_alias(module, st, alias, forced)
            for name in summary.all_names or ():  # an __all__ that promises nothing follows what stays, also
                if not free:  # through star imports (collect_all_entries: _star_bound)
                    self.use_name(module, name, f"listed in {module}.__all__")
            self.reading = None
        for module, name, why in self.i.symbol_roots:
            self.use_symbol(module, name, why)
        for text, where in self.i.text_refs:
            self.use_dotted(None, text, f"named in {where}")
        self.drain()
        self.subclass_hooks()
        self.keep_effectful_imports()
        self.bind_needed_names()
        self.collect()
        self.result.unloaded_doctests = set(self.waiting_doctests)
        for module, summary in self.s.items():
            for index in {m.class_index for m in (summary.methods.methods if summary.methods else ())}:
                self.result.external_bases[(module, index)] = self.external_bases(module, index)
            for index, st in enumerate(summary.statements):
                if st.kind == "class" and st.bases:
                    self.result.tree_bases[(module, index)] = self.tree_bases(module, index)
        return self.result

    def drain(self) -> None:
        while self.queue:
            func, *args = self.queue.popleft()
            func(*args)

    # ---- marking -------------------------------------------------------------------------------------------
    def keep_everything(self, module: str, why: str) -> None:
        if module in self.result.keep_all or module not in self.s:
            return
        self.result.keep_all[module] = why
        self.mark_loaded(module)
        dropped = self.i.dropped.get(module, frozenset())
        for st in self.s[module].statements:
            if st.kind != "import" and st.keep is None and st.binds and set(st.binds) <= dropped:
                continue  # named by [symbols] drop: stays only if kept code uses it
            self.reach_statement(module, st, why)
            for alias in () if self._type_only(st) else st.aliases:
                if st.kind != "import" or alias.bound not in dropped:
                    self.keep_alias(module, st, alias, why)
        for _, _, base in self.stars_of(module):  # what may read any of its names reads those stars bind too
            if base is not None:
                self.keep_star_exports(base, f"{why} (bound by a star import of {module})", frozenset({module}),
                                       dropped)

    # ---- star imports --------------------------------------------------------------------------------------
    def stars_of(self, module: str) -> list[tuple[TopStatement, ImportAlias, str | None]]:
        """The star imports of ``module`` (top level, or inside an ``if``/``try`` block), each with the absolute
        module it reads (None where that cannot be resolved)."""
        found = self._stars.get(module)
        if found is None:
            found = [(st, alias, self.absolute(module, alias)) for st in self.s[module].statements
                     for alias in st.aliases if alias.bound == "*"] if module in self.s else []
            self._stars[module] = found
        return found

    def exports(self, base: str, name: str, seen: frozenset[str] = frozenset()) -> bool | None:
        """Whether ``from base import *`` binds ``name``: its literal ``__all__`` says, else its public names and
        what its own star imports bind; None where that is unknown (a module this walk does not read, an
        ``__all__`` built at run time, a module ``__getattr__`` that may answer ``__all__``)."""
        if base in seen:
            return False  # a cycle of star imports adds nothing
        summary = self.s.get(base)
        if summary is None or _open_exports(summary):
            return None
        if summary.all_names is not None:
            return name in summary.all_names
        if name.startswith("_"):
            return False
        if name in self.binders[base] or f"{base}.{name}" in self.mm.modules:  # a loaded submodule is bound too
            return True
        answers = [self.exports(source, name, seen | {base}) if source else None for _, _, source in self.stars_of(base)]
        return True if True in answers else None if None in answers else False

    def exports_known(self, base: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether the names ``from base import *`` binds are known here (``exports`` never answers None)."""
        summary = self.s.get(base)
        if summary is None or _open_exports(summary):
            return False
        if summary.all_names is not None or base in seen:
            return True
        return all(source is not None and self.exports_known(source, seen | {base})
                   for _, _, source in self.stars_of(base))

    def keep_star_exports(self, base: str, why: str, seen: frozenset[str],
                          dropped: frozenset[str] = frozenset()) -> None:
        """Every name ``from base import *`` binds stays (its importer keeps everything: code may read any). A
        package ``__init__`` under ``package_api = false`` is no such source, as in ``prune.star_exports``: its
        names go when unused and its literal ``__all__`` loses them, so the star import still works."""
        summary = self.s.get(base)
        if summary is None or base in seen or self._api_free(base):
            return
        if _open_exports(summary):
            self.keep_everything(base, why)
            return
        names = summary.all_names if summary.all_names is not None else \
            sorted(n for n in self.binders[base] if not n.startswith("_"))
        for name in names:
            if name not in dropped:  # [symbols] drop of the importer's name: it goes when unused
                self.use_symbol(base, name, why)
        if summary.all_names is None:
            for st, alias, source in self.stars_of(base):
                self.keep_alias(base, st, alias, why)
                if source is not None:
                    self.keep_star_exports(source, why, seen | {base}, dropped)

    def use_through_stars(self, module: str, name: str, why: str) -> None:
        """``name`` of ``module`` is used: each star import of ``module`` that may bind it stays, and the name
        where it comes from, also where the module binds the name itself: a star import after the binding
        replaces it, one before it holds the name until the binding runs (module-level code between them reads
        it). An unknown source's star import stays anyway (``forced``)."""
        for st, alias, base in self.stars_of(module):
            provides = self.exports(base, name) if base is not None else None
            if provides or provides is None:
                self.keep_alias(module, st, alias, why)
                if base is not None and base in self.s:
                    self.use_symbol(base, name, why)

    def keep_all_but_cut(self, module: str, why: str) -> None:
        """A registry's module whose names are looked up at run time (a scanned model module's ``EntryClass``):
        its public definitions stay, the cut registry among them, except the names its removed entries used;
        private names and imports stay only when something kept uses them."""
        freed = self.i.registry_modules.get(module, set())
        if module in self.result.keep_all or module not in self.s:
            return
        self.mark_loaded(module)
        for st in self.s[module].statements:
            if st.kind != "import" and any(_public(name) and name not in freed for name in st.binds):
                self.reach_statement(module, st, why)

    def mark_loaded(self, module: str) -> None:
        """Kept code loads ``module``: its doctests run with the module's tests, so what they use stays."""
        if module not in self.in_use:
            self.in_use.add(module)
            for st, why in self.waiting_doctests.pop(module, ()):
                self.reach_statement(module, st, f"{why}, once {module} is loaded")
            if "." in module:
                self.mark_loaded(module.rpartition(".")[0])  # importing a module imports its packages

    def reach_statement(self, module: str, st: TopStatement, why: str) -> None:
        """A doctest of a module nothing else of kept code loads waits: ``isxn.py``'s docstring calling
        ``barcode.get_barcode`` kept the table that imports ``isxn`` (a cycle that holds itself)."""
        key = (module, st.index)
        if key in self.done:
            return
        loaded = self.i.loaded_doctests
        if st.doctest and module not in self.in_use and loaded is not None and module not in loaded:
            self.waiting_doctests.setdefault(module, []).append((st, why))
            return
        self.done.add(key)
        if st.kind != "import":
            for name in st.binds:
                self.result.first_use.setdefault((module, name), why)
        self.queue.append((self._refs_of, module, st))
        if st.kind != "import" and st.aliases and not self._type_only(st):  # imports nested in if/try blocks
            for alias in st.aliases:                                           # stay with their block
                self.keep_alias(module, st, alias, why)

    def keep_alias(self, module: str, st: TopStatement, alias: ImportAlias, why: str) -> None:
        key = (module, st.index, alias.position)
        if key in self.kept_alias:
            return
        self.kept_alias.add(key)
        self.result.first_use.setdefault((module, alias.bound), why)
        target = self.target(module, alias)
        if target is not None:
            self.mark_loaded(target[0])
        if target is not None and target[1] is not None:  # the imported name must still exist where it comes from
            self.queue.append((self.use_symbol, target[0], target[1], f"imported by {module}"))
        elif target is not None and alias.name is not None:
            self.use_shadowing(target[0], f"imported by {module}")

    def _refs_of(self, module: str, st: TopStatement) -> None:
        self.reading = module
        try:
            self._read_refs(module, st)
        finally:
            self.reading = None

    def _read_refs(self, module: str, st: TopStatement) -> None:
        where = f"{module} (line {st.line})"
        for name in st.names:
            self.use_name(module, name, where, bare=True)
        for chain in st.chains:
            self.use_chain(module, chain, where, value=True)
        for base, lit in st.getattrs:
            self.use_chain(module, base + ((lit,) if lit else ()), where, computed=lit is None)
        titles = _sphinx_titles(self.mm, module, st) or _setup_metadata(self.mm, module, st) \
            or _build_script_without_lookups(self.mm, module, self.s[module])  # no lookup
        # a read of an __all__ that promises nothing (`for name in __all__:`) reads what it lists once pruned:
        # its entries follow what stays (collect_all_entries), so they keep nothing
        listed = "__all__" in st.binds and st.kind == "assign" and self._all_free(module)
        for text in st.strings if not listed else ():
            self.use_dotted(module, text, where, word=titles)
        for text in st.words:
            self.use_dotted(module, text, where, word=True)
        for alias in st.inner_imports:
            self.use_inner_import(module, st, alias, where)
        for prefix, line in sorted(st.own_lookups):
            self.own_lookup(module, prefix, line)
        for name in sorted(st.anywhere):  # read off a module imported by a computed name: any module's binding
            for other in sorted(m for m in self.s if name in self.binders[m]):
                self.use_name(other, name, f"{where} reads '{name}' off a module it imports by a computed name")
                if name in st.anywhere_lookups:  # getattr(pkg.helpers, computed): every name of what it binds
                    self.use_chain(other, (name,), where, computed=True)

    def own_lookup(self, module: str, prefix: str, line: int) -> None:
        """``import_module(__name__)``, ``resolve_name(f"{__name__}:_impl_{kind}")``: the module reads its own
        names by a computed name; those with the literal prefix stay (every one without a prefix)."""
        why = f"{module} looks its own names up by a computed name (line {line})"
        if not prefix:
            self.keep_everything(module, why)
            self.result.uncertain.append((module, why))
            return
        for name in sorted(self.binders[module]):
            if name.startswith(prefix):
                self.use_name(module, name, f"{why}, starting with '{prefix}'")
        self.result.uncertain.append((module, f"names starting with '{prefix}': {why}"))

    def use_inner_import(self, module: str, st: TopStatement, alias: ImportAlias, why: str) -> None:
        """An import inside a function or class body: ``from m import f`` uses ``m.f``; a module it binds is
        walked along the chains the statement reads through the local name (used otherwise: all of it stays)."""
        target = self.target(module, alias)
        if target is None or alias.name == "*":
            return
        current, symbol = target
        if symbol is not None:
            self.use_symbol(current, symbol, f"imported by {why}")
            return
        if alias.name is not None:
            self.use_shadowing(current, f"imported by {why}")
        local = alias.bound  # ``import a.b`` binds ``a`` (current is "a"): its chains say a.b.<f>
        followed = False
        for chain in st.chains:
            if chain[0] == local:
                self.walk(current, chain[1:], why, computed=False, value=True)
                followed = True
            elif st.kind == "class" and len(chain) > 1 and chain[1] == local:  # a class attribute: self._u.f
                self.walk(current, chain[2:], why, computed=False)
                followed = True
        if st.kind == "class" and not followed:  # bound in the class body, read some other way
            self.keep_everything(current, f"imported into a class body by {why}")
            return
        for base, lit in st.getattrs:
            if base[0] == local:
                self.walk(current, base[1:] + ((lit,) if lit else ()), why, computed=lit is None)
        if local in st.names:  # used as a value (passed, returned, getattr with a computed name)
            self.keep_everything(current, f"the module object is used as a value by {why}")

    # ---- resolution ----------------------------------------------------------------------------------------
    def use_name(self, module: str, name: str, why: str, bare: bool = False) -> None:
        """``name`` of ``module`` is used: keep every statement that binds it (imports: the aliases)."""
        kept = self.result.kept_names.setdefault(module, set())
        if module not in self.s:
            return
        if module != self.reading:
            self.mark_loaded(module)
        first = name not in kept
        kept.add(name)
        if first:
            self.result.first_use.setdefault((module, name), why)
        for index in self.binders[module].get(name, ()):
            st = self.s[module].statements[index]
            if st.kind == "import":
                for alias in st.aliases:
                    if alias.bound == name:
                        self.keep_alias(module, st, alias, why)
                        if bare:
                            self.module_as_value(module, alias, why)
            else:
                if first:
                    self.reach_statement(module, st, why)
                for alias in st.aliases if bare and not self._type_only(st) else ():
                    if alias.bound == name:
                        self.module_as_value(module, alias, why)
        if first:
            self.use_through_stars(module, name, why)

    def use_symbol(self, module: str, name: str, why: str) -> None:
        """``module.name`` is used from outside: a submodule, or a name the module binds."""
        if f"{module}.{name}" in self.mm.modules:
            self.use_shadowing(f"{module}.{name}", why)
            return  # a submodule: the module graph keeps it
        self.use_name(module, name, why, bare=True)

    def use_shadowing(self, submodule: str, why: str) -> None:
        """``from pkg import sub`` where ``pkg`` itself binds ``sub`` (``from .sub import sub``): the package's
        attribute is that binding, not the submodule, so the binding stays too."""
        self.mark_loaded(submodule)
        package, _, name = submodule.rpartition(".")
        if name in self.binders.get(package, {}):
            self.use_name(package, name, why, bare=True)

    def module_as_value(self, module: str, alias: ImportAlias, why: str) -> None:
        """A name bound to an internal module is used as a value: everything in that module stays."""
        target = self.target(module, alias)
        if target is not None and target[1] is None:
            self.keep_everything(target[0], f"the module object is used as a value by {why}")

    def use_chain(self, module: str, chain: tuple[str, ...], why: str, computed: bool = False,
                  value: bool = False) -> None:
        """``a.b.f``: keep what binds ``a``; walk through modules; the first non-module part is a symbol.
        ``value``: a whole chain of the code (no longer one read through it), so one that ends at a module uses
        the module object (``inspect.getmembers(pkg.ops)``)."""
        head = chain[0]
        if module not in self.s:
            return
        plain = self.plain_imports(module, head)
        if plain:  # ``import a.b`` and ``import a.c`` both bind ``a``: keep those the chain goes through
            dotted = ".".join(chain)
            through = [(st, a) for st, a in plain if dotted == a.module or dotted.startswith(a.module + ".")]
            for st, alias in through:
                self.keep_alias(module, st, alias, why)
            if not through:  # any one of them binds the name: decided at the end, preferring one kept anyway
                self.need_one.setdefault((module, head), (plain, why))
            self.result.kept_names.setdefault(module, set()).add(head)
        else:
            self.use_name(module, head, why)
            if head not in self.binders[module]:
                self.through_stars(module, chain, why, computed, frozenset({module}))
        for index in self.binders[module].get(head, ()):
            st = self.s[module].statements[index]
            for alias in st.aliases:
                if alias.bound != head:
                    continue
                target = self.target(module, alias)
                if target is None:
                    continue
                current, symbol = target
                if symbol is not None:
                    continue  # an attribute of an imported symbol (a class attribute, a method)
                self.walk(current, chain[1:], why, computed, value)

    def through_stars(self, module: str, chain: tuple[str, ...], why: str, computed: bool,
                      seen: frozenset[str]) -> None:
        """``a.f`` where ``a`` comes from ``from pkg import *``: the submodule ``pkg.a`` (its ``__all__`` names it)
        or what ``pkg`` binds as ``a`` is walked as if bound here."""
        for st in self.s[module].statements:
            for alias in st.aliases:
                base = self.absolute(module, alias) if alias.bound == "*" else None
                if base is None or base in seen or base not in self.s:
                    continue
                if f"{base}.{chain[0]}" in self.mm.modules:
                    self.walk(base, chain, why, computed)
                elif chain[0] in self.binders[base]:
                    self.use_chain(base, chain, why, computed)
                else:
                    self.through_stars(base, chain, why, computed, seen | {base})

    def plain_imports(self, module: str, head: str) -> list[tuple[TopStatement, ImportAlias]]:
        """The top-level ``import a.b`` statements (no ``as``) binding ``head``, when nothing else binds it."""
        out = []
        for index in self.binders[module].get(head, ()):
            st = self.s[module].statements[index]
            if not any(alias.bound == head for alias in st.aliases):
                return []  # bound by a def or an assignment (inside an if/try block, for one)
            for alias in st.aliases:
                if alias.bound == head:
                    if alias.name is not None or alias.obj != head:
                        return []
                    out.append((st, alias))
        return out

    def walk(self, current: str, rest: tuple[str, ...], why: str, computed: bool, value: bool = False) -> None:
        for part in rest:
            sub = f"{current}.{part}"
            if sub in self.mm.modules:
                self.use_shadowing(sub, why)
                self.result.attr_modules.add(sub)
                self.queue.append((self.protect_imports_of, sub))
                current = sub
                continue
            if part in ("__dict__", "__getattribute__"):  # mod.__dict__["op_" + k], mod.__getattribute__(name)
                self.keep_everything(current, f"its namespace is read (.{part}) by {why}")
                self.result.uncertain.append((current, f".{part} read by {why}"))
                return
            self.use_name(current, part, why, bare=True)
            return
        if value and rest:  # `pkg.ops` passed on whole (inspect.getmembers(pkg.ops), vars(pkg.ops)): session 43,
            # a package's submodule imports went under public_api = "roots"
            self.keep_everything(current, f"the module object is used as a value by {why}")
        if computed:
            self.keep_everything(current, f"looked up with a computed name (getattr) by {why}")
            self.result.uncertain.append((current, f"getattr with a computed name by {why}"))

    def use_dotted(self, module: str | None, text: str, why: str, word: bool = False) -> None:
        """A string: a name of this module, ``pkg.mod.name``, ``pkg.mod:name`` or ``alias.attr``. A ``word`` of a
        longer string (``"https://github.com/org/pkg"``, ``"pip install pkg"``) names no module whole."""
        if text.startswith("{__package__}..") and module is not None:  # code held as text, a package up
            for named in self.mm.code_import_targets(self.mm.modules[module], text):
                self.use_dotted(None, named, why)
            return
        if text.startswith(MARK) and module is not None:  # a name built from the own name (index/open_names.py)
            if value := evaluate_own(text, module, self.mm.modules[module].own_package):
                self.use_dotted(None, value, why)
            return
        if text.startswith("{__") and module is not None:  # f"{__name__}.ops": a submodule of this module
            text = self.mm.modules[module].fill_own(text)
            if "*" in text:  # f"{_PKG}._{vendor}.ops": each module it matches, named whole
                for match in self.mm.matching(text):
                    self.use_dotted(None, match, why)
                return
        dotted, _, symbol = text.partition(":")
        parts = dotted.split(".")
        if module is not None and parts[0] in self.binders.get(module, {}):
            if len(parts) == 1 and not symbol:
                self.use_name(module, parts[0], why)
            elif not symbol:
                self.use_chain(module, tuple(parts), why)
            if symbol or len(parts) == 1 or dotted not in self.mm.modules or not self.mm.is_internal(dotted):
                return
            # "pkg._tables.parser" where `import pkg._tables.parser` binds pkg: the string is also the module's
            # whole name, which a caller may import by it and read any name of (jsonpath-ng's ply tables:
            # `tabmodule=self._ply_table_module`, then `exec("import %s" % module)` and `parsetab._tabversion`)
        if not self.mm.is_internal(dotted):
            if len(parts) > 1 and not symbol:
                self.use_generated(parts, why)
            return
        target = self.mm.longest_module(dotted)
        if target is None:
            return
        rest = dotted[len(target) + 1:].split(".") if len(dotted) > len(target) else []
        if symbol:
            rest.append(symbol.split(".")[0])
        if rest:
            self.use_symbol(target, rest[0], why)
        elif not word:
            why = f"named by the string '{text}' in {why} (may be looked up by name)"
            if target in self.i.registry_modules:
                self.keep_all_but_cut(target, why)
            else:
                self.keep_everything(target, why)

    def use_generated(self, parts: list[str], why: str) -> None:
        """``"return runtime._inherit_from(context, %s)"``: code a generator writes (mako's templates compile to
        modules that ``from mako import runtime``) reads a name through a submodule's last part. Each package
        module so named keeps that name, when it binds it (a word that names no such module keeps nothing)."""
        if self._by_last is None:
            self._by_last = {}
            for name in self.mm.modules:
                if "." in name:
                    self._by_last.setdefault(name.rsplit(".", 1)[1], []).append(name)
        for target in self._by_last.get(parts[0], ()):
            if parts[1] in self.binders.get(target, {}):
                self.use_symbol(target, parts[1], f"{why}: '{'.'.join(parts[:2])}' in a string (generated code)")

    def keep_effectful_imports(self) -> None:
        """An import that loads a module whose loading has effects (a call, a registering decorator or class at its
        top level) stays though its name goes unused: pruning it would move those effects to wherever else the
        module is loaded, perhaps a function that runs late or never (``from . import patches  # noqa: F401``).
        One name of the statement loads it: the statement's other names of that module go when unused (pydash's
        ``from .strings import (camel_case, ..., kebab_case)`` kept all 80 names for ``strings.py``'s effects)."""
        for loaded, importers in sorted(self.by_target.items()):
            if any(fnmatchcase(loaded, pattern) for pattern in self.i.unneeded_effects):
                continue  # the spec says these effects are not needed
            effect = self.result.registers.get(loaded) or next(
                (f"line {st.line}: {st.effect}" for st in self.s[loaded].statements if st.effect), None) \
                if loaded in self.s else None
            loading: dict[tuple[str, int], list[tuple[TopStatement, ImportAlias]]] = {}
            for importer, st, alias in importers if effect else ():
                if not st.type_only:
                    loading.setdefault((importer, st.index), []).append((st, alias))
            for (importer, index), aliases in loading.items():
                if not any((importer, index, alias.position) in self.kept_alias for _, alias in aliases):
                    st, alias = aliases[0]
                    self.keep_alias(importer, st, alias, f"loads {loaded}, whose loading has effects ({effect})")
        self.drain()

    def protect_imports_of(self, module: str) -> None:
        for importer, st, alias in self.by_target.get(module, ()):
            self.keep_alias(importer, st, alias, f"loads {module}, which kept code reaches as an attribute")

    def _index_targets(self) -> None:
        for module, summary in self.s.items():
            for st in summary.statements:
                if st.kind == "import":
                    for alias in st.aliases:
                        loaded = self.loaded(module, alias)
                        if loaded:
                            self.by_target.setdefault(loaded, []).append((module, st, alias))

    def forced(self, module: str, st: TopStatement, alias: ImportAlias) -> str | None:
        """Why an import alias stays even if its name is unused (None: it may go)."""
        if st.kind != "import":
            return None
        if alias.bound == "*":
            if module in self.i.star_api:
                return self.i.star_api[module]
            base = self.absolute(module, alias)
            if base not in self.s:
                return f"a star import of {base or 'a module it cannot resolve'}, whose names are not read here " \
                       "(unknown means keep)"
            if not self.exports_known(base):
                return f"a star import of {base}, whose names are only known at run time (unknown means keep)"
        loaded = self.loaded(module, alias)
        if loaded is None:
            base = self.absolute(module, alias) or ""
            if self.mm.is_internal(base):
                return f"imports {base}, which is not in the tree (unknown means keep)"
            top = base.split(".")[0]
            if top in sys.stdlib_module_names or top in ("typing_extensions",):
                return None
            return f"imports the third-party module {base} (its import may have effects)"
        if loaded in self.i.protected:
            return self.i.protected[loaded]
        if loaded in self.i.string_named and (alias.name is None or loaded != self.absolute(module, alias)):
            return self.i.string_named[loaded]  # binds the module object (``from . import shapes``)
        cycle = self.i.cycles.get(module)
        if cycle is not None and self.i.cycles.get(loaded) == cycle and not self._own_submodule(module, loaded) \
                and not self._freed_submodule(module, loaded, alias.bound):
            return f"{module} and {loaded} import each other (import order matters in a cycle)"
        return None

    def _type_only(self, st: TopStatement) -> bool:
        """An ``if TYPE_CHECKING:`` block whose imports keep nothing: they never run, and the imports check accepts
        one whose name or module the fork no longer has (only type checkers read it)."""
        return st.type_only and self.i.type_checking_free

    def _api_free(self, module: str) -> bool:
        info = self.mm.modules.get(module)
        return self.i.init_imports_free and info is not None and info.is_package

    def _all_free(self, module: str) -> bool:
        """The module's literal ``__all__`` promises nothing, so it loses the entries of the names pruned
        (``collect_all_entries``) instead of keeping them: a package ``__init__`` under ``package_api = false``,
        and a module no public API rule covers (under ``public_api = "roots"``, a kept module that is no root and
        re-exports no API with a star import). Only a single ``__all__ = [...]`` can be rewritten so."""
        summary = self.s.get(module)
        if summary is None or summary.all_names is None:
            return self._api_free(module)
        stores = [st for st in summary.statements if "__all__" in st.binds]
        if len(stores) != 1 or stores[0].kind != "assign":
            return False
        if self._api_free(module):
            return True
        info = self.mm.modules.get(module)
        return self.i.api_modules is not None and info is not None and not info.is_package \
            and self.mm.is_internal(module) and module not in self.i.api_modules \
            and module not in self.i.star_api and module not in self.i.keep_all

    def _own_submodule(self, module: str, loaded: str) -> bool:
        """With ``package_api = false``: loading a submodule initialises its package first anyway; without the
        ``__init__``'s import it loads later, after the package, so the cycle does not hold that import."""
        info = self.mm.modules.get(module)
        return self.i.init_imports_free and info is not None and info.is_package and loaded.startswith(module + ".")

    def _freed_submodule(self, module: str, loaded: str, bound: str) -> bool:
        """A package ``__init__`` importing a submodule only the registry entries the spec removes named
        (num2words' ``from . import lang_FR``): the spec says it goes, so no cycle through it needs its import."""
        info = self.mm.modules.get(module)
        return info is not None and info.is_package and loaded.startswith(module + ".") \
            and bound in self.i.registry_modules.get(module, ())

    def bind_needed_names(self) -> None:
        """A chain through ``import a.x`` statements none of which it goes through needs one of them."""
        while self.need_one:
            (module, _), (plain, why) = self.need_one.popitem()
            if not any((module, st.index, a.position) in self.kept_alias for st, a in plain):
                st, alias = plain[0]
                self.keep_alias(module, st, alias, why)
                self.drain()

    # ---- subclass hooks ------------------------------------------------------------------------------------
    def subclass_hooks(self) -> None:
        """Classes whose base defines ``__init_subclass__`` or has a metaclass of its own register themselves when
        defined: keep them."""
        hooked = {(m, st.binds[0]) for m, s in self.s.items() for st in s.statements if st.kind == "class" and st.hook}
        walked = self.walked_classes()
        changed = bool(hooked or walked)
        while changed:
            changed = False
            for module, summary in self.s.items():
                for st in summary.statements:
                    key = (module, st.binds[0]) if st.kind == "class" else None
                    if key is None or key in hooked or isinstance(walked, set) and key in walked:
                        continue
                    bases = [self.resolve_class(module, base) for base in st.bases]
                    if any(b in hooked for b in bases):
                        hooked.add(key)
                        self.registering(module, st, "a subclass of a class with __init_subclass__ or a metaclass")
                        changed = True
                    elif walked is True and (st.bases or not st.bases_known) \
                            or isinstance(walked, set) and any(b in walked for b in bases):
                        walked = walked if walked is True else walked | {key}
                        self.registering(module, st, "a subclass of a class whose __subclasses__() some code "
                                                     "enumerates (the walk finds it)")
                        changed = walked is not True or changed
            self.drain()
        self.descriptor_owners()
        for module, summary in self.s.items():
            for index, st in enumerate(summary.statements):
                if st.kind == "class" and (st.bases or not st.bases_known) and (base := registering_base(
                        external := self.external_bases(module, index))):
                    why = f"{base} may register its subclasses when they are defined (SQLAlchemy's and Django's " \
                          "models do)"
                    if external is None:  # a guess: the class stays, its module's loading is no known effect
                        self.use_name(module, st.binds[0], why)
                    else:
                        self.registering(module, st, why)
        self.drain()

    def registering(self, module: str, st: TopStatement, why: str) -> None:
        """Defining class ``st`` may register it: it stays, and loading its module has that effect; unless
        ``[symbols] unneeded_effects`` names the module (mimesis' providers register themselves through
        ``BaseProvider.__init_subclass__``: a Person slice needs none of the others' registrations)."""
        if any(fnmatchcase(module, pattern) for pattern in self.i.unneeded_effects):
            return
        self.use_name(module, st.binds[0], why)
        self.result.registers.setdefault(module, f"line {st.line}: class {st.binds[0]}: {why}")

    def walked_classes(self) -> set[tuple[str, str]] | bool | None:
        """The classes of the tree whose ``__subclasses__()`` some code enumerates (a registry walking its base's
        subclasses finds private ones no code names); True where one such base is computed (``cls`` of a helper):
        then every subclass of a class of the tree; None where no code walks."""
        found: set[tuple[str, str]] = set()
        for module, summary in self.s.items():
            for st in summary.statements:
                for chain in st.walks:
                    target = self.resolve_class(module, chain) if chain else None
                    if target is None:
                        return True
                    found.add(target)
        return found or None

    def descriptor_owners(self) -> None:
        """A class whose body creates an instance of a class of the tree with ``__set_name__`` (its own or
        inherited) runs that code when it is defined (``when = Field()`` may register the owner): keep it."""
        described = {(m, st.binds[0]) for m, s in self.s.items() for st in s.statements
                     if st.kind == "class" and st.set_name}
        changed = bool(described)
        while changed:  # subclasses inherit __set_name__
            changed = False
            for module, summary in self.s.items():
                for st in summary.statements:
                    if st.kind == "class" and (module, st.binds[0]) not in described \
                            and any(self.resolve_class(module, base) in described for base in st.bases):
                        described.add((module, st.binds[0]))
                        changed = True
        for module, summary in self.s.items() if described else ():
            for st in summary.statements:
                called = next((c for c in st.body_calls if self.resolve_class(module, c) in described), None)
                if st.kind == "class" and called:
                    self.registering(module, st, f"its body creates a {'.'.join(called)}, whose __set_name__ "
                                                 "runs when the class is defined (it may register the class)")
        self.drain()


# Distributions whose base classes do not register their subclasses (the standard library's, beside these).
_PLAIN_BASES = frozenset({"builtins", "torch", "numpy", "typing_extensions", "pydantic", "attr", "attrs", "triton",
                          "transformers"})


def registering_base(bases: frozenset[str] | None) -> str | None:
    """Why a class's base may register it when it is defined: a base from another distribution, or one this
    analysis cannot resolve; None when every base is the standard library's or a known plain one's."""
    if bases is None:
        return "a base this analysis cannot resolve"
    for base in sorted(bases):
        top = base.split(".", 1)[0]
        if top not in sys.stdlib_module_names and top not in _PLAIN_BASES:
            return f"its base {base}, a class of another distribution,"
    return None


def _open_exports(summary) -> bool:
    """The names ``from m import *`` binds are only known at run time: ``__all__`` built at run time, or no
    ``__all__`` and a module ``__getattr__``/``__dir__`` (which may answer it). Reasons as ``index.symbols`` words
    them."""
    return any("builds __all__ at run time" in why for why in summary.keep_all) or summary.all_names is None \
        and any("__getattr__" in why or "__dir__" in why for why in summary.keep_all)


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


# Sphinx's options that hold titles and names for display: a package's name there is text, not a module lookup.
_SPHINX_TITLES = frozenset("""project copyright author html_title html_short_title htmlhelp_basename epub_title
epub_author epub_publisher epub_copyright latex_documents man_pages texinfo_documents release version master_doc
root_doc""".split())


def _setup_metadata(mm, module: str, st) -> bool:
    """The ``setup(name="six", py_modules=["six"])`` call of a ``setup.py`` outside the packages: its strings name
    what to install, not a module to look names up in (they kept every name of a single-module project)."""
    info = mm.modules.get(module)
    path = info.path if info is not None else None
    return bool(path and path.rsplit("/", 1)[-1] == "setup.py" and not mm.is_internal(module)
                and "setup" in st.names)


_LOOKUPS = frozenset({"getattr", "__import__", "import_module", "resolve_name", "locate", "run_module", "run_path",
                      "exec", "eval", "vars", "globals", "locals", "modules", "load_entry_point", "find_spec",
                      "spec_from_file_location", "import_string", "load"})


# The scripts of build and task runners (setuptools, invoke, nox, fabric, doit, paver): they build, test and
# release the project, their strings name files and commands.
_BUILD_SCRIPTS = frozenset({"setup.py", "tasks.py", "noxfile.py", "fabfile.py", "dodo.py", "pavement.py"})


def _build_script_without_lookups(mm, module: str, summary) -> bool:
    """A build script outside the packages (``setup.py``, invoke's ``tasks.py``, ``noxfile.py``...) that looks
    nothing up by a name (no ``getattr``, ``import_module``, ``__import__``, ``sys.modules``, ``exec``,
    ``runpy``...): a module name in its strings (asn1crypto's ``PACKAGE_NAME = 'asn1crypto'``, then
    ``'%s_tests' % PACKAGE_NAME``; pydash 8.1.0's ``tasks.py``: ``PACKAGE_NAME = "pydash"``, then
    ``f"src/{PACKAGE_NAME}"``) names what to build, not a namespace to read (each kept every name of the package's
    ``__init__.py``, and so every module it imports). Its real imports count as before."""
    info = mm.modules.get(module)
    path = info.path if info is not None else None
    if not (path and path.rsplit("/", 1)[-1] in _BUILD_SCRIPTS and not mm.is_internal(module)):
        return False
    for st in summary.statements:
        if st.names & _LOOKUPS or any(chain[-1] in _LOOKUPS for chain in st.chains) or st.getattrs \
                or st.own_lookups:
            return False
        if any((a.name or a.module.rsplit(".", 1)[-1]) in _LOOKUPS for a in st.aliases + tuple(st.inner_imports)):
            return False  # from importlib import import_module as im
    return True


def _sphinx_titles(mm, module: str, st) -> bool:
    """A ``conf.py`` outside the packages assigning only Sphinx's display options (``project = "jsonpickle"``,
    which kept every name of ``jsonpickle/__init__.py`` and so every module it imports)."""
    info = mm.modules.get(module)
    path = info.path if info is not None else None
    return bool(path and path.rsplit("/", 1)[-1] == "conf.py" and st.kind == "assign" and st.binds
                and set(st.binds) <= _SPHINX_TITLES and not mm.is_internal(module))
