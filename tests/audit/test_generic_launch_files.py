"""Session 38 (pytorch_cluster ``9a1f781^``): a stale ``kernel/grid.cu`` and the live ``aten/THC/THCGrid.cu`` each
define ``gridKernel`` and ``#include`` a ``generic/`` file (the TH pattern) whose host code launches it. The
generic files define no kernel and include neither definer, so each launch was counted for both copies and the
stale file's kernel was never reported. A definer that includes the launching file sees that launch: each
generic file's launches are the kernel of the file that includes it."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension
        setup(name='cl', packages=['cl'], ext_modules=[CUDAExtension('cl._C', ['aten/THC/THCGrid.cu'])])
    """,
    "aten/THC/THCGrid.cu": """
        __global__ void gridKernel(long* cluster) { cluster[0] = 0; }
        #include "generic/THCGrid.cu"
    """,
    "aten/THC/generic/THCGrid.cu": """
        void THCGrid(long* cluster) { gridKernel<<<1, 1>>>(cluster); }
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("grid", &THCGrid); }
    """,
    "kernel/grid.cu": """
        __global__ void gridKernel(long* cluster) { cluster[0] = 1; }
        #include "generic/grid.cu"
    """,
    "kernel/generic/grid.cu": "void grid_kernel(long* cluster) { gridKernel<<<1, 1>>>(cluster); }\n",
    "cl/__init__.py": "from cl._C import grid\n\n__all__ = ['grid']\n",
    "tests/test_cl.py": "from cl import grid\n\n\ndef test_grid():\n    assert grid\n",
}


def test_a_generic_files_launch_is_the_kernel_of_its_includer(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    kernels = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    uses = {k.id: [u.path for u in k.uses] for k in table.kernels}
    assert uses["cuda:aten/THC/THCGrid.cu::gridKernel"] == ["aten/THC/generic/THCGrid.cu"], uses
    assert uses["cuda:kernel/grid.cu::gridKernel"] == ["kernel/generic/grid.cu"], uses
    assert kernels.get("cuda:kernel/grid.cu::gridKernel", 0) >= 60, kernels
    assert "cuda:aten/THC/THCGrid.cu::gridKernel" not in kernels, kernels
