"""aiter (``ee9114bd48^``): a block comment inside a multi-line ``#define`` (``/*wvSpltK_hf:<int THRDS, ...  \\``)
was blanked with its line continuations, so the macro's body ended at the comment and the kernel it launches
after it (``wvSpltK_hf_big_``) was reported at 70 ("its name appears in no other native line"). A block comment
keeps the continuations; a kernel no macro launches is still reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNELS = r"""
__global__ void gemm_small(float* c) { c[0] = 1; }
__global__ void gemm_big(float* c) { c[0] = 2; }
__global__ void gemm_unused(float* c) { c[0] = 3; }

void gemm(float* c, int n) {
#define LAUNCH(N)                                      \
  {                                                    \
    /*gemm_small:<int THRDS, int YTILE,                \
     * int M>*/                                        \
    if (n < N) {                                       \
      gemm_small<<<1, 1>>>(c);                         \
    } else {                                           \
      gemm_big<<<1, 1>>>(c);                           \
    }                                                  \
  }
  LAUNCH(16)
}
"""

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='cm', packages=['cm'], ext_modules=[CUDAExtension('cm_ext', ['csrc/gemm.cu'])])\n",
    "cm/__init__.py": "import cm_ext\n\n\ndef gemm(c):\n    return cm_ext.gemm(c, 1)\n",
    "csrc/gemm.cu": KERNELS + 'PYBIND11_MODULE(cm_ext, m) { m.def("gemm", &gemm); }\n',
    "tests/test_gemm.py": "from cm import gemm\n\n\ndef test_gemm():\n    assert gemm(1) is None\n",
}


def test_a_kernel_launched_after_a_comment_in_a_macro_is_launched(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "cuda:csrc/gemm.cu::gemm_big" not in found and "cuda:csrc/gemm.cu::gemm_small" not in found
    assert found.get("cuda:csrc/gemm.cu::gemm_unused", 0) >= 60
