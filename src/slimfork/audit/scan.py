"""Scan a tree for the kernel audit: every Python file (kernels, loaders, references) and every native
source, in parallel, cached on disk by content hash like the index."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from slimfork.audit.nativescan import NativeScan, scan_native
from slimfork.audit.pyscan import NATIVE_EXTS, PyScan, scan_source
from slimfork.index.build import Index
from slimfork.index.parse import content_hash
from slimfork.progress import progress
from slimfork.source.cache import cache_dir, code_version, read_cache, write_cache


@dataclass
class TreeScan:
    py: dict[str, PyScan]  # relative posix path -> scan
    native: dict[str, NativeScan]  # relative posix path of each native source -> scan
    scanned: int = 0  # files scanned in this run (the rest came from the cache)


def native_files(index: Index) -> list[str]:
    return [rel for rel in index.other_files if rel.lower().endswith(NATIVE_EXTS)]


def _scan_one(args: tuple[str, str]) -> tuple[str, str, object]:
    root, rel = args
    with open(os.path.join(root, rel), "rb") as fh:
        data = fh.read()
    sha = content_hash(data)
    if rel.endswith(".py"):
        return rel, sha, scan_source(data)
    return rel, sha, scan_native(data.decode("utf-8", errors="replace"), metal=rel.endswith(".metal"))


def scan_tree(index: Index, jobs: int | None = None, use_cache: bool = True) -> TreeScan:
    root = Path(index.root)
    cache_file = cache_dir("audit") / f"scan-{content_hash(str(root).encode())}-{code_version(Path(__file__).parent)}.pkl"
    cached: dict[str, object] = read_cache(cache_file, {}) if use_cache else {}
    py: dict[str, PyScan] = {}
    native: dict[str, NativeScan] = {}
    todo: list[str] = []
    for rel, summary in index.files.items():
        hit = cached.get("py:" + summary.sha)
        if isinstance(hit, PyScan):
            py[rel] = hit
        else:
            todo.append(rel)
    natives = native_files(index)
    for rel in natives:
        st = os.stat(root / rel)
        found = cached.get(f"native:{rel}:{st.st_mtime_ns}:{st.st_size}")
        if isinstance(found, NativeScan):
            native[rel] = found
        else:
            todo.append(rel)
    fresh: dict[str, object] = {}
    if todo:
        jobs = jobs or os.cpu_count() or 1
        args = [(str(root), rel) for rel in todo]
        with progress("scanning kernels", len(todo)) as advance:
            if jobs > 1 and len(todo) > 64:
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    results = []
                    for result in pool.map(_scan_one, args, chunksize=32):
                        results.append(result)
                        advance()
            else:
                results = [_scan_one(a) for a in args]
        for rel, sha, scan in results:
            if isinstance(scan, PyScan):  # _scan_one: a .py file's
                py[rel] = scan
            else:
                assert isinstance(scan, NativeScan)
                native[rel] = scan
    for rel, summary in index.files.items():
        fresh["py:" + summary.sha] = py[rel]
    for rel in natives:
        st = os.stat(root / rel)
        fresh[f"native:{rel}:{st.st_mtime_ns}:{st.st_size}"] = native[rel]
    if use_cache and (todo or len(fresh) != len(cached)):
        write_cache(cache_file, fresh)
        for stale in cache_file.parent.glob(f"scan-{content_hash(str(root).encode())}-*.pkl"):
            if stale != cache_file:  # written by an older scanner: never read again
                stale.unlink(missing_ok=True)
    return TreeScan(dict(sorted(py.items())), dict(sorted(native.items())), scanned=len(todo))
