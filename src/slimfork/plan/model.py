"""Removals and the plan: what the fork leaves out, each with a reason a user can read."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Removal:
    """One thing the fork leaves out (or changes).

    ``kind``: "dropped" (a path the spec drops), "unreachable" (a module nothing kept imports),
    "folded" (a file rewritten by fact folding), "symbol" (a pruned definition), "kernel" (a kernel source
    nothing kept reaches), "registry" (a registry entry the spec filters out), "empty-dir".
    ``path`` is relative to the source root (posix). ``group`` names the batch it belongs to.
    """

    kind: str
    path: str
    reason: str
    module: str | None = None
    symbol: str | None = None
    lines: int = 0
    group: str = ""


@dataclass(frozen=True)
class Kept:
    path: str
    module: str | None
    reason: str  # "root", "imported by X (file:line)", "registry ...", "keep glob ...", "non-Python file"


@dataclass(frozen=True)
class Uncertain:
    """A place static analysis cannot decide; everything it might reach is kept (docs/soundness.md).

    ``kept``: the modules kept for it (every candidate it could name); ``declare``: what the user can write in the
    spec to decide it instead."""

    path: str
    line: int
    what: str
    why: str
    kept: tuple[str, ...] = ()
    declare: str = ""


@dataclass
class Plan:
    removals: list[Removal] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)
    uncertain: list[Uncertain] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def removed_paths(self) -> set[str]:
        return {r.path for r in self.removals if r.kind in ("dropped", "unreachable", "kernel", "empty-dir")}
