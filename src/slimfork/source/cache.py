"""Where slimfork keeps downloads and index caches (``$SLIMFORK_CACHE``, default ``~/.cache/slimfork``)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    base = os.environ.get("SLIMFORK_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "slimfork"
    )
    path = Path(base, *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
