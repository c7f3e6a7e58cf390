"""What the registry kinds that rewrite one function or module (if-chain, imports) share: the spec entry's key
matching, and the cut of one file with the mechanical checks every rewrite passes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from slimfork.index.parse import decode
from slimfork.mapping.spec import _match
from slimfork.rewrite.safety import check_rewrite, undefined_names


class KeepsKeys:
    keep: tuple[str, ...]  # globs or "re:" regexes on the keys

    def keeps(self, name: str) -> bool:
        return any(_match(p, name) for p in self.keep)


R = TypeVar("R")


@dataclass
class SourceCut(Generic[R]):
    """One registry's cut of one file: the keys kept and removed, and the new source or why the file stays."""

    registry: R
    path: str
    kept: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    new_source: bytes | None = None
    failure: str | None = None

    def check(self, data: bytes, new: bytes, dropped: Counter[str]) -> SourceCut[R]:
        """Keep ``new`` only if it passes the rewrite checks (untouched bytes, comments, no name undefined)."""
        before, after = undefined_names(decode(data), self.path), undefined_names(decode(new), self.path)
        problems = check_rewrite(data, new, dropped, self.path, (before, after))
        if problems:
            self.failure, self.removed = "; ".join(problems), []
        else:
            self.new_source = new
        return self
