"""Where the names of the kept modules lead: the module or symbol an import binds, the module it makes Python load,
and the class a base-class chain names, in the tree or outside it (for the symbol worklist, ``graph.symbols``)."""

from __future__ import annotations

import builtins

from slimfork.graph.modules import ModuleMap
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.symbols import ImportAlias, SymbolSummary


class ImportTargets:
    def __init__(self, mm: ModuleMap, summaries: dict[str, SymbolSummary]):
        self.mm = mm
        self.s = summaries
        self.binders = {m: s.binders() for m, s in summaries.items()}

    # ---- import targets ------------------------------------------------------------------------------------
    def absolute(self, module: str, alias: ImportAlias) -> str | None:
        info = self.mm.modules.get(module)
        return absolute_module(package_of(module, info is not None and info.is_package), alias.level, alias.module)

    def target(self, module: str, alias: ImportAlias) -> tuple[str, str | None] | None:
        """(module, None) when the alias binds an internal module; (module, name) for a symbol; None when
        external."""
        base = self.absolute(module, alias)
        if not base or not self.mm.is_internal(base):
            return None
        if alias.name is None:
            return (alias.obj, None) if alias.obj in self.mm.modules else None
        if alias.name == "*":
            return None
        sub = f"{base}.{alias.name}"
        if sub in self.mm.modules:
            return sub, None
        return base, alias.name

    def loaded(self, module: str, alias: ImportAlias) -> str | None:
        """The internal module an alias makes Python load (for ``from m import x``: m.x if a module, else m)."""
        base = self.absolute(module, alias)
        if not base or not self.mm.is_internal(base):
            return None
        if alias.name not in (None, "*") and f"{base}.{alias.name}" in self.mm.modules:
            return f"{base}.{alias.name}"
        return base if base in self.mm.modules else None

    def resolve_class(self, module: str, chain: tuple[str, ...], depth: int = 0) -> tuple[str, str] | None:
        if depth > 10 or module not in self.s:
            return None
        head = chain[0]
        for index in self.binders[module].get(head, ()):
            st = self.s[module].statements[index]
            if st.kind == "class" and len(chain) == 1:
                return module, head
            for alias in st.aliases:
                if alias.bound == head and (target := self.target(module, alias)) is not None:
                    current, symbol = target
                    if symbol is not None:
                        return self.resolve_class(current, (symbol,) + chain[1:], depth + 1)
                    rest = chain[1:]
                    while len(rest) > 1 and f"{current}.{rest[0]}" in self.mm.modules:
                        current, rest = f"{current}.{rest[0]}", rest[1:]
                    return self.resolve_class(current, rest, depth + 1) if rest else None
        return None

    def external_bases(self, module: str, index: int, depth: int = 0) -> frozenset[str] | None:
        """Qualified names of the classes outside the tree that the class at ``index`` derives from, directly or
        through classes of the tree (``torch.nn.Module``, ``builtins.object`` for a bare class); None when some
        base is not a name this analysis resolves (a call, a star-imported name, too deep)."""
        st = self.s[module].statements[index]
        if depth > 10 or st.kind != "class" or not st.bases_known:
            return None
        out: set[str] = set() if st.bases else {"builtins.object"}
        for chain in st.bases:
            found = self.resolve_base(module, chain)
            if found is None:
                return None
            if isinstance(found, str):
                out.add(found)
                continue
            base_module, name = found
            base_index = next((i for i in self.binders.get(base_module, {}).get(name, ())
                               if self.s[base_module].statements[i].kind == "class"), None)
            inherited = None if base_index is None else self.external_bases(base_module, base_index, depth + 1)
            if inherited is None:
                return None
            out |= inherited
        return frozenset(out)

    def tree_bases(self, module: str, index: int, depth: int = 0) -> frozenset[tuple[str, str]]:
        """The classes of the tree the class at ``index`` derives from, directly or not, as far as they resolve."""
        st = self.s[module].statements[index]
        out: set[tuple[str, str]] = set()
        for chain in st.bases if depth <= 10 and st.kind == "class" else ():
            found = self.resolve_class(module, chain)
            if found is None or found in out:
                continue
            out.add(found)
            base_index = next((i for i in self.binders.get(found[0], {}).get(found[1], ())
                               if self.s[found[0]].statements[i].kind == "class"), None)
            if base_index is not None:
                out |= self.tree_bases(found[0], base_index, depth + 1)
        return frozenset(out)

    def resolve_base(self, module: str, chain: tuple[str, ...], depth: int = 0) -> tuple[str, str] | str | None:
        """A base class: (module, name) in the tree, its qualified name outside it, or None. A name bound once to
        another name (``dict_ = dict``, then ``RemapDict = dict_``, imported elsewhere) is the class it names."""
        if depth > 10 or module not in self.binders:
            return None
        binders = self.binders[module].get(chain[0])
        if not binders:
            return f"builtins.{chain[0]}" if len(chain) == 1 and hasattr(builtins, chain[0]) else None
        internal = self.resolve_class(module, chain)
        if internal is not None:
            return internal
        for index in binders:
            st = self.s[module].statements[index]
            if len(binders) == 1 and st.kind == "assign" and st.value_chain and st.value_chain[0] != chain[0]:
                return self.resolve_base(module, st.value_chain + chain[1:], depth + 1)
            for alias in st.aliases:
                if alias.bound == chain[0] and (target := self.target(module, alias)) is None:
                    base = self.absolute(module, alias)
                    if not base or self.mm.is_internal(base) or alias.name == "*":
                        return None
                    head = alias.obj if alias.name is None else f"{base}.{alias.name}"
                    return ".".join((head, *chain[1:]))
                if alias.bound == chain[0] and len(binders) == 1 and target is not None and target[1] is not None:
                    return self.resolve_base(target[0], (target[1], *chain[1:]), depth + 1)  # an imported alias
        return None
