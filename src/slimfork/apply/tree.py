"""File trees: plain copies that keep modes and symlinks, and edits written atomically inside a root.

A copy never shares an inode with its source (files are copied byte by byte, symlinks recreated), and no edit
can reach outside its root: paths are checked for ``..``, absolute parts, ``.git`` and symlinked parents.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path

from slimfork.apply import faults
from slimfork.decisions import Edit
from slimfork.errors import SlimforkError
from slimfork.fsutil import write_atomic


def copy_tree(src: Path, dst: Path, *, tick: bool = False) -> list[str]:
    """Copy the files and symlinks under ``src`` into ``dst``; return notes on what could not be copied.

    Directories are created only for what they hold (git keeps no empty folder); ``.git`` folders or files at
    any depth are skipped (git cannot hold them), and so are sockets, pipes and devices.
    """
    notes: list[str] = []
    src_s, dst_s = str(src), str(dst)
    os.makedirs(dst_s, exist_ok=True)
    for dirpath, dirnames, filenames in os.walk(src_s):
        rel = os.path.relpath(dirpath, src_s)
        rel = "" if rel == "." else rel
        keep = []
        for name in sorted(dirnames):
            full = os.path.join(dirpath, name)
            if name == ".git":
                notes.append(f"skipped {os.path.join(rel, name)}: a nested git folder")
            elif os.path.islink(full):
                filenames.append(name)  # a symlink to a folder is copied as a symlink
            else:
                keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            source = os.path.join(dirpath, name)
            relname = os.path.join(rel, name)
            st = os.lstat(source)
            if name == ".git":
                notes.append(f"skipped {relname}: a git link file")
                continue
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                notes.append(f"skipped {relname}: not a regular file or symlink")
                continue
            target = os.path.join(dst_s, relname)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(source), target)
            else:
                with open(source, "rb") as fin, open(target, "xb") as fout:
                    shutil.copyfileobj(fin, fout, 1 << 20)
                os.chmod(target, stat.S_IMODE(st.st_mode))
            if tick:
                faults.tick()
    return notes


def check_edit_path(rel: str) -> None:
    parts = rel.split("/")
    if (not rel or rel.startswith("/") or "\\" in rel
            or any(p in ("", ".", "..", ".git") for p in parts)):
        raise SlimforkError(f"edit path '{rel}' is not a plain relative path inside the source",
                            hint="paths are relative posix paths such as 'pkg/mod.py'")


def resolve_edit_path(root: Path, rel: str) -> str:
    check_edit_path(rel)
    path = str(root)
    parts = rel.split("/")
    for part in parts[:-1]:
        path = os.path.join(path, part)
        if os.path.islink(path):
            raise SlimforkError(f"edit path '{rel}' goes through the symlink '{part}'",
                                hint="a fork never writes through a symlink (it could reach the source)")
    return os.path.join(path, parts[-1])


def apply_edits(root: Path, edits: Iterable[Edit]) -> None:
    """Write each edit atomically (modes kept); delete files and the folders their deletion empties."""
    for edit in sorted(edits, key=lambda e: e.path):
        target = resolve_edit_path(root, edit.path)
        if edit.content is None:
            try:
                os.unlink(target)
            except FileNotFoundError:
                pass
            parent = os.path.dirname(target)
            while os.path.realpath(parent) != os.path.realpath(root):
                try:
                    os.rmdir(parent)
                except OSError:
                    break
                parent = os.path.dirname(parent)
        else:
            try:
                st = os.lstat(target)
                mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o644
            except FileNotFoundError:
                mode = 0o644
            write_atomic(Path(target), edit.content, mode=mode)
        faults.tick()


def edits_key(base_tree: str, edits: Iterable[Edit]) -> str:
    """The identity of the tree ``base_tree`` + ``edits``: what cached check results are keyed on."""
    h = hashlib.sha256(base_tree.encode() + b"\0")
    for digest in sorted(e.digest() for e in edits):
        h.update(digest.encode())
    return h.hexdigest()


def fingerprint(root: Path) -> str:
    """A cheap identity of a source tree: every path with its size, mode, mtime and symlink target."""
    h = hashlib.sha256()
    root_s = str(root)
    for dirpath, dirnames, filenames in os.walk(root_s):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            full = os.path.join(dirpath, name)
            st = os.lstat(full)
            link = os.readlink(full) if stat.S_ISLNK(st.st_mode) else ""
            h.update(f"{os.path.relpath(full, root_s)}\0{st.st_size}\0{st.st_mode}\0{st.st_mtime_ns}\0{link}\n"
                     .encode())
    return h.hexdigest()
