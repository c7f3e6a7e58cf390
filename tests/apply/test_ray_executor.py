"""The Ray executor gives the local pool's result: the same baselines, the same bisection verdicts, the same fork,
on a local Ray cluster (2 CPUs), with the trees read in place and shipped to the workers as tarballs.

Ray is a test requirement (pyproject's ``test`` extra): without it this test fails, it is never skipped."""

from __future__ import annotations

import pytest

from slimfork.verify.executor import LocalExecutor

from tests.apply.executor_kit import DELETED, shrink_fixture


@pytest.mark.xdist_group("ray")
def test_the_ray_executor_gives_the_local_result(tmp_path):
    local = shrink_fixture(tmp_path, "local", LocalExecutor(2))  # first: no fork after Ray's threads start
    [batch] = local["batches"]
    assert sorted(r["path"] for r in batch["restored"]) == ["pkg/extra.py", "pkg/util.py"]
    assert len(batch["removed"]) == len(DELETED) - 2 and batch["candidates"] > 2

    import ray  # a missing ray fails here: it is in the test requirements

    from slimfork.verify.ray_executor import RayExecutor, runtime_env

    ray.init(num_cpus=2, runtime_env=runtime_env(), include_dashboard=False, log_to_driver=False)
    try:
        in_place = RayExecutor(jobs=2)
        assert (in_place.workers, in_place.ship) == (2, False)  # one node: the tree is on its filesystem
        assert shrink_fixture(tmp_path, "ray", in_place) == local
        shipped = RayExecutor(jobs=2, ship=True)
        assert shrink_fixture(tmp_path, "ray-shipped", shipped) == local
        # the command's baseline, the module imports (the import check's baseline runs here and sends them) and
        # the bisection's rounds of several trees went to the cluster
        assert in_place.submitted == shipped.submitted
        assert in_place.submitted["_baseline_job"] == 1 and in_place.submitted["_import_share"] >= 2
        assert in_place.submitted["_evaluate"] > 2
    finally:
        ray.shutdown()
