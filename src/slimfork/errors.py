"""Errors a user can act on. The CLI prints them without a traceback and exits with ``exit_code``."""

from __future__ import annotations

from dataclasses import dataclass


class SlimforkError(Exception):
    """A problem with the user's input (spec, source, target). Exit code 2."""

    exit_code = 2

    def __init__(self, message: str, *, key: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.key = key
        self.hint = hint

    def render(self) -> str:
        where = f"{self.key}: " if self.key else ""
        text = f"error: {where}{self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class SpecError(SlimforkError):
    """The keep spec is malformed or names something that does not exist."""


class SourceError(SlimforkError):
    """The source cannot be fetched or read."""


def closest(word: str, options) -> str | None:
    """The option closest to ``word`` (difflib), or None when nothing is close."""
    import difflib

    close = difflib.get_close_matches(word, list(options), n=1)
    return close[0] if close else None


def did_you_mean(word: str, options, fallback: str) -> str:
    """A hint naming the closest option (difflib), or ``fallback`` when nothing is close."""
    close = closest(word, options)
    return f"did you mean {close}?" if close else fallback


@dataclass(frozen=True)
class Stale:
    """A spec entry that matches nothing in the source (a root, glob, registry, registry key or fact that a new
    release renamed or removed): ``suggestion`` is the closest name of that kind the source has, if any."""

    key: str  # where it is in the spec: "registries[3].keep[0]"
    kind: str  # root, glob, registry, registry key, fact
    message: str
    suggestion: str | None = None
    hint: str = ""  # what to do when no name is close
    name: str = ""  # what the entry names (a registry key pattern), where a check needs it

    def render(self, level: str = "error") -> str:
        hint = f"did you mean {self.suggestion}?" if self.suggestion else self.hint
        return f"{level}: {self.key}: {self.message}" + (f"\n  hint: {hint}" if hint else "")

    def to_dict(self) -> dict:
        return {"key": self.key, "kind": self.kind, "message": self.message, "suggestion": self.suggestion,
                "hint": self.hint}  # name: internal


class StaleError(SpecError):
    """Entries of the spec match nothing in the source: each one rendered, then how to go on anyway."""

    def __init__(self, entries: list[Stale]):
        count = "1 spec entry matches" if len(entries) == 1 else f"{len(entries)} spec entries match"
        super().__init__(f"{count} nothing in the source (stale after an upgrade, or a typo)", key=entries[0].key,
                         hint=ALLOW_STALE_HINT)
        self.entries = entries

    def render(self) -> str:
        return "\n".join([e.render() for e in self.entries] + [f"error: {self.message}\n  hint: {self.hint}"])


ALLOW_STALE_HINT = ("rename or remove them; --allow-stale (or allow_stale = true in the spec) makes them warnings, "
                    "and the entries are then ignored")
