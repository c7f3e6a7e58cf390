"""Where check jobs run: one interface for the parallel points of a run (the checks' baselines on the original, the
candidate trees of a bisection), a local pool by default and a Ray cluster on request.

A ``Job`` is a function, its arguments and the tree it checks: ``fn(tree, *args)``. ``Executor.map`` runs jobs and
returns their results in order. A job marked ``isolated`` may change the objects it is given (a check's state), so
it runs in a process of its own; the others run in threads and share them. A job that is not ``portable`` (its
result leans on this process) runs here, even with a remote executor. Cancellation (Ctrl-C, SIGTERM) kills every
check process at once, as ``cancel`` does.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from slimfork.errors import SlimforkError
from slimfork.verify import cancel
from slimfork.workers import frozen_heap

EXECUTORS = ("local", "ray")
RAY_HINT = "pip install ray (or pip install 'slimfork[ray]'), or leave --executor out for the local pool"


@dataclass(frozen=True)
class Job:
    fn: Callable[..., Any]  # a module-level function, so it pickles: fn(tree, *args)
    tree: Path
    args: tuple = ()
    isolated: bool = False  # it may mutate its arguments: run it in a process of its own
    portable: bool = True  # its result and arguments pickle and mean the same in another process or machine


class Executor(Protocol):
    name: str
    workers: int  # jobs run at the same time (a bisection checks this many trees a round)

    def map(self, jobs: list[Job]) -> list: ...


@dataclass
class LocalExecutor:
    """Threads, or forked processes for isolated jobs: the behaviour of a run without ``--executor``."""

    workers: int = 1
    name: str = "local"

    def map(self, jobs: list[Job]) -> list:
        if not jobs:
            return []
        width = max(1, min(self.workers, len(jobs)))
        if width == 1:
            return [_call(job) for job in jobs]
        if not any(job.isolated for job in jobs):
            return cancel.thread_map(_call, jobs, width)
        _SHARED[id(self)] = jobs  # a forked worker inherits them: nothing but the index is pickled
        try:
            with frozen_heap(), multiprocessing.get_context("fork").Pool(width, initializer=_quiet_worker) as pool:
                return pool.starmap(_call_shared, [(id(self), i) for i in range(len(jobs))], chunksize=1)
        finally:
            _SHARED.pop(id(self), None)


def _call(job: Job) -> Any:
    return job.fn(job.tree, *job.args)


_SHARED: dict[int, list[Job]] = {}


def _call_shared(owner: int, index: int) -> Any:
    return _call(_SHARED[owner][index])


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and terminates the pool
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def check_executor(kind: str | None, address: str | None = None) -> None:
    """Before any work: an unknown executor, an address without Ray, or Ray not installed is exit 2 now."""
    if kind not in (None, *EXECUTORS):
        raise SlimforkError(f"unknown executor {kind!r}", key="--executor", hint=f"one of: {', '.join(EXECUTORS)}")
    if address and kind != "ray":
        raise SlimforkError("--ray-address needs --executor ray", key="--ray-address",
                            hint="add --executor ray, or leave --ray-address out")
    if kind == "ray" and importlib.util.find_spec("ray") is None:
        raise SlimforkError("ray is not installed", key="--executor", hint=RAY_HINT)
    host, _, port = (address or "").removeprefix("ray://").rpartition(":")
    if host and port.isdigit():  # Ray retries an unreachable head for minutes: say it now
        try:
            socket.create_connection((host, int(port)), timeout=5).close()
        except OSError as exc:
            raise SlimforkError(f"no Ray cluster answers at {address}: {exc}", key="--ray-address",
                                hint="start one with `ray start --head`, or check the address") from None


def make_executor(kind: str | None, jobs: int | None = None, address: str | None = None) -> Executor:
    """The executor a run asked for: ``local`` (``jobs`` workers, default the cores) or ``ray`` (a cluster at
    ``address``, default a local one; ``jobs`` caps the trees checked at once)."""
    check_executor(kind, address)
    if kind == "ray":
        from slimfork.verify.ray_executor import RayExecutor

        return RayExecutor(address=address, jobs=jobs)
    return LocalExecutor(max(1, jobs or os.cpu_count() or 1))
