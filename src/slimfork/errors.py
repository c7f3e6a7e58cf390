"""Errors a user can act on. The CLI prints them without a traceback and exits with ``exit_code``."""

from __future__ import annotations


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


def did_you_mean(word: str, options, fallback: str) -> str:
    """A hint naming the closest option (difflib), or ``fallback`` when nothing is close."""
    import difflib

    close = difflib.get_close_matches(word, list(options), n=1)
    return f"did you mean {close[0]}?" if close else fallback
