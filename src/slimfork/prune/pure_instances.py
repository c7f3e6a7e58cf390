"""Module-level instances of classes whose call only stores its arguments, followed across modules: textdistance's
``mra = MRA()``, where ``MRA`` derives from ``BaseSimilarity`` of another module. ``index.pure_classes`` decides
within a module and records the imported bases a class waits on; here those are looked up in their own modules
(through re-exports), so such an assignment may be pruned and loading its module has no effect worth keeping.
A base the tree does not define, a name bound twice or a cycle keeps the statement as it was."""

from __future__ import annotations

import dataclasses

from slimfork.graph.modules import ModuleMap
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.symbol_model import SymbolSummary, TopStatement

EFFECT = "its value runs code at import (a call)"


def apply_pure_instances(summaries: dict[str, SymbolSummary], mm: ModuleMap) -> None:
    """Clear the effect of assignments that only instantiate such classes. The summaries are the index's, shared
    by every run of the process: a changed one is a copy, put in ``summaries``."""
    classes = _Classes(summaries, mm)
    for module, summary in list(summaries.items()):
        statements = [_pure(st, module, classes) for st in summary.statements]
        if any(new is not old for new, old in zip(statements, summary.statements)):
            summaries[module] = dataclasses.replace(summary, statements=statements)


def _pure(st: TopStatement, module: str, classes: _Classes) -> TopStatement:
    if st.effect != EFFECT or st.keep != EFFECT or not st.calls or not st.binds \
            or any(n.startswith("__") and n.endswith("__") for n in st.binds):
        return st
    if all(classes.instantiates_pure(module, call, st.index) for call in st.calls):
        return dataclasses.replace(st, keep=None, effect=None, kind="assign", calls=())
    return st


class _Classes:
    def __init__(self, summaries: dict[str, SymbolSummary], mm: ModuleMap):
        self.summaries, self.mm = summaries, mm
        self.known: dict[tuple[str, str], bool] = {}
        self.binders: dict[str, dict[str, list[int]]] = {}

    def instantiates_pure(self, module: str, call: str, index: int) -> bool:
        """Is ``call()`` (as written in ``module``'s statement ``index``) such a class's instantiation?"""
        summary = self.summaries.get(module)
        if summary is None or "." in call:
            return False
        own = summary.pure_classes.get(call)
        if own is not None:
            return own.index < index and self.pure(module, call)
        target = self._import_of(module, call, before=index)
        return target is not None and self.pure(*target)

    def pure(self, module: str, name: str, depth: int = 0, base: bool = False) -> bool:
        """``base``: as a base of a plain class (a class with a lookup hook is none)."""
        key = (module, name)
        if key not in self.known:
            self.known[key] = False  # a cycle is no proof
            self.known[key] = depth < 8 and self._pure(module, name, depth)
        return self.known[key] and not (base and self._leaf(module, name, depth))

    def _pure(self, module: str, name: str, depth: int) -> bool:
        summary = self.summaries.get(module)
        if summary is None:
            return False
        own = summary.pure_classes.get(name)
        if own is not None:
            return all((target := self._import_of(module, base)) is not None
                       and self.pure(*target, depth + 1, base=True) for base in own.needs)
        target = self._import_of(module, name)  # a re-export: `from .base import Base`
        return target is not None and self.pure(*target, depth + 1)

    def _leaf(self, module: str, name: str, depth: int) -> bool:
        summary = self.summaries.get(module)
        own = summary.pure_classes.get(name) if summary is not None else None
        if own is not None:
            return own.leaf
        target = self._import_of(module, name) if summary is not None and depth < 8 else None
        return target is None or self._leaf(*target, depth + 1)

    def _import_of(self, module: str, bound: str, before: int | None = None) -> tuple[str, str] | None:
        """(module, name) a top-level ``from ... import`` binding ``bound`` once in ``module`` imports."""
        summary = self.summaries[module]
        if module not in self.binders:
            self.binders[module] = summary.binders()
        binders = self.binders[module].get(bound, [])
        if len(binders) != 1 or (before is not None and binders[0] >= before):
            return None
        st = summary.statements[binders[0]]
        alias = next((a for a in st.aliases if a.bound == bound), None) if st.kind == "import" else None
        if alias is None or alias.name is None:
            return None
        info = self.mm.modules.get(module)
        source = absolute_module(package_of(module, info is not None and info.is_package), alias.level, alias.module)
        return (source, alias.name) if source else None
