"""The kernel table and unused-kernel findings on fixture projects: a GPU library (Triton, load_jit,
cpp_extension, __global__, TORCH_LIBRARY, pybind) and a Metal library whose Python code looks kernels up by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from slimfork.audit.kernels import kernel_findings
from slimfork.audit.kerneltable import include_closure, kernel_table, referenced_kernel_files
from slimfork.audit.run import AuditOptions, run_audit
from slimfork.index import build_index
from slimfork.source.layout import open_tree

FIXTURES = Path(__file__).parent / "fixtures"


def _table(name: str):
    root = FIXTURES / name
    return kernel_table(root, build_index(root))


def _unused(name: str) -> dict[str, int]:
    result, _table = run_audit(open_tree(FIXTURES / name), options=AuditOptions(kinds={"unused-kernel"}))
    return {f.subject: f.confidence for f in result.findings}


@pytest.fixture(scope="module")
def gpu():
    return _table("gpu_lib").by_id()


def test_triton_kernels_link_to_launch_sites_across_modules(gpu):
    assert [u.where() for u in gpu["triton:gpulib/ops.py::_add_kernel"].uses] == ["gpulib/ops.py:38 in add (call)"]
    # a jit helper called from another kernel is used by it
    assert [u.function for u in gpu["triton:gpulib/ops.py::_helper"].uses] == ["_add_kernel"]
    # imported under an alias in one module and called through the alias in another (re-export chain)
    reexported = {(u.path, u.how) for u in gpu["triton:gpulib/ops.py::_reexported"].uses}
    assert ("gpulib/reexport.py", "import") in reexported and ("gpulib/bench.py", "call") in reexported
    # stacked @triton.autotune / @triton.jit is still a kernel, with no use
    assert gpu["triton:gpulib/ops.py::_never_launched"].uses == []


def test_jit_loader_names_its_sources_and_is_used_through_its_function(gpu):
    scale = gpu["jit:scale"]
    assert scale.sources == ["gpulib/csrc/scale.cuh"]
    assert [u.where() for u in scale.uses] == ["gpulib/ops.py:51 in scale (call)"]
    assert gpu["jit:dead"].sources == ["gpulib/csrc/dead.cuh"] and gpu["jit:dead"].uses == []


def test_cpp_extension_sources_through_a_variable_and_pybind_exports(gpu):
    ext = gpu["cpp-extension:gpulib_ext"]
    assert ext.sources == ["gpulib/csrc/ext_binding.cpp"] and "variable" in ext.note
    assert [u.function for u in gpu["pybind:TORCH_EXTENSION_NAME.fast_norm"].uses] == ["ext_norm"]
    assert gpu["pybind:TORCH_EXTENSION_NAME.slow_norm"].uses == []
    # the loader wrapper in jit.py (sources from its parameters) is not itself a kernel
    assert not any(k.path == "gpulib/jit.py" for k in gpu.values())


def test_torch_library_ops_and_global_functions(gpu):
    assert [u.where() for u in gpu["torch-op:gpulib::fused_add"].uses] == ["gpulib/ops.py:39 in add (call)"]
    assert "torch-op:gpulib::commented" not in gpu  # commented-out m.def
    assert [u.where() for u in gpu["cuda:gpulib/csrc/scale.cuh::scale_kernel"].uses] == \
        ["gpulib/csrc/scale.cuh:13 (launch)"]
    assert "cuda:gpulib/csrc/scale.cuh::commented_out_kernel" not in gpu
    assert gpu["cuda:gpulib/csrc/scale.cuh::unused_global"].uses == []  # __launch_bounds__ handled


def test_unused_kernels_of_the_gpu_library():
    assert _unused("gpu_lib") == {
        "jit:dead": 80,  # the function that loads it is never called
        "triton:gpulib/ops.py::_never_launched": 80,
        "pybind:TORCH_EXTENSION_NAME.slow_norm": 70,
        "source:gpulib/csrc/orphan.cuh": 70,  # nothing names or includes it
        "cuda:gpulib/csrc/scale.cuh::unused_global": 70,
        "cuda:gpulib/csrc/dead.cuh::dead_kernel": 60,  # launched only from a source nothing live loads
        "source:gpulib/csrc/dead.cuh": 60,  # named only by the uncalled loader
        "torch-op:gpulib::never_called": 40,  # called only from gpulib/unreached.py; a registered op is public API
        "cuda:gpulib/csrc/orphan.cuh::orphan_kernel": 60,
        "triton:gpulib/ops.py::_launched_only_by_unreached": 40,  # launched only by unreached.py, a public module
        # launched only by functions nothing calls (one of them called only by the other)
        "triton:gpulib/legacy_scale.py::_cumsum_kernel": 50,
        "triton:gpulib/legacy_scale.py::_pad_kernel": 50,
    }


def test_referenced_kernel_files_for_the_shrink_pipeline():
    table = _table("gpu_lib")
    kept = referenced_kernel_files(table, {"gpulib/ops.py", "gpulib/__init__.py"})
    assert set(kept) == {"gpulib/csrc/scale.cuh", "gpulib/csrc/dead.cuh", "gpulib/csrc/ext_binding.cpp",
                         "gpulib/csrc/ops.cpp"}
    assert kept["gpulib/csrc/scale.cuh"] == "named by gpulib/ops.py:43 in _jit_scale_module (loader load_jit)"
    assert kept["gpulib/csrc/ops.cpp"].startswith("named by gpulib/ops.py:39 in add")
    assert referenced_kernel_files(table, {"gpulib/bench.py"}) == {}
    closure = include_closure(table, {"gpulib/csrc/scale.cuh"})
    assert closure == {"gpulib/csrc/scale.cuh": "", "gpulib/csrc/common.cuh": "gpulib/csrc/scale.cuh"}


def test_metal_kernels_looked_up_by_name():
    table = _table("metal_lib")
    metal = {k.name: k for k in table.kernels if k.kind == "metal"}
    assert sorted(metal) == ["dequant_int4_kernel", "dequant_int8_kernel", "flash_attention_v1", "gemm_bf16_experimental",
                             "gemm_fp16", "gemm_fp32", "layernorm_fused", "rmsnorm_fused"]  # template itself skipped
    assert [u.how for u in metal["gemm_fp16"].uses] == ["string"]
    assert [(u.path, u.how) for u in metal["dequant_int8_kernel"].uses] == [("metallib/gemm.py", "pattern")]
    assert set(table.file_uses) == {"src/gemm.metal", "src/fusion/norm.metal"}
    assert _unused("metal_lib") == {
        "metal:src/gemm.metal::gemm_bf16_experimental": 80,
        "metal:src/fusion/norm.metal::layernorm_fused": 80,
        "metal:src/attention_legacy.metal::flash_attention_v1": 80,
        "source:src/attention_legacy.metal": 70,
    }


def test_without_reachability_every_use_counts():
    table = _table("gpu_lib")
    subjects = {f.subject for f in kernel_findings(table, None)}
    assert "triton:gpulib/ops.py::_launched_only_by_unreached" not in subjects
    assert "triton:gpulib/ops.py::_never_launched" in subjects


def test_kernel_name_patterns_need_their_constant_text_and_a_plausible_suffix():
    table = _table("metal_patterns")
    metal = {k.name: k for k in table.kernels if k.kind == "metal"}
    # macro-generated kernels and kernels in a Python source string are inventoried
    assert {"gemm_t32", "gemm_t64", "gemm_v16x16", "sampler_topk", "sampler_unused"} <= set(metal)
    assert metal["sampler_topk"].path == "metalpat/ops.py" and metal["sampler_topk"].line == 7
    unused = {s.split("::")[-1] for s in _unused("metal_patterns")}
    # f"hadamard_{block_size}": a number after the prefix; f"moe_expert_{dtype}": one or two name tokens
    # and a formatted part may be empty: f"moe{pre}_gather_x" with pre = ""
    assert {"hadamard_32", "hadamard_64", "moe_expert_bf16", "moe_expert_fp4_e2m1", "gemm_t64",
            "sampler_topk", "moe_gather_x"}.isdisjoint(unused)
    # a longer tail, an f"expert_{idx}" dict key, a name only __all__ lists, an unused macro/string kernel
    assert {"hadamard_transform_fused", "moe_expert_fp4_e2m1_split_k", "expert_gather_fp4", "expert_scatter",
            "dequant_fp4", "gemm_t32", "sampler_unused"} <= unused


def test_a_kernel_file_whose_kernels_are_all_unused_is_one_finding():
    found = _unused("metal_patterns")
    assert found["kernels-of:src/legacy.metal"] == 80 and not any(s.startswith("kernels-of:src/hadamard") for s in found)
