"""Write the fork: a copy of the source without the removed files, written beside the target and renamed into
place, so an interrupted run never leaves a half-written fork. The source is only read."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from slimfork.apply.metadata import bump_pyproject_version, fork_pyproject
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic
from slimfork.source.layout import SourceTree


def copy_kept(tree: SourceTree, kept: list[str], dest: Path) -> None:
    """Copy the kept files (relative posix paths) from the source to ``dest``, keeping modes and symlinks."""
    for rel in kept:
        src = tree.root / rel
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), target)
        else:
            shutil.copy2(src, target)


def write_metadata(tree: SourceTree, dest: Path, kept_modules: set[str], requires: list[str] | None = None) -> list[str]:
    notes: list[str] = []
    if tree.kind == "wheel":
        text, notes = fork_pyproject(tree, kept_modules, requires)
        write_atomic(dest / "pyproject.toml", text)
    elif (dest / "pyproject.toml").is_file():
        text, changed = bump_pyproject_version((dest / "pyproject.toml").read_text(encoding="utf-8"))
        if changed:
            write_atomic(dest / "pyproject.toml", text)
        else:
            notes.append("pyproject.toml has no static version: the fork keeps the original's version")
    return notes


def replace_dir(staging: Path, out: Path) -> None:
    """Move ``staging`` to ``out``; an existing ``out`` is replaced only once the new one is complete."""
    ours = (out.with_name(out.name + ".report") / "report.json").exists()
    if out.exists() and not ours and any(out.iterdir()):
        raise SlimforkError(f"output folder {out} exists and was not written by slimfork", key="out",
                            hint="choose another --out or remove that folder")
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.rename(out, old / "x")
    os.rename(staging, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def staging_dir(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
