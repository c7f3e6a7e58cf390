"""Check jobs on a Ray cluster (``--executor ray``, ``--ray-address``); ray is imported only here, only then.

Each job carries the tree it checks: where the cluster has a node other than this one (the tree is not on its
filesystem), the tree is packed once per round as a tarball into the object store and each job unpacks it into a
temporary folder of its worker; on a single-node cluster the job reads the tree in place. The workers run this
very slimfork (its package ships as the job's ``py_modules``). The checks' environment (the verification venv, the
tools a command runs) and the original source, whose files the pyflakes check reads, must be at the same paths on
every node (a shared cache folder), as on this machine.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import slimfork
from slimfork.errors import SlimforkError
from slimfork.verify import cancel
from slimfork.verify.executor import RAY_HINT, Job, LocalExecutor, _call


def runtime_env() -> dict[str, Any]:
    """What every worker needs: this slimfork's package (a cluster's nodes may have none, or another version)."""
    return {"py_modules": [str(Path(slimfork.__file__).parent)]}


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None = None, jobs: int | None = None, ship: bool | None = None):
        try:
            import ray
        except ImportError:
            raise SlimforkError("ray is not installed", key="--executor", hint=RAY_HINT) from None
        self._ray = ray
        if not ray.is_initialized():
            options: dict[str, Any] = {"address": address, "runtime_env": runtime_env(), "include_dashboard": False,
                                       "log_to_driver": False, "configure_logging": False}
            if address is None and not os.environ.get("RAY_ADDRESS"):
                options["num_cpus"] = jobs or os.cpu_count() or 1  # a new local cluster
            try:
                ray.init(**options)
            except Exception as exc:
                raise SlimforkError(f"cannot start or reach the Ray cluster{f' at {address}' if address else ''}: "
                                    f"{type(exc).__name__}: {exc}", key="--ray-address",
                                    hint="start one with `ray start --head`, or check the address") from None
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = min(jobs, cpus) if jobs else cpus
        self.ship = _other_nodes(ray) if ship is None else ship
        self._remote = ray.remote(num_cpus=1, max_retries=1)(_run_remote)
        self.submitted: Counter[str] = Counter()  # jobs sent to the cluster, by function

    def map(self, jobs: list[Job]) -> list:
        ray = self._ray
        remote = [i for i, job in enumerate(jobs) if job.portable]
        counts: dict[int, int] = {}
        for i in remote:
            for arg in jobs[i].args:
                counts[id(arg)] = counts.get(id(arg), 0) + 1
        shared: dict[int, Any] = {}  # an argument several jobs share (the ladder) goes to the object store once
        packed: dict[Path, Any] = {}
        refs = []
        for i in remote:
            job = jobs[i]
            if self.ship and job.tree not in packed:
                packed[job.tree] = ray.put(pack(job.tree))
            args = []
            for arg in job.args:
                if counts[id(arg)] > 1 and id(arg) not in shared:
                    shared[id(arg)] = ray.put(arg)
                args.append(shared.get(id(arg), arg))
            refs.append(self._remote.remote(job.fn, str(job.tree), packed.get(job.tree), *args))
        self.submitted.update(jobs[i].fn.__name__ for i in remote)
        try:
            here = LocalExecutor(self.workers).map([j for j in jobs if not j.portable])
            done = ray.get(refs)
        except ray.exceptions.RayTaskError as exc:
            self._cancel(refs)
            raise exc.as_instanceof_cause() from None
        except BaseException:
            self._cancel(refs)
            raise
        out: list = [None] * len(jobs)
        for i, result in zip(remote, done):
            out[i] = result
        for i, result in zip([i for i, j in enumerate(jobs) if not j.portable], here):
            out[i] = result
        return out

    def _cancel(self, refs: list) -> None:
        """Ctrl-C: each running job is interrupted (its check processes killed), then whatever is left killed."""
        cancel.cancel_all()
        for ref in refs:
            try:
                self._ray.cancel(ref)
            except Exception:
                pass
        _, left = self._ray.wait(refs, num_returns=len(refs), timeout=5)
        for ref in left:
            try:
                self._ray.cancel(ref, force=True)
            except Exception:
                pass


def _other_nodes(ray) -> bool:
    """Whether the cluster has a node other than this one (whose filesystem this tree is not on)."""
    try:
        here = ray.get_runtime_context().get_node_id()
        return any(n["NodeID"] != here for n in ray.nodes() if n.get("Alive"))
    except Exception:  # a client connection has no node here
        return True


def pack(tree: Path) -> bytes:
    """The tree as a tarball: files and symlinks, no ``.git`` (as ``apply.tree.copy_tree`` copies it)."""
    buf = io.BytesIO()

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        name = Path(info.name).name
        return None if name == ".git" or not (info.isfile() or info.isdir() or info.issym()) else info

    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=1) as tar:
        for entry in sorted(os.listdir(tree)):
            tar.add(os.path.join(tree, entry), arcname=entry, filter=keep)
    return buf.getvalue()


def _run_remote(fn, tree: str, packed: bytes | None, *args):
    """On a worker: the job on its tree, unpacked into a temporary folder when it was shipped."""
    cancel.reset()  # a worker process runs many jobs: one cancelled before must not stop this one
    where = None
    try:
        if packed is not None:
            where = tempfile.mkdtemp(prefix="slimfork-tree-")
            with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as tar:
                tar.extractall(where, filter="fully_trusted")
        return _call(Job(fn, Path(where or tree), args))
    except BaseException:
        cancel.cancel_all()  # interrupted: no check process of this job outlives it
        raise
    finally:
        if where is not None:
            shutil.rmtree(where, ignore_errors=True)
