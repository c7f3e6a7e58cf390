"""Findings: one thing the audit reports, with a reason a user can read and a confidence (vulture style)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# The kinds of finding, each produced by one module of this package.
KINDS = {
    "unused-file": "files and folders nothing reaches from the roots",
    "duplicate": "near-duplicate modules and scripts",
    "unused-symbol": "private top-level functions, classes and constants no file of the tree names",
    "unused-kernel": "GPU kernels with no launch site in reached code",
    "orphaned-test": "tests of modules or names that do not exist, or of unreached code only",
    "eager-import": "package __init__ files that import much at import time",
    "same-name": "modules with one name in several folders (consolidation candidates)",
}


@dataclass(frozen=True)
class Finding:
    """``subject`` identifies the finding across runs (no line numbers), so a baseline survives edits."""

    kind: str
    subject: str
    message: str  # one line: what was found
    reason: str  # why the audit believes it
    confidence: int  # 0-100: how sure the audit is that acting on it is safe
    path: str | None = None  # relative posix path of the main location
    line: int | None = None
    details: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def fingerprint(self) -> str:
        return f"{self.kind}:{self.subject}"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["fingerprint"] = self.fingerprint
        return data


@dataclass
class AuditResult:
    root: str
    findings: list[Finding] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)  # counts and timings per kind
    new: set[str] | None = None  # fingerprints not in the baseline (None: no baseline given)
    notes: dict[str, str] = field(default_factory=dict)  # kind -> the reason its findings share (printed once)

    def sorted(self) -> list[Finding]:
        order = list(KINDS)
        return sorted(self.findings, key=lambda f: (order.index(f.kind), -f.confidence, f.path or "", f.subject))

    def is_new(self, finding: Finding) -> bool:
        return self.new is None or finding.fingerprint in self.new
