"""nvcc compile check: five DeepSeek JIT units compile in the fork wherever they compile in the original.

The fork here is the strictest one: kernel sources folded with the NVIDIA facts, then every kernel source
that the five units do not reach through their includes removed. Needs nvcc (no GPU); skipped without it.
"""

from __future__ import annotations

import shutil

import pytest

from slimfork.kernels.compile_check import check_fork_compiles, find_nvcc, tvm_ffi_includes
from slimfork.kernels.includes import include_closure, kernel_source_files
from slimfork.kernels.unifdef import fold_kernel_sources
from slimfork.source.fetch import fetch_pypi
from tests.kernels.sglang_profile import DEEPSEEK_UNITS, NVIDIA

pytestmark = pytest.mark.slow


def test_deepseek_units_compile_in_the_fork(tmp_path, unifdef_tool):
    nvcc = find_nvcc()
    if nvcc is None:
        pytest.skip("nvcc not found (set CUDA_HOME or put nvcc on PATH); CI machines have it")
    original = fetch_pypi("sglang", "0.5.23") / "sglang" / "kernels" / "jit"
    fork = tmp_path / "jit"
    for part in ("csrc", "include"):
        shutil.copytree(original / part, fork / part)
    files = kernel_source_files(fork)
    report = fold_kernel_sources(fork, files, NVIDIA)
    closure = include_closure(fork, [f"csrc/{f}" for u in DEEPSEEK_UNITS for f in u.cuda_files], ["include"])
    for rel in set(files) - set(closure.reached):
        (fork / rel).unlink()
    folded = {f.path for f in report.folded()}
    exercised = sorted(folded & set(closure.reached))
    assert len(exercised) >= 6, exercised  # the units really exercise folded sources (hicache.cuh, the shared headers)
    assert len(set(files) - set(closure.reached)) > 250  # and the fork really lacks everything else

    checks = check_fork_compiles(original, fork, DEEPSEEK_UNITS, tvm_ffi_includes("0.1.11"), nvcc, jobs=2)
    for check in checks:
        assert check.original.ok, f"{check.unit.name} does not compile in the original:\n{check.original.log}"
        assert check.passed, f"{check.unit.name} compiles in the original but not in the fork:\n{check.fork.log}"
    print({c.unit.name: (round(c.original.seconds), round(c.fork.seconds)) for c in checks})
