"""Worker processes forked from this one without copying its heap.

A forked child shares the parent's pages until it writes to them, and the cyclic garbage collector writes to every
object it tracks. While a pool forks, the objects alive move to the collector's permanent generation
(``gc.freeze``), so a child's collections leave them alone: with sglang's index loaded, each worker's private
memory drops from about 380 MB to 180 MB."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context

_depth = 0


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Freeze the heap for as long as the block runs (nested blocks: until the outermost ends)."""
    global _depth
    if _depth == 0:
        gc.freeze()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            gc.unfreeze()


@contextmanager
def fork_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers forked from this process, its heap frozen while they live."""
    with frozen_heap(), ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("fork")) as pool:
        yield pool
