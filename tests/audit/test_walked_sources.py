"""Session 34 (exllamav3 ``ae0514a^``): ``setup.py`` and the JIT loader both compile every source below the
extension's folder, found with ``os.walk`` (``sources = [os.path.join(root, f) for root, _, files in
os.walk(sources_dir) for f in files if f.endswith((".c", ".cpp", ".cu"))]``, ``sources_dir =
os.path.join(library_dir, extension_name)``). The loader's sources were "matched to file names written in the same
scope" (the suffixes, which name no file), so nothing was loaded and 306 sources, kernels and headers were
reported at 60-70. An ``os.walk`` of a folder joined from constants is a glob of everything below it, and a loader
whose sources are a variable none of whose nearby strings names a file computes them out of sight. The one
extension of a ``setup.py`` whose sources are all walked or globbed builds those sources (its exports are then
judged by module: exllamav3's 13 exports nothing reads, at 70)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

EXT = {
    "fastk/fastk_ext/bindings.cpp": """
        #include <torch/extension.h>
        void rms_norm();
        void old_op() {}
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rms_norm", &rms_norm); m.def("old_op", &old_op); }
    """,
    "fastk/fastk_ext/norm.cu": """
        #include "norm.cuh"
        __global__ void rms_norm_kernel(float* x) { x[0] = one(); }
        void rms_norm() { rms_norm_kernel<<<1, 1>>>(nullptr); }
    """,
    "fastk/fastk_ext/norm.cuh": "__device__ float one() { return 1.0f; }\n",
    "fastk/__init__.py": "from fastk.ops import norm\n",
    "fastk/ops.py": "from fastk.ext import fastk_ext as ext\n\n\ndef norm(x):\n    return ext.rms_norm(x)\n",
    "tests/test_norm.py": "from fastk import norm\n\n\ndef test_norm():\n    assert norm\n",
}

LOADER = """
    import os
    from torch.utils.cpp_extension import load

    extension_name = "fastk_ext"
    library_dir = os.path.dirname(os.path.abspath(__file__))
    sources_dir = os.path.join(library_dir, extension_name)
    sources = [
        os.path.abspath(os.path.join(root, file))
        for root, _, files in os.walk(sources_dir)
        for file in files
        if file.endswith((".c", ".cpp", ".cu"))
    ]
    fastk_ext = load(name=extension_name, sources=sources)
"""

SETUP = """
    import os
    from setuptools import setup
    from torch.utils import cpp_extension

    extension_name = "fastk_ext"
    library_dir = "fastk"
    sources_dir = os.path.join(library_dir, extension_name)
    sources = [
        os.path.relpath(os.path.join(root, file), start=os.path.dirname(__file__))
        for root, _, files in os.walk(sources_dir)
        for file in files
        if file.endswith((".c", ".cpp", ".cu"))
    ]
    setup(name="fastk", packages=["fastk"],
          ext_modules=[cpp_extension.CUDAExtension(extension_name, sources)])
"""


def _unused(tmp_path, files):
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}


def test_a_jit_loader_of_walked_sources_loads_them(tmp_path):
    files = {**EXT, "fastk/ext.py": LOADER, "pyproject.toml": '[project]\nname = "fastk"\nversion = "1"\n'}
    assert not any("norm" in s and c >= 50 for s, c in _unused(tmp_path, files).items())


def test_a_setup_py_walk_builds_every_source_below(tmp_path):
    files = {**EXT, "fastk/ext.py": "import fastk_ext\n", "setup.py": SETUP}
    found = _unused(tmp_path, files)
    assert not any("norm" in s for s in found), found  # the walked sources build fastk_ext: rms_norm is read
    assert found["pybind:TORCH_EXTENSION_NAME.old_op"] == 70  # nothing reads it
