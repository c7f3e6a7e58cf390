"""What the planning stages produce together (``Stages``): the plan after every stage, the folded and rewritten
files, each stage's report and its own results. The stages run in the order ``slimfork.pipeline.stages`` gives;
each adds its part here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from slimfork.decisions import Batch, Plan, Removal
from slimfork.errors import Stale

if TYPE_CHECKING:  # the results of the stages above the plan, for their types only
    from slimfork.graph import ModuleGraph
    from slimfork.kernels.includes import KernelPlan
    from slimfork.kernels.unifdef import KernelFoldReport
    from slimfork.prune.stage import SymbolStage
    from slimfork.rewrite.report import FoldReport
    from slimfork.testsuite.back import TestsPlan


@dataclass
class Stages:
    plan: Plan  # the plan after folding (what the batches remove)
    graph: ModuleGraph  # the graph of the folded tree
    rewritten: dict[str, bytes] = field(default_factory=dict)  # rel path -> new content (folded files)
    rewrite_reasons: dict[str, str] = field(default_factory=dict)
    fold_report: FoldReport | None = None
    kernel_fold: KernelFoldReport | None = None
    kernel_plan: KernelPlan | None = None
    reports: list[tuple[str, str]] = field(default_factory=list)  # (title, markdown) for report.md
    data: dict[str, Any] = field(default_factory=dict)  # extra top-level fields of report.json
    extra_batches: list[Batch] = field(default_factory=list)  # batches of later stages (tests), applied first
    late_batches: list[Batch] = field(default_factory=list)  # after the removals (test data of removed entries)
    symbols: SymbolStage | None = None  # pruned symbols and dict registries
    test_removals: list[Removal] = field(default_factory=list)  # the tests stage's files and functions
    tests: TestsPlan | None = None  # what the tests stage decided from, to decide again after the checks
    vacated: frozenset[str] = frozenset()  # modules a registry cut left with nothing but imports
    stale: list[Stale] = field(default_factory=list)  # registry keys the stages found no entry for
    cut_keys: list[tuple[str, str, str]] = field(default_factory=list)  # (key, its registry, the variable code
    # looks keys up in or "") for each key the mapping cuts removed

    def rewrite(self, path: str, content: bytes, reason: str) -> None:
        self.rewritten[path] = content
        self.rewrite_reasons[path] = reason

    def remove(self, removals: list[Removal]) -> dict[str, Removal]:
        """Move files a later stage removes (kernels, native sources) out of the kept list and the rewrites."""
        gone = {r.path: r for r in removals}
        self.plan.kept = [k for k in self.plan.kept if k.path not in gone]
        self.plan.removals += list(gone.values())
        for rel in gone:
            self.rewritten.pop(rel, None)
        return gone
