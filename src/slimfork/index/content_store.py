"""Summaries stored by the content they summarise, across trees: a copy of a tree, another release of the same
project or a second checkout parses only the files whose text no earlier run met (the index's own cache is one
file per tree). One small file per content, under the version of the code that summarised it; the folders of
code versions unused for a few days are removed when a new version first stores."""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from slimfork.index.summary import ModuleSummary
from slimfork.source.cache import cache_dir, code_version

_STALE_SECONDS = 3 * 24 * 3600
_FOLDERS: dict[str, Path] = {}  # the cache's base folder ($SLIMFORK_CACHE may change) -> this version's folder


def load(sha: str) -> ModuleSummary | None:
    try:
        with open(_path(sha), "rb") as fh:
            summary = pickle.load(fh)
    except Exception:  # none stored, or a file another process is writing: only a slower run
        return None
    return summary if isinstance(summary, ModuleSummary) and summary.sha == sha else None


def save(summaries: Iterable[ModuleSummary]) -> None:
    for summary in summaries:
        path = _path(summary.sha)
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(summary, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)  # no fsync: a torn file fails to load and is parsed again
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def _path(sha: str) -> Path:
    return _folder() / sha[:2] / f"{sha}.pkl"


def _folder() -> Path:
    base = cache_dir("index", "by-content")
    if str(base) not in _FOLDERS:
        version = code_version(Path(__file__).parent)
        if not (base / version).exists():
            _remove_stale(base)
        _FOLDERS[str(base)] = base / version
    return _FOLDERS[str(base)]


def _remove_stale(base: Path) -> None:
    now = time.time()
    for old in base.iterdir():
        try:
            if old.is_dir() and now - old.stat().st_mtime > _STALE_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue
