"""Shrink each fixture project once per module (the whole pipeline, checks included) and share the result."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


class Shrunk:
    def __init__(self, source: Path, fork: Path, result):
        self.source, self.fork, self.result = source, fork, result

    def text(self, rel: str) -> str:
        return (self.fork / rel).read_text()

    def has(self, rel: str) -> bool:
        return (self.fork / rel).is_file()

    def run(self, *args: str, code: str | None = None, original: bool = False) -> subprocess.CompletedProcess:
        """Run ``python -m ARGS`` (or ``python -c CODE``) with PYTHONPATH at the fork's src (or the original's)."""
        env = {**os.environ, "PYTHONPATH": str((self.source if original else self.fork) / "src")}
        cmd = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", *args]
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60, cwd=self.fork)

    def removal(self, module: str, name: str):
        return self.result.analysis.stages.symbols.removed_symbol(module, name)


def shrink_fixture(tmp_path_factory, name: str) -> Shrunk:
    from slimfork.api import shrink

    base = tmp_path_factory.mktemp(name)
    source = base / name
    shutil.copytree(FIXTURES / name, source)
    result = shrink(source / "slimfork.toml", out=base / "fork", jobs=2)
    return Shrunk(source, base / "fork", result)


@pytest.fixture(scope="module")
def libpit(tmp_path_factory) -> Shrunk:
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get("SLIMFORK_CACHE")
    os.environ["SLIMFORK_CACHE"] = str(cache)
    try:
        return shrink_fixture(tmp_path_factory, "libpit")
    finally:
        if old is None:
            os.environ.pop("SLIMFORK_CACHE", None)
        else:
            os.environ["SLIMFORK_CACHE"] = old
