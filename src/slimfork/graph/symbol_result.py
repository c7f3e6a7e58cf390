"""The symbol worklist's inputs and result (what stays, what goes and why), and the collection of what goes once
the worklist is drained (``graph.symbols``)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from slimfork.graph.modules import ModuleMap
from slimfork.graph.symbol_targets import ImportTargets
from slimfork.index.symbols import ImportAlias, SymbolSummary, TopStatement


@dataclass
class PrunedSymbol:
    module: str
    path: str
    names: tuple[str, ...]  # what the statement (or the part of an import) bound
    kind: str  # "def", "class", "assign", "import"
    line: int
    end: int
    index: int  # statement position in the module body
    aliases: tuple[int, ...] = ()  # for a partly pruned import: the alias positions removed
    reason: str = "no kept code references it"


@dataclass
class SymbolReach:
    """The result: what stays (``kept_names``, ``keep_all``), what goes (``pruned``), and why."""

    kept_names: dict[str, set[str]] = field(default_factory=dict)
    keep_all: dict[str, str] = field(default_factory=dict)
    attr_modules: set[str] = field(default_factory=set)  # modules kept code reaches as attributes of a parent
    pruned: list[PrunedSymbol] = field(default_factory=list)
    uncertain: list[tuple[str, str]] = field(default_factory=list)  # (module, why everything stays: a guess)
    first_use: dict[tuple[str, str], str] = field(default_factory=dict)  # (module, name) -> who uses it
    # module -> why defining one of its classes may register it (a hooked base, a walked base, a descriptor):
    # loading the module has an effect, like a call at its top level
    registers: dict[str, str] = field(default_factory=dict)
    # (module, class statement index) -> the qualified names of the classes outside the tree it derives from
    # (through classes of the tree), for classes with candidate methods; None when a base cannot be resolved
    external_bases: dict[tuple[str, int], frozenset[str] | None] = field(default_factory=dict)
    # (module, class statement index) -> the classes of the tree it derives from, (module, name)
    tree_bases: dict[tuple[str, int], frozenset[tuple[str, str]]] = field(default_factory=dict)
    unloaded_doctests: set[str] = field(default_factory=set)  # modules whose doctests no kept code loaded


@dataclass
class SymbolInputs:
    """Everything the worklist needs, gathered by the caller (the planning stage)."""

    mm: ModuleMap
    summaries: dict[str, SymbolSummary]  # kept modules with a parsed file
    keep_all: dict[str, str]  # module -> why all its symbols stay (roots, __init__, tests, dynamic imports...)
    symbol_roots: list[tuple[str, str, str]] = field(default_factory=list)  # (module, name, why)
    cycles: dict[str, int] = field(default_factory=dict)  # module -> id of its import cycle (size > 1)
    protected: dict[str, str] = field(default_factory=dict)  # module -> why imports of it always stay
    # modules holding a declared dict registry -> the names only its cut entries may have used
    registry_modules: dict[str, set[str]] = field(default_factory=dict)
    looked_up: dict[str, str] = field(default_factory=dict)  # registry module found by name -> why
    text_refs: list[tuple[str, str]] = field(default_factory=list)  # (dotted text, where) from non-Python files
    init_imports_free: bool = False  # a package __init__'s import of its own submodule is not held by a cycle
    type_checking_free: bool = False  # type_checking_imports = "ignore": an `if TYPE_CHECKING:` import uses nothing
    dropped: dict[str, frozenset[str]] = field(default_factory=dict)  # [symbols] drop: not kept by keep_everything
    text_words: frozenset[str] = frozenset()  # identifiers in the packages' templates: they may name a method
    star_api: dict[str, str] = field(default_factory=dict)  # module -> why its star imports stay (API re-exports)
    # the API modules (public_api.PublicApi.modules, package __init__s under package_api = true): their literal
    # __all__ is a promise; None: every module's is (callers that do not say)
    api_modules: frozenset[str] | None = None
    # module a string of kept code names -> why an import binding that module object stays (the string may find
    # it only among the loaded modules: sys.modules["pkg.shapes"])
    string_named: dict[str, str] = field(default_factory=dict)
    unneeded_effects: tuple[str, ...] = ()  # [symbols] unneeded_effects: modules whose effects the fork may lose
    # modules whose docstrings' doctests use names from the start; None: every module's. Else a module's doctests
    # count once kept code loads it (a statement of it stays, an import of it stays): the symbol stage passes the
    # modules an earlier attempt pruned without loading them but the plan kept anyway
    loaded_doctests: frozenset[str] | None = None


class PrunedCollector(ImportTargets):
    """The statements (and import aliases, and ``__all__`` entries) the drained worklist did not reach."""

    i: SymbolInputs
    result: SymbolReach
    done: set[tuple[str, int]]
    kept_alias: set[tuple[str, int, int]]
    queue: deque
    by_target: dict[str, list[tuple[str, TopStatement, ImportAlias]]]

    def _api_free(self, module: str) -> bool:
        raise NotImplementedError

    def _all_free(self, module: str) -> bool:
        raise NotImplementedError

    def collect(self) -> None:
        for module, summary in sorted(self.s.items()):
            dropped = self.i.dropped.get(module, frozenset())
            if module in self.result.keep_all and not dropped:
                continue
            info = self.mm.modules[module]
            assert info.path is not None  # summaries are of files
            for st in summary.statements:
                if st.keep is not None:
                    continue
                if module in self.result.keep_all and not set(st.binds) & dropped:
                    continue  # a module that keeps everything but the names [symbols] drop names
                if st.kind == "import":
                    gone = tuple(a.position for a in st.aliases
                                 if (module, st.index, a.position) not in self.kept_alias)
                    if gone:
                        names = tuple(a.bound for a in st.aliases if a.position in gone)
                        what = ", ".join(_import_text(a) for a in st.aliases if a.position in gone)
                        self.result.pruned.append(PrunedSymbol(module, info.path, names, "import", st.line, st.end,
                                                               st.index, gone,
                                                               f"no kept code uses the name it binds ({what})"))
                elif (module, st.index) not in self.done:
                    self.result.pruned.append(PrunedSymbol(module, info.path, st.binds, st.kind, st.line, st.end,
                                                           st.index, reason=_DROPPED if module in self.result.keep_all
                                                           else PrunedSymbol.reason))
            if summary.all_names and self._all_free(module):
                self.collect_all_entries(module, summary, info.path)

    def collect_all_entries(self, module: str, summary: SymbolSummary, path: str) -> None:
        """The entries of a package's literal ``__all__`` naming what this round prunes (every statement that
        binds the name goes) leave the list, so ``from pkg import *`` does not ask for a name that is gone."""
        gone_statements = {p.index for p in self.result.pruned if p.module == module and p.kind != "import"}
        gone_aliases = {(p.index, a) for p in self.result.pruned if p.module == module and p.kind == "import"
                        for a in p.aliases}
        stores = [st for st in summary.statements if "__all__" in st.binds]
        if len(stores) != 1 or stores[0].kind != "assign":  # one `__all__ = [...]` (no +=): positions are known
            return
        gone = []
        for position, name in enumerate(summary.all_names or ()):
            binders = self.binders[module].get(name, ())
            if not binders and not self._star_bound(module, name, frozenset({module})) \
                    and "__getattr__" not in self.binders[module] and f"{module}.{name}" not in self.s:
                gone.append((position, name))  # only star imports bound it, and none does in the fork (not a
                # lazy name a module __getattr__ gives, nor a submodule `from pkg import *` imports)
            elif binders and all(i in gone_statements or (summary.statements[i].kind == "import" and all(
                    (i, a.position) in gone_aliases for a in summary.statements[i].aliases if a.bound == name))
                    for i in binders):
                gone.append((position, name))
        if gone:
            st = stores[0]
            self.result.pruned.append(PrunedSymbol(module, path, tuple(n for _, n in gone), "all", st.line, st.end,
                                                   st.index, tuple(p for p, _ in gone),
                                                   "the names it lists were pruned"))


    def _star_bound(self, module: str, name: str, seen: frozenset[str]) -> bool:
        """Whether a star import ``module`` keeps may still bind ``name`` in the fork (httpx's ``__init__``
        re-exports ``get`` from ``_api`` with ``from ._api import *`` and lists it in ``__all__``): its source binds
        the name with a statement that stays, or star-imports it in turn; a source not analysed, one that keeps
        everything, or a star import kept for another reason may bind it (unknown: bound)."""
        summary = self.s.get(module)
        if summary is None or module in self.result.keep_all:
            return True
        for st in summary.statements:
            for alias in st.aliases:
                if alias.name != "*" or ((module, st.index, alias.position) not in self.kept_alias
                                         and st.keep is None and (module, st.index) not in self.done):
                    continue
                source = self.absolute(module, alias)
                if not source or source not in self.s or source in self.result.keep_all:
                    return True
                if source in seen:
                    continue
                listed = self.s[source].all_names
                if (listed is not None and name not in listed) or (listed is None and name.startswith("_")):
                    continue
                if self._binds_after(source, name) or self._star_bound(source, name, seen | {source}):
                    return True
        return False

    def _binds_after(self, module: str, name: str) -> bool:
        """Whether a statement of ``module`` binding ``name`` stays."""
        summary = self.s[module]
        for index in self.binders[module].get(name, ()):
            st = summary.statements[index]
            if st.keep is not None or (module, index) in self.done:
                return True
            if st.kind == "import" and any(a.bound == name and (module, index, a.position) in self.kept_alias
                                           for a in st.aliases):
                return True
        return False


_DROPPED = "named by [symbols] drop, and no kept code references it"


def _import_text(alias: ImportAlias) -> str:
    if alias.name is None:
        renamed = alias.obj == alias.module and alias.bound != alias.module
        return f"import {alias.module}" + (f" as {alias.bound}" if renamed else "")
    source = "." * alias.level + alias.module
    return f"from {source} import {alias.name}" + (f" as {alias.bound}" if alias.bound != alias.name else "")
