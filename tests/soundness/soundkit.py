"""Shrink a fixture project, then run its probe script on the original and on the fork: the outputs must match."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from slimfork.api import shrink


def probe(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "probe.py"], cwd=project, capture_output=True, text=True,
                          env={"PYTHONPATH": str(project / "src"), "PATH": "/usr/bin:/bin"})


def shrink_and_compare(project: Path, out: Path):
    """(shrink result, original probe, fork probe)."""
    result = shrink(project / "slimfork.toml", out, jobs=1)
    return result, probe(project), probe(out)


def uncertain_not_kept(analysis) -> list[str]:
    """Every candidate an uncertain place lists must be kept: the places (and candidates) where it is not."""
    gone = {r.module for r in analysis.plan.removals if r.module}
    return [f"{u.path}:{u.line} {m}" for u in analysis.plan.uncertain for m in u.kept
            if m in gone or m not in analysis.graph.reached]
