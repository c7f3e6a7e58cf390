"""Session 36 (gsplat ``2e7d1459^``): ``setup.py`` and the JIT loader glob every ``csrc/*.cu``, so
``serial_backward.cu`` was compiled into the extension, but none of its functions was named outside it and its own
header; the clean-up deleted both. Nothing was reported: the audit judged kernels and whole files by their loaders
only. A compiled source with no kernel, binding or class none of whose functions live code names is reported at 50,
with the headers only such sources include; one whose function a live source calls, or a source with a class (whose
methods a framework may call by an inherited name), is not. Also: an extension re-imported from the module that
imports it (``from ._backend import _C`` ... ``getattr(_C, name)``) is read there with a computed name."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SETUP = """
    import glob
    import os.path as osp
    from setuptools import setup
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension

    def get_extensions():
        extensions_dir = osp.join("splat", "csrc")
        sources = glob.glob(osp.join(extensions_dir, "*.cu")) + glob.glob(osp.join(extensions_dir, "*.cpp"))
        sources = [path for path in sources if "hip" not in path]
        return [CUDAExtension(f"splat.csrc", sources)]

    setup(name="splat", packages=["splat"], ext_modules=get_extensions(), cmdclass={"build_ext": BuildExtension})
"""

FILES = {
    "setup.py": SETUP,
    "splat/csrc/ext.cpp": """
        #include <torch/extension.h>
        #include "forward.cuh"
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("rasterize", &rasterize); m.def("project", &project);
                                               m.def("old_op", &old_op); }
    """,
    "splat/csrc/forward.cuh": "void rasterize();\nvoid project();\nvoid old_op();\n",
    "splat/csrc/forward.cu": """
        #include "forward.cuh"
        #include "helpers.cuh"
        __global__ void rasterize_kernel(float* x) { x[0] = shade(1.0f); }
        void rasterize() { rasterize_kernel<<<1, 1>>>(nullptr); }
        void project() {}
        void old_op() {}
    """,
    "splat/csrc/helpers.cuh": "__device__ float shade(float x);\n",
    "splat/csrc/helpers.cu": '#include "helpers.cuh"\n__device__ float shade(float x) { return x; }\n',
    "splat/csrc/serial_backward.cuh": "__host__ __device__ void rasterize_vjp(float* g);\nfloat conic_grad(float c);\n",
    "splat/csrc/serial_backward.cu": """
        #include "serial_backward.cuh"
        float conic_grad(float c) { return 2 * c; }
        __host__ __device__ void rasterize_vjp(float* g) { g[0] = conic_grad(g[0]); }
    """,
    "splat/csrc/autograd.cpp": """
        #include <torch/extension.h>
        struct Project : public torch::autograd::Function<Project> {
            static int forward(int x) { return x; }
        };
        int run_project(int x) { return x; }
    """,
    "splat/_backend.py": """
        try:
            from splat import csrc as _C
        except ImportError:
            _C = None
    """,
    "splat/cuda.py": """
        def _make_lazy_cuda_func(name):
            def call_cuda(*args):
                from ._backend import _C

                return getattr(_C, name)(*args)

            return call_cuda


        rasterize = _make_lazy_cuda_func("rasterize")
        project = _make_lazy_cuda_func("project")
    """,
    "splat/__init__.py": "from .cuda import rasterize, project\n",
    "tests/test_splat.py": "from splat import rasterize, project\n\n\ndef test_splat():\n    assert rasterize and project\n",
}


def _found(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    return {f.subject: f for f in result.findings if f.kind == "unused-kernel"}


def test_a_compiled_source_nothing_calls_is_reported(tmp_path):
    found = _found(tmp_path)
    idle = found.get("source:splat/csrc/serial_backward.cu")
    assert idle is not None and idle.confidence == 50, sorted(found)
    assert "conic_grad" in idle.reason and "rasterize_vjp" in idle.reason
    assert found["source:splat/csrc/serial_backward.cuh"].confidence == 50  # only the idle source includes it
    assert "source:splat/csrc/helpers.cu" not in found  # its shade() is called by a launched kernel
    assert "source:splat/csrc/helpers.cuh" not in found
    assert "source:splat/csrc/autograd.cpp" not in found  # a class: methods may be called by inherited names


def test_an_extension_imported_through_a_module_is_read_by_getattr(tmp_path):
    found = _found(tmp_path)
    exports = {s: f.confidence for s, f in found.items() if s.startswith("pybind:")}
    assert exports == {"pybind:TORCH_EXTENSION_NAME.old_op": exports.get("pybind:TORCH_EXTENSION_NAME.old_op")}, exports
    assert exports["pybind:TORCH_EXTENSION_NAME.old_op"] >= 40  # the module is known: no string names old_op
    assert not any("rasterize_kernel" in s for s in found)
