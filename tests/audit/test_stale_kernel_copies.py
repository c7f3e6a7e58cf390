"""llm-awq (``e65873f^``) and gemlite (``af68488^``): a stale copy of a CUDA file nothing builds
(``gemm_cuda_old.cu`` beside ``gemm_cuda.cu``) defines kernels of the live file's names; the live file's launches
were counted for both copies (names matched across files), so the copy's kernels were never reported one by one.
A launch resolves to the kernel its translation unit sees (the file and what it includes) when that defines one;
the copy's kernels are then used only in code nothing reaches (60). A launcher in a file that does not define
the kernel still reaches every definition of the name (linking)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

GEMM = """
__global__ void gemm_kernel(float* c) { c[0] = 1; }

void gemm_forward(float* c) { gemm_kernel<<<1, 1>>>(c); }
"""

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='aw', packages=['aw'], ext_modules=[CUDAExtension('aw_ext', "
                "['csrc/gemm.cu', 'csrc/pybind.cpp', 'csrc/scale.cu'])])\n",
    "aw/__init__.py": "import aw_ext\n\n\ndef gemm(c):\n    return aw_ext.gemm_forward(c), aw_ext.scale(c)\n",
    "csrc/gemm.cu": GEMM,
    "csrc/gemm_old.cu": GEMM.replace("c[0] = 1", "c[0] = 2"),
    "csrc/kernels.cuh": "__global__ void scale_kernel(float* c) { c[0] *= 2; }\n",
    "csrc/old/kernels.cuh": "__global__ void scale_kernel(float* c) { c[0] *= 3; }\n",
    "csrc/scale.cu": '#include "kernels.cuh"\nvoid scale(float* c) { scale_kernel<<<1, 1>>>(c); }\n',
    "csrc/pybind.cpp": 'void gemm_forward(float*);\nvoid scale(float*);\n'
                       'PYBIND11_MODULE(aw_ext, m) { m.def("gemm_forward", &gemm_forward); m.def("scale", &scale); }\n',
    "tests/test_gemm.py": "from aw import gemm\n\n\ndef test_gemm():\n    assert gemm(1)\n",
}


def test_a_stale_copys_kernels_are_not_launched_by_the_live_copy(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("cuda:csrc/gemm_old.cu::gemm_kernel") == 60
    assert "cuda:csrc/gemm.cu::gemm_kernel" not in found
    assert "cuda:csrc/kernels.cuh::scale_kernel" not in found  # included, so seen by scale.cu
    assert found.get("source:csrc/old/kernels.cuh", 0) >= 60
    assert found.get("cuda:csrc/old/kernels.cuh::scale_kernel", 0) >= 60
