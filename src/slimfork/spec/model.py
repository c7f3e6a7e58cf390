"""The parsed keep spec."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Root:
    """An entry point the fork must keep: ``kind`` is module, symbol, script, file or glob (a module glob)."""

    kind: str
    value: str
    symbol: str | None = None
    text: str = ""  # as written in the spec

    def __str__(self) -> str:
        return self.text or self.value


@dataclass(frozen=True)
class RegistrySpec:
    package: str
    keep: tuple[str, ...]
    reason: str = ""
    key: str = "registries[0]"  # where it is in the spec


@dataclass
class Spec:
    path: Path  # the spec file
    source: str
    dist: str = "wheel"
    python_root: str | None = None
    packages: list[str] = field(default_factory=list)
    roots: list[Root] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    type_checking_imports: bool = True  # False: imports under `if TYPE_CHECKING:` keep no module
    keep: list[str] = field(default_factory=list)
    outside_imports: list[str] = field(default_factory=list)  # module globs whose run-time imports load outside code
    out: Path | None = None
    registries: list[RegistrySpec] = field(default_factory=list)
    allow_stale: bool = False  # entries that match nothing in the source warn instead of stopping the run
    sections: dict[str, Any] = field(default_factory=dict)  # parsed [facts], [checks], [verify]
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    @property
    def registry_packages(self) -> tuple[str, ...]:
        """The package (or module) of every ``[[registries]]`` entry, whatever its kind."""
        return tuple(str(r["package"]) for r in self.raw.get("registries", []) if isinstance(r, dict) and "package" in r)

    @property
    def report_dir(self) -> Path:
        assert self.out is not None
        return self.out.with_name(self.out.name + ".report")
