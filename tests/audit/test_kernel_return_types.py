"""aiter (``ee9114bd48^``): ``__global__ std::enable_if_t<(width > 0) && ok<T>::exists> rms_norm_kernel(`` was read
as a kernel named ``enable_if_t`` (the first '(' is inside the template arguments of the return type), reported at
70 ("its name appears in no other native line") while the real kernel went unjudged."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.index.nativescan import scan_native
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNELS = """
template <typename T, int width>
__global__ std::enable_if_t<(width > 0) && ok<T>::exists>
rms_norm_kernel(T* __restrict__ out, int n) { out[0] = 0; }

template <typename T, int width>
__global__ std::enable_if_t<(width == 0) || !ok<T>::exists>
rms_norm_kernel(T* __restrict__ out, int n) { out[0] = 1; }

__global__ std::enable_if_t<(1 > 0)> unlaunched_kernel(float* x) { x[0] = 0; }

void rms_norm(float* out, int n) { rms_norm_kernel<float, 8><<<1, 1>>>(out, n); }
"""

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='nrm', packages=['nrm'], ext_modules=[CUDAExtension('nrm_ext', ['csrc/norm.cu'])])\n",
    "nrm/__init__.py": "import nrm_ext\n\n\ndef norm(x):\n    return nrm_ext.rms_norm(x)\n",
    "csrc/norm.cu": KERNELS + "PYBIND11_MODULE(nrm_ext, m) { m.def(\"rms_norm\", &rms_norm); }\n",
    "tests/test_norm.py": "from nrm import norm\n\n\ndef test_norm():\n    assert norm(1)\n",
}


def test_a_kernel_returning_a_template_type_is_named_by_its_own_name(tmp_path):
    names = [k.name for k in scan_native(KERNELS).kernels]
    assert names == ["rms_norm_kernel", "rms_norm_kernel", "unlaunched_kernel"]
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    flagged = {f.subject.split("::")[-1].split("@")[0] for f in result.findings if f.kind == "unused-kernel"}
    assert "enable_if_t" not in flagged and "rms_norm_kernel" not in flagged
    assert "unlaunched_kernel" in flagged
