"""A small project written from a dict of files, with its spec, and its CLI run on a tree (the registry tests)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def write_project(tmp_path: Path, files: dict[str, str], spec: str) -> Path:
    root = tmp_path / "proj"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip())
    (root / "slimfork.toml").write_text(spec)
    return root


def run_cli(tree: Path, key: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pkg.cli", key], cwd=tree, capture_output=True, text=True)
