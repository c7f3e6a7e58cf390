"""The real sglang 0.5.23 kernel sources folded with the NVIDIA facts (downloads the wheel; cached)."""

from __future__ import annotations

import re
import shutil
from collections import Counter

import pytest

from slimfork.kernels.includes import kernel_source_files, plan_kernel_sources
from slimfork.kernels.unifdef import (PYTHON_ENGINE, FOLDED_SUFFIXES, condition_text, directive_lines,
                                      fold_kernel_sources)
from slimfork.source.fetch import fetch_pypi
from tests.kernels.sglang_profile import NVIDIA, PLATFORM_MACROS

pytestmark = pytest.mark.slow
_CUDA = re.compile(r"\b(__CUDA_ARCH__|CUDA_VERSION)\b")


def _conditions(data: bytes) -> list[str]:
    lines = data.decode("latin-1").splitlines()
    return [lines[i] for i in directive_lines(lines) if condition_text(lines[i])]


def _copy_kernels(src, dest):
    files = [f for f in kernel_source_files(src) if not f.endswith(".py")]
    for rel in files:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / rel, dest / rel)
    return files


def test_nvidia_facts_fold_sglang_kernels(tmp_path):
    """With the Python unifdef, what a machine without the binary gets (test_pyunifdef: the binary folds the same)."""
    src = fetch_pypi("sglang", "0.5.23")
    files = _copy_kernels(src, tmp_path)
    report = fold_kernel_sources(tmp_path, files, NVIDIA, engine=PYTHON_ENGINE)
    assert report.engine == "python"
    assert report.left_alone() == []
    folded = [f for f in files if f.endswith(FOLDED_SUFFIXES)]
    kept_cuda, reduced_cuda, original_cuda = Counter(), Counter(), Counter()
    for rel in folded:
        before, after = _conditions((src / rel).read_bytes()), _conditions((tmp_path / rel).read_bytes())
        for line in after:
            words = set(re.findall(r"\w+", condition_text(line)))
            assert not words & PLATFORM_MACROS, f"{rel}: {line}"
            if _CUDA.search(line):
                # A __CUDA_ARCH__/CUDA_VERSION conditional is byte-identical to one of the original, or is an
                # original one with only its platform terms removed.
                assert line in before or any(_CUDA.search(b) and set(re.findall(r"\w+", condition_text(b)))
                                             & PLATFORM_MACROS for b in before), f"{rel}: {line}"
                (kept_cuda if line in before else reduced_cuda)[rel] += 1
        untouched = [b for b in before if _CUDA.search(b) and not set(re.findall(r"\w+", b)) & PLATFORM_MACROS]
        original_cuda[rel] += len(untouched)
    # Measured on sglang 0.5.23 with these facts.
    assert len(report.folded()) == 41
    assert report.directives_folded == 365 and report.lines_removed == 1912
    assert sum(f.expressions_reduced for f in report.files) == 25
    print(f"cuda conditionals: {sum(original_cuda.values())} before, {sum(kept_cuda.values())} kept identical, "
          f"{sum(reduced_cuda.values())} with platform terms dropped")
    assert original_cuda == kept_cuda and sum(kept_cuda.values()) == 66
    assert sum(reduced_cuda.values()) == 25
    again = fold_kernel_sources(tmp_path, files, NVIDIA, engine=PYTHON_ENGINE)
    assert again.folded() == [] and again.left_alone() == []


def test_include_closure_on_folded_sglang(tmp_path, unifdef_tool):
    src = fetch_pypi("sglang", "0.5.23")
    files = _copy_kernels(src, tmp_path)
    fold_kernel_sources(tmp_path, files, NVIDIA)
    # Kept Python for this measurement: everything but the ROCm-only loaders and the diffusion stack.
    rocm_or_diffusion = re.compile(r"(hip|gfx9|amd|aiter|multimodal_gen|/diffusion/)")
    kept = [p.relative_to(src).as_posix() for p in (src / "sglang").rglob("*.py")
            if not rocm_or_diffusion.search(p.relative_to(src).as_posix())]
    plan = plan_kernel_sources(tmp_path, kept, ["sglang/kernels/jit/csrc"], ["sglang/kernels/jit/include"],
                               files=files, python_root=src)
    removed = {r.path for r in plan.removals}
    assert plan.uncertain == []
    assert {f for f in files if f.endswith((".hip", ".s"))} <= removed
    assert "sglang/kernels/jit/csrc/dsa_gfx950/topk_transform.cuh" in removed
    assert "sglang/kernels/jit/csrc/elementwise/concat_mla.cuh" not in removed
    assert "sglang/kernels/jit/include/sgl_kernel/utils.cuh" not in removed
    print(f"kernel sources: {len(files)}, removed {len(removed)} "
          f"({sum(r.lines for r in plan.removals)} lines)")
