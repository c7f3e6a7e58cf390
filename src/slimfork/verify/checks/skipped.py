"""A check the spec asks for that cannot run on this machine (a tool it ``requires`` is missing).

It is never run and never counts as passed: its baseline is unusable and marked skipped, so the report's checks
table says SKIPPED with the reason, and no batch lists it among the checks it passed.
"""

from __future__ import annotations

from pathlib import Path

from slimfork.verify.model import Baseline, CheckResult


class SkippedCheck:
    cost = 0

    def __init__(self, name: str, reason: str):
        self.name, self.reason = name, reason

    def baseline(self, original: Path) -> Baseline:
        return Baseline(self.name, False, note=f"SKIPPED: {self.reason}", skipped=True)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:  # never called: the baseline is unusable
        return CheckResult(self.name, False, (f"{self.name} was skipped: {self.reason}",))
