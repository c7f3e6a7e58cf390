"""What the batch engine reports (``BatchResult``, ``ApplyReport``); what it applies (``Edit``, ``Batch``) is in
``slimfork.decisions``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from slimfork.apply.report import render_markdown


@dataclass
class CheckRun:
    """One check's verdict on the tree a batch committed (or on the full batch, when it failed)."""

    check: str
    ok: bool
    seconds: float
    cached: bool = False
    failures: list[str] = field(default_factory=list)
    detail: str = ""  # what the check measured (the pytest check: the flaky tests it did not count)


@dataclass
class RestoredEdit:
    """An edit the batch wanted but a check needed undone; ``check`` and ``failures`` say why."""

    path: str
    kind: str
    action: str
    reason: str  # why the plan wanted it
    check: str  # the check that failed without the restoration
    failures: list[str] = field(default_factory=list)


@dataclass
class BatchResult:
    name: str
    message: str
    removed: list[dict[str, str]]  # {"path", "kind", "action", "reason"} of the edits kept in the fork
    restored: list[RestoredEdit]
    checks: list[CheckRun]  # the ladder on the committed tree
    first_failure: CheckRun | None  # the ladder's first failure on the whole batch, if any
    candidates: int  # trees checked while bisecting
    seconds: float
    commit: str = ""
    digest: str = ""
    resumed: bool = False  # taken from the journal of an earlier, interrupted run

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BatchResult:
        data = dict(data)
        data["restored"] = [RestoredEdit(**r) for r in data["restored"]]
        data["checks"] = [CheckRun(**c) for c in data["checks"]]
        data["first_failure"] = CheckRun(**data["first_failure"]) if data.get("first_failure") else None
        return cls(**data)


@dataclass
class BaselineRun:
    check: str
    usable: bool
    note: str
    seconds: float
    cached: bool = False
    skipped: bool = False  # the check did not run here (a tool it requires is missing)


@dataclass
class ApplyReport:
    original: str
    out: str
    baselines: list[BaselineRun] = field(default_factory=list)
    batches: list[BatchResult] = field(default_factory=list)
    base_commit: str = ""
    head: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # things the copy could not carry (nested .git, sockets)

    @property
    def restored(self) -> list[tuple[str, RestoredEdit]]:
        return [(b.name, r) for b in self.batches for r in b.restored]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_markdown(self) -> str:
        return render_markdown(self)
