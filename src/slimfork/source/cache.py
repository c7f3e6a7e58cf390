"""Where slimfork keeps downloads and index caches (``$SLIMFORK_CACHE``, default ``~/.cache/slimfork``)."""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    base = os.environ.get("SLIMFORK_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "slimfork"
    )
    path = Path(base, *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def file_lock(path: Path):
    """An exclusive lock between processes (parallel test workers, two shrinks sharing a cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
