"""Forked workers leave the parent's heap frozen while they live, and the freeze ends with the outermost pool."""

from __future__ import annotations

import gc

from slimfork.workers import fork_pool, frozen_heap


def _frozen(_):
    return gc.get_freeze_count()


def test_the_heap_is_frozen_while_a_pool_lives_and_not_after():
    gc.unfreeze()
    keep = [object() for _ in range(100)]
    with fork_pool(2) as pool:
        assert gc.get_freeze_count() >= len(keep)
        # a child inherits the frozen generation: its collections do not touch (and copy) the parent's objects
        assert all(n >= len(keep) for n in pool.map(_frozen, range(2)))
        with frozen_heap():
            pass
        assert gc.get_freeze_count() >= len(keep)  # an inner block does not end the outer freeze
    assert gc.get_freeze_count() == 0


INTERRUPTED = r"""
import os, signal, sys, threading, time
sys.path.insert(0, sys.argv[1])
from slimfork.workers import fork_pool

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (a background job ignores it)

def quick(x):
    return x

try:
    with fork_pool(2) as pool:
        list(pool.map(quick, range(4)))
        threading.Timer(0.5, lambda: os.killpg(os.getpgrp(), signal.SIGINT)).start()
        time.sleep(5)  # the parent at other work, its workers idle
except KeyboardInterrupt:
    import multiprocessing
    print("children:", len(multiprocessing.active_children()))
    sys.exit(130)
"""


def test_ctrl_c_in_a_pool_kills_its_workers_and_exits(tmp_path):
    """Ctrl-C reaches the workers too (the process group): none prints a traceback, and the parent, interrupted,
    leaves no worker behind and exits (it hung at exit, waiting for a worker that waited for work)."""
    import subprocess
    import sys
    from pathlib import Path

    src = str(Path(__file__).resolve().parents[2] / "src")
    run = subprocess.run([sys.executable, "-c", INTERRUPTED, src], capture_output=True, text=True, timeout=60,
                         start_new_session=True)
    assert run.returncode == 130, run.stderr
    assert "children: 0" in run.stdout
    assert "Traceback" not in run.stderr, run.stderr
