"""Shared test helpers. Every test gets its own slimfork cache unless it asks for the shared download cache."""

from __future__ import annotations

import os
import shutil
from collections import OrderedDict
from pathlib import Path
from weakref import WeakValueDictionary

import pytest

from slimfork.index import build

# Fixture projects are data (some carry their own tests, run by the checks under test): never collect them.
collect_ignore_glob = ["*/fixtures/*", "*/golden/*"]

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "slimfork" / "examples" / "mlserve"
SHARED_CACHE = Path(os.environ.get("SLIMFORK_TEST_CACHE") or Path.home() / ".cache" / "slimfork-tests")


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch, request):
    """Unit tests get a fresh cache; tests marked slow share one so real downloads happen once per machine."""
    if request.node.get_closest_marker("slow"):
        SHARED_CACHE.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv("SLIMFORK_CACHE", str(SHARED_CACHE))
    else:
        monkeypatch.setenv("SLIMFORK_CACHE", str(tmp_path_factory.mktemp("cache")))
        # ... and summaries that no earlier test's objects share (an index counts what it parsed)
        monkeypatch.setattr(build, "_BY_CONTENT", WeakValueDictionary())
        monkeypatch.setattr(build, "_RECENT", OrderedDict())


@pytest.fixture
def copy_fixture(tmp_path):
    """Copy a fixture project (tests/<area>/fixtures/<name>) into tmp_path and return its path."""

    def _copy(area: str, name: str) -> Path:
        src = ROOT / "tests" / area / "fixtures" / name
        dest = tmp_path / name
        shutil.copytree(src, dest, symlinks=True)
        return dest

    return _copy
