"""Native sources a Buck or Bazel build file names (``srcs = [...]``, ``glob([...])``, file labels
``":name.cu"``/``"//pkg/dir:name.cu"``, in ``BUCK``, ``TARGETS``, ``BUILD``, ``BUILD.bazel``) are built: the audit
read CMake, make, meson and shell builds, never these, so a Buck-built source nothing else names was "no Python
string, loader, build file or #include in the tree names it" (70; session 42's leftover, tritonbench's
``w2a16_gemm_lib``). A source no build file names is still reported; a commented-out name builds nothing."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

_KERNEL = "__global__ void {0}_kernel(float* y) {{ y[0] = 1; }}\n\nvoid {0}(float* y) {{ {0}_kernel<<<1, 1>>>(y); }}\n"
FILES = {
    "pyproject.toml": '[project]\nname = "tb"\nversion = "1"\n',
    "tb/__init__.py": "",
    "tb/ops.py": 'import torch\n\ntorch.ops.load_library("//tb/kernels:gemm_lib")\n',
    "tb/kernels/BUCK": 'cpp_library(\n    name = "gemm_lib",\n'
                       '    srcs = ["gemm.cu", ":bind.cpp"] + glob(["tiles/*.cu"]),\n    # srcs = ["old.cu"],\n)\n',
    "tb/kernels/gemm.cu": _KERNEL.format("gemm"),
    "tb/kernels/bind.cpp": "void gemm(float* y);\n\nvoid bind(float* y) { gemm(y); }\n",
    "tb/kernels/tiles/tile.cu": _KERNEL.format("tile"),
    "tb/kernels/old.cu": _KERNEL.format("old"),
    "bz/BUILD.bazel": 'cc_library(name = "scan", srcs = ["//bz:scan.cc"])\n',
    "bz/scan.cc": _KERNEL.format("scan"),
}


def test_sources_a_buck_or_bazel_build_file_names_are_built(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert not [s for s in sources if any(n in s for n in ("gemm.cu", "bind.cpp", "tile.cu", "scan.cc"))], sources
    assert sources.get("source:tb/kernels/old.cu", 0) >= 60


OUTSIDE = {
    "pyproject.toml": '[project]\nname = "tb"\nversion = "1"\n',
    "tb/__init__.py": "",
    "tb/ops.py": 'import torch\n\ntorch.ops.load_library("//monorepo/tb/tb/kernels:gemm_lib")\n',
    "tb/kernels/gemm.cu": _KERNEL.format("gemm"),
    "tb/other/old.cu": _KERNEL.format("old"),
}


def test_a_source_in_a_folder_a_label_names_whose_build_is_outside_the_tree_is_unsure(tmp_path):
    """tritonbench: the BUCK file of ``//pytorch/tritonbench/.../kernels:w2a16_gemm_lib`` is not in the tree (the
    label's path starts above the tree's root): a source of that folder nothing names may be a source of the
    target, 40; one in a folder no label names stays at 70."""
    result, _table = run_audit(open_tree(write_project(tmp_path, OUTSIDE, "")))
    sources = {f.subject: f for f in result.findings if f.subject.startswith("source:")}
    gemm = sources["source:tb/kernels/gemm.cu"]
    assert gemm.confidence == 40 and "//monorepo/tb/tb/kernels:gemm_lib" in gemm.reason
    assert sources["source:tb/other/old.cu"].confidence == 70
