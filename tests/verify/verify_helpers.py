"""Copy a fixture project twice (original and fork) and break the fork with one removal."""

from __future__ import annotations

import shutil
from pathlib import Path

from slimfork.verify.tree import TreeLayout

FIXTURES = Path(__file__).parent / "fixtures"
LAYOUT = TreeLayout("", ("pkg",))


def copy_project(tmp_path: Path, name: str = "proj") -> tuple[Path, Path]:
    original, fork = tmp_path / "original", tmp_path / "fork"
    shutil.copytree(FIXTURES / name, original)
    shutil.copytree(FIXTURES / name, fork)
    return original, fork


def edit(tree: Path, changes: dict[str, str | None]) -> None:
    """Write (or, for None, delete) files of ``tree``."""
    for rel, text in changes.items():
        if text is None:
            (tree / rel).unlink()
        else:
            (tree / rel).write_text(text)
