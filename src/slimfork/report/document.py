"""The shrink report as data (written as report.json; its fields are documented in docs/report.md)."""

from __future__ import annotations

from dataclasses import asdict

from slimfork import __version__
from slimfork.report.listing import planned_removals
from slimfork.report.stats import TreeStats

SCHEMA_VERSION = 1


def report_data(analysis, before: TreeStats, after: TreeStats, *, out: str | None, extra: dict | None = None) -> dict:
    spec, tree, plan, graph = analysis.spec, analysis.tree, analysis.plan, analysis.graph
    return {
        "schema": SCHEMA_VERSION,
        "tool": {"name": "slimfork", "version": __version__},
        "spec": str(spec.path),
        "source": {"spec": spec.source, "path": str(tree.root), "kind": tree.kind,
                   "distribution": f"{tree.dist.name}=={tree.dist.version}" if tree.dist else None,
                   "packages": tree.packages},
        "out": out,
        "roots": [{"module": r.module, "reason": r.reason} for r in graph.roots],
        "before": before.to_dict(),
        "after": after.to_dict(),
        "reduction": {"files": _pct(before.total.files, after.total.files),
                      "lines": _pct(before.total.lines, after.total.lines),
                      "python_lines": _pct(_py(before), _py(after))},
        "removed": [asdict(r) for r in planned_removals(analysis)],  # the tests stage's too, as plan lists them
        "kept": [k.to_dict() for k in plan.kept],
        "uncertain": [asdict(u) for u in plan.uncertain],
        "missing_in_original": [asdict(m) for m in graph.missing if m.module in graph.reached],
        "warnings": list(plan.warnings),
        "stale": [e.to_dict() for e in analysis.stale],  # entries matching nothing, allowed (--allow-stale)
        "timings": {k: round(v, 3) for k, v in analysis.timings.items()},
        **(extra or {}),
    }


def _py(stats: TreeStats) -> int:
    counts = stats.by_language.get("Python")
    return counts.lines if counts else 0


def _pct(before: int, after: int) -> float:
    return round(100.0 * (before - after) / before, 1) if before else 0.0
