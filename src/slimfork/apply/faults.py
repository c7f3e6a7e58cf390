"""A test hook that interrupts the engine after N operations, to prove it survives a crash at any point.

``SLIMFORK_APPLY_KILL_AFTER=N`` sends ``SLIMFORK_APPLY_KILL_SIGNAL`` (default SIGKILL; SIGINT for Ctrl-C) to the
running process at its N-th operation (a file written or deleted, a git command, a journal write, a check run).
Unset, it costs one dictionary lookup per operation.
"""

from __future__ import annotations

import os
import signal

_state = {"count": 0, "pid": 0}


def arm() -> None:
    """Start counting in this process (worker processes forked later never fire)."""
    _state["count"] = 0
    _state["pid"] = os.getpid()


def count() -> int:
    return _state["count"]


def tick() -> None:
    if os.getpid() != _state["pid"]:
        return
    _state["count"] += 1
    limit = os.environ.get("SLIMFORK_APPLY_KILL_AFTER")
    if limit and _state["count"] == int(limit):
        sig = getattr(signal, os.environ.get("SLIMFORK_APPLY_KILL_SIGNAL", "SIGKILL"))
        os.kill(os.getpid(), sig)
