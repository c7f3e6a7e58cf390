"""Progress bars for long phases (rich), shown only on a terminal and never in --json mode."""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager

_enabled = True
_lines = False  # off a terminal, one line when a phase starts and one when it ends (the command line asks)
_notes = False  # notes a run says once (what the checks may take): the command line asks, but not with --json
_depth = 0  # phases inside a phase print no lines of their own
HEARTBEAT_SECONDS = 60.0  # off a terminal, a long phase says every minute that it still runs, and where
_active: list[list] = []  # off a terminal: [description, total, done] of each running phase, outermost first
_interrupted: list[str] = []  # the innermost phase a Ctrl-C or SIGTERM stopped, with its count, for the message
_printing = threading.Lock()  # held by the heartbeat while it prints: a fork waits, so no child inherits a held
os.register_at_fork(before=_printing.acquire, after_in_parent=_printing.release,  # stderr lock
                    after_in_child=_printing.release)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: "1 check", "3 planned edits" (the progress lines and the
    reports count in words; "1 files of the fork changed" read as a slip)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def set_enabled(value: bool, notes: bool = False) -> None:
    """The command line's switch (off with --no-progress or --json); the Python API draws bars only. ``notes``:
    ``say`` prints (on unless --json, even with --no-progress: a log then says what a long run may take). A new
    command forgets an earlier one's interruption."""
    global _enabled, _lines, _notes
    _enabled = _lines = value
    _notes = notes or value
    _interrupted.clear()


def say(text: str) -> None:
    """A note on stderr, ``slimfork: text``, where the command line asked for notes."""
    if _notes and text:
        with _printing:
            print(f"slimfork: {text}", file=sys.stderr, flush=True)


@contextmanager
def progress(description: str, total: int | None = None):
    """Yield an ``advance(n=1)`` callable; draws a bar on an interactive stderr, and prints a start and an end
    line on any other stderr (a log, CI) when the command line enabled progress."""
    global _depth
    if not (_enabled and sys.stderr.isatty()):
        outer = _lines and _depth == 0
        if outer:
            start = time.perf_counter()
            print(f"slimfork: {description}" + (f" ({total})" if total else "") + " ...", file=sys.stderr, flush=True)
            stop = threading.Event()
            threading.Thread(target=_heartbeat, args=(stop, start), daemon=True).start()
        entry = [description, total, 0]
        _active.append(entry)
        _depth += 1
        try:
            yield lambda n=1: entry.__setitem__(2, entry[2] + n)
        except KeyboardInterrupt:
            _note_interruption(description, total, entry[2] if isinstance(entry[2], int) else 0)
            raise
        finally:
            _depth -= 1
            del _active[next(i for i, e in enumerate(_active) if e is entry)]
            if outer:
                stop.set()
        if outer:
            print(f"slimfork: {description}: done in {time.perf_counter() - start:.0f} s", file=sys.stderr,
                  flush=True)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        try:
            yield lambda n=1: bar.advance(task, n)
        except KeyboardInterrupt:
            _note_interruption(description, total, int(bar.tasks[0].completed))
            raise


def interrupted_in() -> str | None:
    """The phase an interruption stopped (``folding facts 210/436``), or None: the command line's message says it."""
    return _interrupted[0] if _interrupted else None


def _note_interruption(description: str, total: int | None, done: int) -> None:
    if not _interrupted:  # the innermost phase notes it first; the phases around it leave it
        _interrupted.append(description + (f" {done}/{total}" if total else ""))


def _heartbeat(stop: threading.Event, start: float) -> None:
    """Every ``HEARTBEAT_SECONDS`` until ``stop``: the outer phase, how long it has run, and the innermost phase
    running now with its count (a log or CI that shows nothing for half an hour looks hung)."""
    while not stop.wait(HEARTBEAT_SECONDS):
        phases = list(_active)
        if not phases:
            continue
        outer, inner = phases[0], phases[-1]
        now = ""
        if inner is not outer:
            now = f"; now {inner[0]}" + (f" {inner[2]}/{inner[1]}" if inner[1] else "")
        minutes, seconds = divmod(int(time.perf_counter() - start), 60)
        with _printing:
            print(f"slimfork: {outer[0]}: running for {minutes} min {seconds:02d} s{now}", file=sys.stderr,
                  flush=True)
