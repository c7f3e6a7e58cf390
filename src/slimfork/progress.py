"""Progress bars for long phases (rich), shown only on a terminal and never in --json mode."""

from __future__ import annotations

import sys
from contextlib import contextmanager

_enabled = True


def set_enabled(value: bool) -> None:
    global _enabled
    _enabled = value


@contextmanager
def progress(description: str, total: int | None = None):
    """Yield an ``advance(n=1)`` callable; draws a bar on an interactive stderr."""
    if not (_enabled and sys.stderr.isatty()):
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
