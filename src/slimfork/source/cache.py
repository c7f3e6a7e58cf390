"""Where slimfork keeps downloads and caches (``$SLIMFORK_CACHE``, default ``~/.cache/slimfork``), and how a
computed result is cached."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import io
import os
import pickle
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from slimfork.fsutil import write_atomic

T = TypeVar("T")


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


# One scheme for the caches of computed results (the index, the planning stages, the audit's scan): a file under
# cache_dir(kind) named by the content it was computed from and by the version of the code that computed it.

_OWN = Path(__file__).resolve().parents[1]  # slimfork's own package


def code_version(*paths: Path) -> str:
    """A digest of the sources (files, or every .py below a folder) that compute a cached value: a changed
    analysis never reads a result the old code computed. slimfork's own code is read once per process, so a
    process whose code was replaced on disk while it ran (an upgrade) keeps writing under the version it runs;
    a profile's check scripts are read every time."""
    if all(p.resolve() == _OWN or _OWN in p.resolve().parents for p in paths):
        return _own_version(tuple(paths))
    return _digest(paths)


@functools.lru_cache(maxsize=None)
def _own_version(paths: tuple[Path, ...]) -> str:
    return _digest(paths)


def _digest(paths) -> str:
    h = hashlib.blake2b(digest_size=8)
    for path in paths:
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            if "examples" not in file.parts:
                h.update(file.read_bytes())
    return h.hexdigest()


def read_cache(path: Path, default: T, shared: dict[str, object] | None = None) -> T:
    """The value cached in ``path``, or ``default`` when there is none (or it is corrupt: only a slower run).
    ``shared``: the objects ``write_cache`` stored by key, which the value gets back as they are (not copies)."""
    try:
        with open(path, "rb") as fh:
            unpickler = pickle.Unpickler(fh)
            if shared is not None:
                unpickler.persistent_load = shared.__getitem__  # type: ignore[method-assign]
            return unpickler.load()
    except Exception:
        return default


def write_cache(path: Path, value: object, shared: dict[str, object] | None = None) -> None:
    """``shared``: key -> an object the value holds that the reader already has (an index's summaries): stored as
    its key, so a cached value does not hold a second copy of it."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    if shared:
        keys = {id(obj): key for key, obj in shared.items()}
        pickler.persistent_id = lambda obj: keys.get(id(obj))  # type: ignore[method-assign]
    pickler.dump(value)
    write_atomic(path, buffer.getvalue())
