"""Run checks as a ladder: baselines once on the original, then cheapest first on each candidate fork."""

from __future__ import annotations

from pathlib import Path

from slimfork.verify.model import Baseline, Check, CheckReport, CheckResult


def run_baselines(checks: list[Check], original: Path) -> list[Baseline]:
    """Each check's baseline on the untouched original; unusable ones are reported and then skipped."""
    return [check.baseline(Path(original)) for check in checks]


def run_ladder(checks: list[Check], baselines: list[Baseline], fork: Path, stop_at_first: bool = True) -> CheckReport:
    """Run the usable checks on ``fork`` in order; with ``stop_at_first`` the ladder stops at the first failure."""
    report = CheckReport(baselines=list(baselines))
    by_name = {b.check: b for b in baselines}
    for check in checks:
        baseline = by_name.get(check.name)
        if baseline is None or not baseline.usable:
            continue
        result: CheckResult = check.run(Path(fork), baseline)
        report.results.append(result)
        if not result.ok and stop_at_first:
            break
    return report
