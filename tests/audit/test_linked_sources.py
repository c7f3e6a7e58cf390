"""A CUDA source no build file, string or include names, whose function a live source beside it binds
(tritonbench ``b519f89^``: ``mixed_gemm/kernels/torch_op.cpp`` defines the op the Python calls and binds
``w2a16``, defined in ``w2a16_gemm.cu``; ``torch.ops.load_library("//.../kernels:w2a16_gemm_lib")`` loads what a
Buck target outside the tree builds): ``w2a16_gemm.cu`` was "no Python string, loader, build file or #include in
the tree names it" (70) and its header 60. Compiled sources of one folder that use each other's functions are
linked into one library: live with it. A source whose functions nothing beside it uses stays unnamed."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "tb"\nversion = "1"\n',
    "tb/__init__.py": "",
    "tb/mixed/__init__.py": "",
    "tb/mixed/op.py": 'import torch\n\ntorch.ops.load_library("//tb/mixed/kernels:w2a16_gemm_lib")\n\n\n'
                      "def run(x, w):\n    return torch.ops.mixed_gemm.w2a16_gemm(x, w)\n",
    "tests/test_op.py": "from tb.mixed.op import run\n\n\ndef test_run():\n    run(1, 2)\n",
    "tb/mixed/kernels/torch_op.cpp": '#include <torch/library.h>\n\nat::Tensor w2a16(at::Tensor x, at::Tensor w);\n\n'
                                     'TORCH_LIBRARY(mixed_gemm, m) {\n'
                                     '  m.def("w2a16_gemm(Tensor X, Tensor WQ) -> Tensor");\n}\n\n'
                                     'TORCH_LIBRARY_IMPL(mixed_gemm, CUDA, m) {\n  m.impl("w2a16_gemm", w2a16);\n}\n',
    "tb/mixed/kernels/helper.h": "#pragma once\ninline int tile() { return 4; }\n",
    "tb/mixed/kernels/w2a16_gemm.cu": '#include "helper.h"\n#include <torch/extension.h>\n\n'
                                      "__global__ void gemm_kernel(float* y) { y[0] = tile(); }\n\n"
                                      "at::Tensor w2a16(at::Tensor x, at::Tensor w) {\n"
                                      "  gemm_kernel<<<1, 1>>>(x.data_ptr<float>());\n  return x;\n}\n",
    "tb/mixed/kernels/old_gemm.cu": "__global__ void old_kernel(float* y) { y[0] = 1; }\n\n"
                                    "void old_launch(float* y) { old_kernel<<<1, 1>>>(y); }\n",
}


def test_a_source_whose_function_a_live_source_beside_it_binds_is_live(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert not [s for s in found if "w2a16_gemm.cu" in s or "helper.h" in s]
    # nothing beside it uses it: unlinked; the Buck label naming its folder keeps it at 40 (test_buck_build_files)
    assert found.get("source:tb/mixed/kernels/old_gemm.cu", 0) == 40
