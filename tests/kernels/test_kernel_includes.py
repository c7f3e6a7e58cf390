"""Python-side kernel references and the include graph, on a small tree with every kind of kernel file."""

import shutil
from pathlib import Path

import pytest

from slimfork.kernels.includes import (build_include_graph, include_closure, kernel_source_files,
                                       plan_kernel_sources)
from slimfork.kernels.jitrefs import python_kernel_refs
from slimfork.kernels.spec import PreprocessorFacts
from slimfork.kernels.unifdef import fold_kernel_sources

FIXTURE = Path(__file__).parent / "fixtures" / "tree"
CSRC = ["pkg/jit/csrc"]
INCLUDE = ["pkg/jit/include"]
NVIDIA = PreprocessorFacts(undefined=("USE_ROCM",))


@pytest.fixture
def tree(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "tree")
    return tmp_path / "tree"


def test_kernel_source_files_lists_every_kind():
    files = kernel_source_files(FIXTURE)
    assert "pkg/ops/gemm.hip" in files and "pkg/ops/asm/k.s" in files and "pkg/jit/include/lib/extra.h" in files
    assert not any(f.endswith(".py") for f in files)


def test_load_jit_references():
    refs = python_kernel_refs((FIXTURE / "pkg/ops/attn.py").read_text())
    calls = {c.name: c for c in refs.jit_calls}
    assert calls["attn"].cuda_files == ("attn/attn.cuh",)
    assert calls["attn"].wrappers == (("run", "AttnKernel::run"),)
    assert calls["attn"].cuda_cflags == ("-DX=1",) and calls["attn"].dependencies == ("cutlass",)
    assert calls["c"].cuda_files == ("attn/c*.cuh", "attn/extra_unit.cuh")  # f-string and module constant
    assert calls["dyn"].unresolved == ("files",)


def test_other_python_references():
    assert python_kernel_refs((FIXTURE / "pkg/ops/hip_loader.py").read_text()).literals == ["gemm.hip"]
    assert python_kernel_refs((FIXTURE / "pkg/ops/asm/__init__.py").read_text()).dynamic_suffixes == [".s"]


def test_include_resolution_kinds():
    graph = build_include_graph(FIXTURE, include_dirs=INCLUDE)
    edges = {e.spelled: e for e in graph.edges["pkg/jit/csrc/attn/attn.cuh"]}
    assert edges["local.h"].how == "relative" and edges["local.h"].targets == ("pkg/jit/csrc/attn/local.h",)
    assert edges["lib/common.cuh"].how == "include path"
    assert edges["cuda_runtime.h"].how == "outside" and edges["cuda_runtime.h"].targets == ()
    by_name = build_include_graph(FIXTURE)  # no include folders given: matched by name, every match kept
    assert {e.how for e in by_name.edges["pkg/jit/csrc/attn/attn.cuh"]} >= {"by name"}
    asm = build_include_graph(FIXTURE).edges["pkg/ops/asm/k.s"]
    assert asm[0].targets == ("pkg/ops/asm/k_core.s",)


def test_closure_says_why():
    closure = include_closure(FIXTURE, ["pkg/jit/csrc/attn/attn.cuh"], INCLUDE)
    assert closure.why("pkg/jit/csrc/attn/attn.cuh") == "named by kept Python code"
    assert closure.why("pkg/jit/include/lib/common.cuh") == "included by pkg/jit/csrc/attn/attn.cuh:2 (include path)"
    assert closure.why("pkg/jit/csrc/unused/old.cu") is None


def test_folding_first_drops_rocm_only_headers(tree, unifdef_tool):
    kept = ["pkg/ops/attn.py"]
    before = plan_kernel_sources(tree, kept, CSRC, INCLUDE)
    # attn.py has a computed load_jit argument: everything under csrc stays, and the plan says so.
    assert any("computed at run time" in u for u in before.uncertain)
    assert "pkg/jit/include/lib/hip_compat.h" in before.closure.reached
    (tree / "pkg/ops/attn.py").write_text((tree / "pkg/ops/attn.py").read_text().replace(
        "def computed(files):\n    return load_jit(\"dyn\", cuda_files=files)\n", ""))
    fold_kernel_sources(tree, kernel_source_files(tree), NVIDIA)
    plan = plan_kernel_sources(tree, kept, CSRC, INCLUDE)
    assert plan.uncertain == []
    removed = {r.path: r for r in plan.removals}
    assert set(removed) == {"pkg/jit/include/lib/hip_compat.h", "pkg/jit/include/lib/extra.h",
                            "pkg/jit/csrc/unused/old.cu", "pkg/ops/gemm.hip", "pkg/ops/asm/k.s",
                            "pkg/ops/asm/k_core.s"}
    assert all(r.kind == "kernel" and "no kept Python code" in r.reason for r in removed.values())
    assert removed["pkg/jit/csrc/unused/old.cu"].lines == 2
    assert {"pkg/jit/csrc/attn/c4.cuh", "pkg/jit/csrc/attn/c8.cuh", "pkg/jit/csrc/attn/extra_unit.cuh",
            "pkg/jit/csrc/attn/local.h", "pkg/jit/include/lib/common.cuh"} <= set(plan.closure.reached)


def test_python_literals_keep_hip_and_assembly(tree):
    plan = plan_kernel_sources(tree, ["pkg/ops/hip_loader.py", "pkg/ops/asm/__init__.py"], CSRC, INCLUDE)
    reached = plan.closure.reached
    assert reached["pkg/ops/gemm.hip"] == "named in pkg/ops/hip_loader.py"
    assert "builds '*.s' file names" in reached["pkg/ops/asm/k.s"]
    assert "pkg/ops/asm/k_core.s" in reached


def test_computed_include_keeps_its_folder(tree):
    (tree / "pkg/jit/csrc/attn/attn.cuh").write_text('#include KERNEL_HEADER\n')
    closure = include_closure(tree, ["pkg/jit/csrc/attn/attn.cuh"], INCLUDE)
    assert "pkg/jit/csrc/attn/local.h" in closure.reached
    assert closure.uncertain and "computed" in closure.uncertain[0]
