"""The decisions every stage makes and every report reads: what the fork leaves out (``Removal``), keeps
(``Kept``) and cannot decide (``Uncertain``), each with a reason a user can read; the ``Plan`` that holds them;
and the ``Edit``s and ``Batch``es the engine applies. A leaf: it imports nothing of slimfork."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum


class RemovalKind(StrEnum):
    """Why something leaves the fork, by kind (a ``str``: it compares and prints as its value)."""

    DROPPED = "dropped"  # a path the spec drops
    UNREACHABLE = "unreachable"  # a module nothing kept imports
    KERNEL = "kernel"  # a kernel or native source nothing kept reaches or builds
    EMPTY_DIR = "empty-dir"
    FOLDED = "folded"  # a file rewritten: facts folded, registry entries cut
    SYMBOL = "symbol"  # a pruned definition
    REGISTRY = "registry"  # a registry entry the spec filters out
    TEST = "test"  # a test of removed code or of a folded fact


# The kinds that take the whole file out of the fork (the others rewrite it).
GONE_KINDS = frozenset({RemovalKind.DROPPED, RemovalKind.UNREACHABLE, RemovalKind.KERNEL, RemovalKind.EMPTY_DIR})
DELETING = (RemovalKind.DROPPED, RemovalKind.KERNEL, RemovalKind.UNREACHABLE)  # the batch engine deletes these


@dataclass(frozen=True)
class Removal:
    """One thing the fork leaves out (or changes), of a ``RemovalKind``. ``path`` is relative to the source root
    (posix). ``group`` names the batch it belongs to."""

    kind: RemovalKind
    path: str
    reason: str
    module: str | None = None
    symbol: str | None = None
    lines: int = 0
    group: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RemovalKind(self.kind))  # an unknown kind is a bug: ValueError


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
        return {r.path for r in self.removals if r.kind in GONE_KINDS}


@dataclass(frozen=True)
class Edit:
    """One change to one file of the fork: ``content`` replaces (or creates) the file, or ``None`` deletes it.

    ``path`` is relative to the source root (posix); ``kind`` is the ``Removal`` kind that asked for it
    ("dropped", "unreachable", "folded", "symbol", ...); ``reason`` says why, for a user.
    """

    path: str
    content: bytes | None
    reason: str
    kind: str

    @property
    def action(self) -> str:
        return "delete" if self.content is None else "rewrite"

    def digest(self) -> str:
        body = b"D" if self.content is None else b"W" + hashlib.sha256(self.content).digest()
        return hashlib.sha256(self.path.encode() + b"\0" + body).hexdigest()


@dataclass
class Batch:
    """Edits that are applied, checked and committed together; ``message`` says what they remove and why."""

    name: str
    message: str
    edits: list[Edit]

    def digest(self) -> str:
        h = hashlib.sha256(f"{self.name}\0{self.message}\0".encode())
        for edit in sorted(self.edits, key=lambda e: e.path):
            h.update(f"{edit.digest()}\0{edit.kind}\0{edit.reason}\0".encode())
        return h.hexdigest()
