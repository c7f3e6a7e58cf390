"""Stop every running check at once: Ctrl-C or SIGTERM reaches only the main thread, while checks run in
worker threads (baselines and several checks at a time) and their processes in their own sessions. Each check
process registers its process group here; ``cancel_all`` kills them all and makes new ones refuse to start,
so the threads waiting on them return at once and the run stops within seconds, not after the running imports.
"""

from __future__ import annotations

import os
import signal
import threading

_LOCK = threading.Lock()
_GROUPS: set[int] = set()
_CANCELLED = threading.Event()


class Cancelled(Exception):
    """A check was asked to start after ``cancel_all``."""


def register(pid: int) -> None:
    with _LOCK:
        if _CANCELLED.is_set():
            _kill(pid)
            raise Cancelled("the run was interrupted")
        _GROUPS.add(pid)


def unregister(pid: int) -> None:
    with _LOCK:
        _GROUPS.discard(pid)


def cancelled() -> bool:
    return _CANCELLED.is_set()


def cancel_all() -> None:
    with _LOCK:
        _CANCELLED.set()
        for pid in list(_GROUPS):
            _kill(pid)
        _GROUPS.clear()


def reset() -> None:
    """For a new run in the same process (tests, the Python API)."""
    _CANCELLED.clear()


def _kill(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def thread_map(fn, items: list, workers: int) -> list:
    """``fn`` over ``items`` in threads; on Ctrl-C (or any error) in the caller, every check process is killed
    first, so leaving the pool does not wait for the running checks to finish."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        try:
            return list(pool.map(fn, items))
        except BaseException:
            cancel_all()
            raise


def _after_fork_in_child() -> None:
    """A forked process (a pool worker) starts with its own lock and no process group of its parent's."""
    global _LOCK
    _LOCK = threading.Lock()
    _GROUPS.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)
