"""The contract between checks (verify/) and the batch engine (apply/).

A check is run once on the untouched original (its *baseline*) and then on each candidate fork; it is
differential: only failures that the original did not have count. A check that cannot run on the original
(``Baseline.usable`` is False) is reported and not used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass
class Baseline:
    check: str
    usable: bool
    data: Any = None  # whatever the check needs to compare against (e.g. the original's failures)
    note: str = ""  # why it is not usable, or what it measured
    seconds: float = 0.0
    skipped: bool = False  # not run at all (a tool it requires is missing): SKIPPED in the report


@dataclass(frozen=True)
class CheckResult:
    check: str
    ok: bool
    failures: tuple[str, ...] = ()  # new failures, each readable on its own ("pkg/x.py:12: cannot import y")
    paths: tuple[str, ...] = ()  # files (relative posix) the failures point at, a hint for bisection
    seconds: float = 0.0
    detail: str = ""


class Check(Protocol):
    name: str
    cost: int  # relative cost; the ladder runs cheap checks first and stops at the first failure

    def baseline(self, original: Path) -> Baseline: ...

    def run(self, fork: Path, baseline: Baseline) -> CheckResult: ...


@dataclass
class CheckReport:
    baselines: list[Baseline] = field(default_factory=list)
    results: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)
