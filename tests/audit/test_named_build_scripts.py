"""SeerAttention ``8a9d5ec^``: ``seer_attn/kernels/block_sparse_attention/build.py`` calls setuptools' ``setup(
packages=find_packages(), ext_modules=[CUDAExtension(name="block_sparse_seer_attn_cutclass", ...)])``: a build
script by another name. The package beside it (``block_sparse_seer_attn/``, imported by a benchmark as a top-level
name) was unreached (70) and the extension's exports, which that package imports by name, "read by nothing" (70)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

BUILD = """\
from setuptools import setup, find_packages
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fastattn",
    packages=find_packages(),
    ext_modules=[CUDAExtension(name="fastattn_cuda", sources=["csrc/api.cpp", "csrc/attn.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
"""

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
    "pkg/__init__.py": "def run(x):\n    return x\n",
    "tests/test_pkg.py": "import pkg\n\n\ndef test_run():\n    assert pkg.run(1)\n",
    "pkg/kernels/fast/build.py": BUILD,
    "pkg/kernels/fast/fastattn/__init__.py": "from fastattn.interface import attention\n",
    "pkg/kernels/fast/fastattn/interface.py": "from fastattn_cuda import attn_fwd\n\n\n"
                                              "def attention(q):\n    return attn_fwd(q)\n",
    "pkg/kernels/fast/csrc/api.cpp": 'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n  m.def("attn_fwd", &attn_fwd);\n'
                                     '  m.def("attn_old", &attn_old);\n}\n',
    "pkg/kernels/fast/csrc/attn.cu": "__global__ void attn_kernel() {}\nvoid attn_fwd() { attn_kernel<<<1, 1>>>(); }\n"
                                     "void attn_old() {}\n",
    "pkg/kernels/fast/csrc/stale.cu": "void stale() {}\n",
}


def test_a_build_script_by_another_name_builds_its_package_and_extension(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings}
    assert not any(s.startswith("pkg/kernels/fast/fastattn") for s in found), found
    assert "pybind:TORCH_EXTENSION_NAME.attn_fwd" not in found
    assert found.get("pybind:TORCH_EXTENSION_NAME.attn_old", 0) >= 60
    assert found.get("source:pkg/kernels/fast/csrc/stale.cu", 0) >= 60
