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
PUT_BACK = "put back"  # the Edit kind of a file a later batch returns to the fork (tests of restored code)
DELETING = (RemovalKind.DROPPED, RemovalKind.KERNEL, RemovalKind.UNREACHABLE)  # the batch engine deletes these

# How sure slimfork is that a removal is right (0-100, as vulture scores): 100 when the spec says so (a drop glob,
# a fact, a registry filter); less when static analysis infers it (a check verifies it, and restores what fails).
REMOVAL_CONFIDENCE: dict[RemovalKind, int] = {
    RemovalKind.DROPPED: 100, RemovalKind.EMPTY_DIR: 100, RemovalKind.FOLDED: 100, RemovalKind.REGISTRY: 100,
    RemovalKind.UNREACHABLE: 90, RemovalKind.TEST: 90, RemovalKind.KERNEL: 80, RemovalKind.SYMBOL: 80,
}


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
    confidence: int = -1  # -1: the kind's (``REMOVAL_CONFIDENCE``)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", RemovalKind(self.kind))  # an unknown kind is a bug: ValueError
        if self.confidence < 0:
            object.__setattr__(self, "confidence", REMOVAL_CONFIDENCE[self.kind])


class KeptKind(StrEnum):
    """Why a file stays in the fork, by kind: the step that reached it, the spec key or the rule that keeps it."""

    ROOT = "root"  # a root of the spec
    IMPORTED = "imported"  # imported (import, from) by kept code
    PARENT = "parent"  # the parent package of a kept module
    RUN = "run"  # run by kept code (a package's __main__)
    DYNAMIC = "dynamic"  # imported dynamically by kept code
    STRING = "string"  # named in a string of kept code
    REGISTRY = "registry"  # a member of a registry the spec keeps
    SCAN = "scan"  # found by a directory scan in kept code
    KEEP_GLOB = "keep-glob"  # a `keep` glob of the spec
    NON_PYTHON = "non-python"  # not Python: kept unless dropped
    OUTSIDE = "outside-packages"  # Python outside the analysed packages: kept unless dropped
    UNPARSABLE = "unparsable"  # does not parse: unknown means keep
    TEST_FILE = "test-file"  # a test the spec keeps (`tests`) unless it tests removed code
    TEST_SUPPORT = "test-support"  # imported by kept tests
    RESTORED = "restored"  # a check failed without it


# How each kind reads: ``{}`` is the decision's detail (the chain's last step, the glob, the error, ...). The one
# place a kept file's reason is written; ``Kept.reason`` renders it.
KEPT_TEXT: dict[KeptKind, str] = {
    KeptKind.ROOT: "{}",
    KeptKind.IMPORTED: "imported by {}",
    KeptKind.PARENT: "parent package of {}",
    KeptKind.RUN: "run by {}",
    KeptKind.DYNAMIC: "imported dynamically by {}",
    KeptKind.STRING: "named in a string by {}",
    KeptKind.REGISTRY: "registry member of {}",
    KeptKind.SCAN: "found by a directory scan in {}",
    KeptKind.KEEP_GLOB: "kept by {}",
    KeptKind.NON_PYTHON: "non-Python file (kept unless dropped)",
    KeptKind.OUTSIDE: "Python file outside the analysed packages (kept unless dropped)",
    KeptKind.UNPARSABLE: "kept: {} (unknown means keep)",
    KeptKind.TEST_FILE: "test file (spec key tests, else a tests folder of the source): kept unless it tests removed "
                        "code",
    KeptKind.TEST_SUPPORT: "test support: {}",
    KeptKind.RESTORED: "restored: the {}",
}

# How sure slimfork is that a kept file is needed (0-100, as vulture scores): 100 when the spec, an import or a
# failed check says so; less when only a heuristic reached it (a string, a scan, a dynamic import) or nothing was
# decided (a file not analysed, or one that does not parse: unknown means keep).
KEPT_CONFIDENCE: dict[KeptKind, int] = {
    KeptKind.ROOT: 100, KeptKind.IMPORTED: 100, KeptKind.PARENT: 100, KeptKind.RUN: 100,
    KeptKind.DYNAMIC: 80, KeptKind.STRING: 60, KeptKind.REGISTRY: 100, KeptKind.SCAN: 70,
    KeptKind.KEEP_GLOB: 100, KeptKind.NON_PYTHON: 50, KeptKind.OUTSIDE: 50, KeptKind.UNPARSABLE: 30,
    KeptKind.TEST_FILE: 100, KeptKind.TEST_SUPPORT: 100, KeptKind.RESTORED: 100,
}


def kept_reason(kind: KeptKind, detail: str = "") -> str:
    """The reason a user reads for a file kept as ``kind``."""
    return KEPT_TEXT[KeptKind(kind)].format(detail)


@dataclass(frozen=True)
class Kept:
    """One file the fork keeps, of a ``KeptKind``; ``detail`` completes the kind's text (``reason``)."""

    path: str
    module: str | None
    kind: KeptKind
    detail: str = ""
    confidence: int = -1  # -1: the kind's (``KEPT_CONFIDENCE``)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", KeptKind(self.kind))  # an unknown kind is a bug: ValueError
        if self.confidence < 0:
            object.__setattr__(self, "confidence", KEPT_CONFIDENCE[self.kind])

    @property
    def reason(self) -> str:
        return kept_reason(self.kind, self.detail)

    def to_dict(self) -> dict:
        """As report.json lists it: the fields it always had, then ``kind`` and ``confidence``."""
        return {"path": self.path, "module": self.module, "reason": self.reason, "kind": str(self.kind),
                "confidence": self.confidence}


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
