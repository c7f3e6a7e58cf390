"""The kernel audit's view of a tree: each Python file's scan (a part of its index summary, ``ModuleSummary.scan``:
parsed once with the rest of the summary) and every native source's, scanned in parallel and cached on disk like
the index (``source.cache``)."""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from slimfork.index.build import Index
from slimfork.index.kernelscan import NATIVE_EXTS, NATIVE_TEMPLATE_EXTS, PyScan
from slimfork.index.nativescan import NativeScan, scan_native
from slimfork.index.parse import content_hash
from slimfork.progress import progress
from slimfork.source.cache import cache_dir, code_version, read_cache, write_cache
from slimfork.workers import fork_pool

_NATIVE_SCANNER = (Path(__file__).parent.parent / "index" / "nativescan.py",
                   Path(__file__).parent.parent / "index" / "native_functions.py")


@dataclass
class TreeScan:
    py: dict[str, PyScan]  # relative posix path -> scan (the index summary's)
    native: dict[str, NativeScan]  # relative posix path of each native source -> scan
    scanned: int = 0  # native sources scanned in this run (the rest came from the cache)


_QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


def native_files(index: Index) -> list[str]:
    """Native sources: the files with a native suffix (also Jinja templates of them, ``pa_ps.cpp.jinja``), and
    the files of other suffixes one of them includes by a path relative to its folder (ThunderKittens' ``#include "4090_harness.impl"``, which launches the kernels
    of ``4090.cu``: without it they had no launch)."""
    exts = NATIVE_EXTS + NATIVE_TEMPLATE_EXTS  # a template of native code (x.cpp.jinja) is read as its code
    found = [rel for rel in index.other_files if rel.lower().endswith(exts)]
    others = {rel for rel in index.other_files if not rel.lower().endswith(exts)}
    if not others:
        return found
    more: set[str] = set()
    for rel in found:
        try:
            with open(os.path.join(index.root, rel), "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if b"include" not in data:
            continue
        for m in _QUOTED_INCLUDE.finditer(data):
            name = m.group(1).decode("utf-8", errors="replace").strip()
            path = posixpath.normpath(posixpath.join(posixpath.dirname(rel), name))
            if path in others:
                more.add(path)
    return found + sorted(more)


def _scan_one(args: tuple[str, str]) -> tuple[str, NativeScan]:
    root, rel = args
    with open(os.path.join(root, rel), "rb") as fh:
        data = fh.read()
    return rel, scan_native(data.decode("utf-8", errors="replace"), metal=rel.endswith(".metal"))


def scan_tree(index: Index, jobs: int | None = None, use_cache: bool = True) -> TreeScan:
    root = Path(index.root)
    where = content_hash(str(root).encode())
    cache_file = cache_dir("audit") / f"scan-{where}-{code_version(*_NATIVE_SCANNER)}.pkl"
    cached: dict[str, NativeScan] = read_cache(cache_file, {}) if use_cache else {}
    py = {rel: summary.scan for rel, summary in index.files.items()}
    native: dict[str, NativeScan] = {}
    todo: list[str] = []
    keys: dict[str, str] = {}
    for rel in native_files(index):
        st = os.stat(root / rel)
        keys[rel] = f"native:{rel}:{st.st_mtime_ns}:{st.st_size}"
        found = cached.get(keys[rel])
        if isinstance(found, NativeScan):
            native[rel] = found
        else:
            todo.append(rel)
    if todo:
        jobs = jobs or os.cpu_count() or 1
        args = [(str(root), rel) for rel in todo]
        with progress("scanning kernels", len(todo)) as advance:
            if jobs > 1 and len(todo) > 64:
                with fork_pool(jobs) as pool:
                    for rel, scan in pool.map(_scan_one, args, chunksize=32):
                        native[rel] = scan
                        advance()
            else:
                for rel, scan in map(_scan_one, args):
                    native[rel] = scan
                    advance()
    fresh = {keys[rel]: native[rel] for rel in keys}
    if use_cache and (todo or len(fresh) != len(cached)):
        write_cache(cache_file, fresh)
        for stale in cache_file.parent.glob(f"scan-{where}-*.pkl"):
            if stale != cache_file:  # written by an older scanner: never read again
                stale.unlink(missing_ok=True)
    return TreeScan(dict(sorted(py.items())), dict(sorted(native.items())), scanned=len(todo))
