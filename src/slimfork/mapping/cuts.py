"""The registry kinds that rewrite source (the table in mapping/kinds.py): each cuts the entries the spec does not
keep in the planning stages' scratch copy, before the plan is made again."""

from __future__ import annotations

from pathlib import Path

from slimfork.mapping.kinds import KINDS
from slimfork.errors import Stale
from slimfork.plan.stages import Stages
from slimfork.spec.stale import stale_keys


def cut_registries(analysis, stages: Stages, scratch: Path, held: frozenset[str] = frozenset()) -> tuple[list, list]:
    """Cut every rewriting registry in ``scratch``, record the rewrites and reports in ``stages``. Returns the
    cuts whose removed keys the tests stage reads (kinds with ``removes_keys``), and the other cuts. ``held``:
    the definitions (``path::name``) that stay with their registrations, since kept code names them."""
    done = [(kind, kind.cut(analysis, scratch, held)) for kind in KINDS]
    by_path = analysis.graph.mm.by_path  # modules a cut left with nothing but imports (subclass registries), or
    # that only removed entries named (mapping registries): a computed import name keeps neither
    stages.vacated = frozenset(by_path[c.path] for _, cuts in done for c in cuts
                               if getattr(c, "vacated", False) and c.path in by_path) \
        | frozenset(m for _, cuts in done for c in cuts if hasattr(c, "unnamed_modules") for m in c.unnamed_modules())
    stages.stale += _stale_keys(analysis.spec.raw.get("registries", []), done)
    keyed, other = [], []
    for kind, cuts in done:
        for cut in cuts:
            if cut.new_source is not None:
                stages.rewrite(cut.path, cut.new_source, kind.reason(cut))
                stages.cut_keys += [(str(key), kind.where(cut.registry), kind.lookup(cut.registry))
                                    for key in kind.removed_keys(cut)]
        if cuts:
            stages.reports.append((kind.title, kind.report(cuts)))
            stages.data[kind.key] = kind.data(cuts)
        if kind.removes_keys:  # a cut that removed nothing (no key, no name-table entry) names no removed key
            keyed += [c for c in cuts if c.removed or getattr(c, "tables", None)]
        else:
            other += cuts
    return keyed, other


def _stale_keys(raw: list, done: list) -> list[Stale]:
    """Each keep pattern of a rewriting registry that matches none of the keys its cuts saw in the kept code (a
    registry whose cut failed, or that has a key it cannot read, claims nothing; pipeline/stale.py lets off a key
    the removed code names)."""
    out: list[Stale] = []
    for kind, cuts in done:
        by_key: dict[str, list] = {}
        for cut in cuts:
            by_key.setdefault(cut.registry.key, []).append(cut)
        for i, reg in enumerate(raw):
            key = f"registries[{i}]"
            if reg.get("kind", "scan") not in kind.kinds or any(getattr(c, "failure", None) or getattr(c, "unknown", 0)
                                                                for c in by_key.get(key, [])):
                continue  # a key it cannot read may be any pattern's
            group = by_key.get(key, [])
            where = kind.where(group[0].registry) if group else reg["package"]
            out += stale_keys(key, reg["keep"], [k for c in group for k in kind.keys(c)], where)
    return out
