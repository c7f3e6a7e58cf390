"""Progress bars for long phases (rich), shown only on a terminal and never in --json mode."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager

_enabled = True
_lines = False  # off a terminal, one line when a phase starts and one when it ends (the command line asks)
_depth = 0  # phases inside a phase print no lines of their own


def set_enabled(value: bool) -> None:
    """The command line's switch (off with --no-progress or --json); the Python API draws bars only."""
    global _enabled, _lines
    _enabled = _lines = value


@contextmanager
def progress(description: str, total: int | None = None):
    """Yield an ``advance(n=1)`` callable; draws a bar on an interactive stderr, and prints a start and an end
    line on any other stderr (a log, CI) when the command line enabled progress."""
    global _depth
    if not (_enabled and sys.stderr.isatty()):
        if _lines and _depth == 0:
            start = time.perf_counter()
            print(f"slimfork: {description}" + (f" ({total})" if total else "") + " ...", file=sys.stderr, flush=True)
        _depth += 1
        try:
            yield lambda n=1: None
        finally:
            _depth -= 1
        if _lines and _depth == 0:
            print(f"slimfork: {description}: done in {time.perf_counter() - start:.0f} s", file=sys.stderr,
                  flush=True)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)
