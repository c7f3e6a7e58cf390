"""Session 32 (hqq ``d7decb5^``): kernels of a source only a script builds (``hqq/kernels/setup_cuda.py``, which the
root ``setup.py`` runs through ``os.system("cd hqq/kernels; python setup_cuda.py install")``) are reported like
that source, at 30: the source was at 30 while its nine kernels were at 60. A header only such a source includes
is at 30 too. (Since session 34 a script the root ``setup.py`` runs through a shell command is a build script,
``test_setup_run_scripts.py``; here the build script is run by hand.)"""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        from setuptools import setup

        setup(name="fastq", packages=["fastq"])
    """,
    "fastq/__init__.py": "from fastq.core import run\n",
    "fastq/core.py": """
        try:
            import fastq_aten
        except ImportError:
            fastq_aten = None


        def run(x):
            return fastq_aten.dequantize(x) if fastq_aten else x
    """,
    "fastq/kernels/__init__.py": "",
    "fastq/kernels/setup_cuda.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension

        setup(name="fastq_aten", ext_modules=[CUDAExtension("fastq_aten", ["aten.cpp", "aten_kernel.cu"])])
    """,
    "fastq/kernels/aten.cpp": """
        #include <torch/extension.h>
        void dequantize();
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("dequantize", &dequantize); }
    """,
    "fastq/kernels/aten_kernel.cu": """
        #include "helper.cuh"
        __global__ void dequantize_kernel(float* x) { x[0] = half(); }
        void dequantize() { dequantize_kernel<<<1, 1>>>(nullptr); }
    """,
    "fastq/kernels/helper.cuh": "__device__ float half() { return 0.5f; }\n",
    "tests/test_core.py": "from fastq import run\n\n\ndef test_run():\n    assert run(1) == 1\n",
}


def test_kernels_of_a_source_only_a_script_builds_are_at_its_confidence(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found["source:fastq/kernels/aten_kernel.cu"] == 30
    assert found["cuda:fastq/kernels/aten_kernel.cu::dequantize_kernel"] <= 30
    assert found.get("source:fastq/kernels/helper.cuh", 0) <= 30
