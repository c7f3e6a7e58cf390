"""aphrodite-engine (``41e4f513^``): llama.cpp's GGUF ``mmq.cuh`` writes ``template <bool need_check> static
__global__ void`` / ``#if defined(USE_ROCM)`` / ``__launch_bounds__(...)`` / ``#endif`` / ``mul_mat_q4_0(``: the first
'(' after ``__global__`` was ``defined(``, so ten kernels were read as one named ``defined``, reported at 70 ("its
name appears in no other native line") while the real ones went unjudged. Preprocessor lines between ``__global__``
and the name are skipped."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.index.nativescan import scan_native
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNELS = """
template <bool need_check> static __global__ void
#if defined(USE_ROCM)
__launch_bounds__(WARP_SIZE*NWARPS, 2)
#endif // defined(USE_ROCM)
mul_mat_q4_0(const void* x, float* dst) { dst[0] = 0; }

static __global__ void
#if defined(USE_ROCM) && \\
    defined(WIDE)
__launch_bounds__(64, 2)
#endif
unlaunched_q8(float* dst) { dst[0] = 1; }

void ggml_mul_mat(const void* x, float* dst) { mul_mat_q4_0<true><<<1, 1>>>(x, dst); }
"""

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='gg', packages=['gg'], ext_modules=[CUDAExtension('gg_ext', ['csrc/mmq.cu'])])\n",
    "gg/__init__.py": "import gg_ext\n\n\ndef mm(x, y):\n    return gg_ext.ggml_mul_mat(x, y)\n",
    "csrc/mmq.cu": KERNELS + "PYBIND11_MODULE(gg_ext, m) { m.def(\"ggml_mul_mat\", &ggml_mul_mat); }\n",
    "tests/test_mm.py": "from gg import mm\n\n\ndef test_mm():\n    assert mm(1, 2)\n",
}


def test_a_kernel_name_after_preprocessor_lines_is_its_own(tmp_path):
    assert [k.name for k in scan_native(KERNELS).kernels] == ["mul_mat_q4_0", "unlaunched_q8"]
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    flagged = {f.subject.split("::")[-1].split("@")[0] for f in result.findings if f.kind == "unused-kernel"}
    assert "defined" not in flagged and "mul_mat_q4_0" not in flagged and "unlaunched_q8" in flagged, flagged
