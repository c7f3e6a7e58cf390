"""Atomic file writes: a reader never sees a half-written file, and a crash leaves the old one."""

from __future__ import annotations

import os
import posixpath
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str, mode: int | None = None) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def folders_above(rel: str) -> list[str]:
    """The folders of a relative path, nearest first: ``a/b/c.py`` -> ``["a/b", "a"]``."""
    out = []
    folder = posixpath.dirname(rel)
    while folder:
        out.append(folder)
        folder = posixpath.dirname(folder)
    return out
