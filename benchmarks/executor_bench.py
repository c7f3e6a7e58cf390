"""The executors on the batch engine's fixture project (tests/apply/fixtures/executor_proj: real checks, one batch
whose bisection checks several candidate trees), no result cache: the local pool with 1 and N workers, and Ray on
a new local cluster with the trees read in place and shipped as tarballs. Prints the seconds of each, the Ray
cluster's start apart, and whether every result equals the local one. The fixture's checks take milliseconds, so
the Ray rows are its overhead.

    python benchmarks/executor_bench.py [N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from slimfork.verify.executor import LocalExecutor  # noqa: E402
from tests.apply.executor_kit import shrink_fixture  # noqa: E402


def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}

        def timed(name, executor):
            start = time.perf_counter()
            runs[name] = shrink_fixture(Path(tmp), name, executor)
            print(f"{name:>24}: {time.perf_counter() - start:6.2f} s", flush=True)

        timed("local, 1 worker", LocalExecutor(1))
        timed(f"local, {n} workers", LocalExecutor(n))
        import ray

        from slimfork.verify.ray_executor import RayExecutor

        start = time.perf_counter()
        in_place = RayExecutor(jobs=n)
        print(f"{'Ray cluster start':>24}: {time.perf_counter() - start:6.2f} s", flush=True)
        timed(f"ray, {n} workers", in_place)
        timed(f"ray, {n} workers, again", in_place)
        timed(f"ray, {n}, trees shipped", RayExecutor(jobs=n, ship=True))
        ray.shutdown()
        local = runs[f"local, {n} workers"]  # with one worker a bisection checks other trees (the same verdict)
        print(f"every result equals the local one with {n} workers:", all(r == local for name, r in runs.items()
                                                                        if name != "local, 1 worker"))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
