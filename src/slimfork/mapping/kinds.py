"""The handlers of the registry kinds that rewrite source before the plan is made again (``stage = "mapping"`` in
the registry-kind table, spec/kinds.py; tests/mapping/test_kinds.py holds the two together), one line each: the
spec kinds it handles, how it cuts the entries the spec does not keep (``cut(analysis, scratch, held) -> cuts``, each
cut with ``path``, ``new_source`` and ``removed``), the reason its rewrites carry, and its report section and
report.json field. A new kind is a module of its own (its spec parser, its cut, its report), its line in
spec/kinds.py and one line here; slimfork.mapping.cuts runs them in this order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from slimfork.mapping.decorated import cut_decorator_registries, decorated_data, decorated_report
from slimfork.mapping.ifchain import cut_if_chain_registries, if_chain_data, if_chain_report
from slimfork.mapping.imports import cut_imports_registries, imports_data, imports_report
from slimfork.mapping.stage import cut_mappings, mapping_data, mapping_report
from slimfork.mapping.subclasses import cut_subclass_registries, subclasses_data, subclasses_report


@dataclass(frozen=True)
class RewritingKind:
    kinds: tuple[str, ...]  # the spec's names of the kinds it cuts (``[[registries]] kind``)
    title: str  # its section of report.md
    key: str  # its field of report.json
    cut: Callable[[Any, Any, frozenset[str]], list]  # (analysis, scratch folder, held) -> cuts, applied to the
    # scratch copy; held: ``path::name`` of definitions a later stage found kept code still names (decorator kind)
    reason: Callable[[Any], str]  # a cut -> why its file is rewritten
    report: Callable[[list], str]
    data: Callable[[list], Any]
    removes_keys: bool = False  # the tests stage reads its removed keys (tests of removed entries leave)
    keys: Callable[[Any], list[str]] = lambda cut: list(cut.kept) + list(cut.removed)  # every key a cut saw
    where: Callable[[Any], str] = lambda registry: str(registry)  # the registry, in a stale key's message
    removed_keys: Callable[[Any], list[str]] = lambda cut: [k for k in cut.removed if k not in cut.kept]
    lookup: Callable[[Any], str] = lambda registry: ""  # the variable code looks its keys up in, where known


def _holding_nothing(cut: Callable[[Any, Any], list]) -> Callable[[Any, Any, frozenset[str]], list]:
    return lambda analysis, scratch, held: cut(analysis, scratch)


def _decorated_reason(cut) -> str:
    at = "@" if cut.registry.kind == "decorator" else ""
    return (f"registry {at}{cut.registry.decorator}: {len(cut.removed)} registrations of keys the spec does not "
            "keep removed")


KINDS: tuple[RewritingKind, ...] = (
    RewritingKind(("mapping",), "Mapping registries", "mapping_registries", _holding_nothing(cut_mappings),
                  lambda cut: f"registry {cut.registry.module}.{cut.registry.variable}: {len(cut.removed)} entries "
                              "the spec does not keep removed", mapping_report, mapping_data, removes_keys=True,
                  keys=lambda cut: [x for e in cut.kept + cut.removed for x in (e.key, e.module) if x],
                  where=lambda reg: f"{reg.module}.{reg.variable}",
                  removed_keys=lambda cut: sorted({e.key for e in cut.removed} - {e.key for e in cut.kept}),
                  lookup=lambda reg: reg.variable),
    RewritingKind(("decorator", "call"), "Decorator registries", "decorator_registries", cut_decorator_registries,
                  _decorated_reason, decorated_report, decorated_data,
                  keys=lambda cut: cut.kept + [key for key, _ in cut.removed],
                  where=lambda reg: f"the registrations through {reg.decorator}",
                  removed_keys=lambda cut: sorted({key for key, _ in cut.removed} - set(cut.kept))),
    RewritingKind(("if-chain",), "If-chain registries", "if_chain_registries",
                  _holding_nothing(cut_if_chain_registries),
                  lambda cut: f"registry {cut.registry.function} (if-chain on {cut.registry.variable}): the arms of "
                              f"{len(cut.removed)} keys the spec does not keep removed", if_chain_report,
                  if_chain_data, where=lambda reg: f"the arms of {reg.function} on {reg.variable}"),
    RewritingKind(("imports",), "Import registries", "imports_registries",
                  _holding_nothing(cut_imports_registries),
                  lambda cut: f"registry {cut.registry.module} (imports of its submodules): the imports of "
                              f"{len(cut.removed)} submodules the spec does not keep removed", imports_report,
                  imports_data, where=lambda reg: f"the submodule imports of {reg.module}"),
    RewritingKind(("subclasses",), "Subclass registries", "subclass_registries",
                  _holding_nothing(cut_subclass_registries),
                  lambda cut: f"registry of subclasses of {cut.registry.base}: {len(cut.removed)} subclasses the spec "
                              "does not keep removed", subclasses_report, subclasses_data, removes_keys=True,
                  keys=lambda cut: cut.keys, where=lambda reg: f"the subclasses of {reg.base}",
                  removed_keys=lambda cut: sorted({k for _, keys in cut.removed for k in keys.split(", ") if k}
                                                  - set(cut.kept))),
)
