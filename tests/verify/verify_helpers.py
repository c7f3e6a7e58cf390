"""Copy a fixture project twice (original and fork), break the fork with one removal, and run checks on it as a
plain ladder (the pipeline's own, with caching and bisection, is ``slimfork.apply.ladder.Ladder``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from slimfork.verify.model import Baseline, Check, CheckReport, CheckResult
from slimfork.verify.tree import TreeLayout

FIXTURES = Path(__file__).parent / "fixtures"
LAYOUT = TreeLayout("", ("pkg",))


def copy_project(tmp_path: Path, name: str = "proj") -> tuple[Path, Path]:
    original, fork = tmp_path / "original", tmp_path / "fork"
    shutil.copytree(FIXTURES / name, original)
    shutil.copytree(FIXTURES / name, fork)
    return original, fork


def edit(tree: Path, changes: dict[str, str | None]) -> None:
    """Write (or, for None, delete) files of ``tree``."""
    for rel, text in changes.items():
        if text is None:
            (tree / rel).unlink()
        else:
            (tree / rel).write_text(text)


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
