"""Session 36 (torch-points-kernels ``c12403e^``): ``setup.py`` builds two extensions, each from the sources a glob
of a ``str.format`` path gives (``ext_sources = glob.glob("{}/src/*.cpp".format(ext_src_root)) +
glob.glob("{}/src/*.cu".format(ext_src_root))``, ``cpu_ext_sources = glob.glob("{}/src/*.cpp".format(
cpu_ext_src_root))``). The format call computed no path, so every source of ``cuda/`` and ``cpu/`` was "never loaded
or included" (41 findings at 60-70, all false); and with two extensions of computed sources neither got its
module name, so their exports were judged at 30 whatever Python read. A ``str.format`` or f-string of computable
parts is a path, and an extension's ``sources=variable`` builds what the variable's globs give."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SETUP = """
    import glob
    from setuptools import setup, find_packages
    from torch.utils.cpp_extension import BuildExtension, CUDAExtension, CppExtension

    ext_src_root = "cuda"
    ext_sources = glob.glob("{}/src/*.cpp".format(ext_src_root)) + glob.glob("{}/src/*.cu".format(ext_src_root))
    cpu_root = "cpu"
    cpu_sources = glob.glob(f"{cpu_root}/src/*.cpp")
    ext_modules = [
        CUDAExtension(name="pts.points_cuda", sources=ext_sources, include_dirs=["{}/include".format(ext_src_root)]),
        CppExtension(name="pts.points_cpu", sources=cpu_sources),
    ]
    setup(name="pts", packages=find_packages(), ext_modules=ext_modules, cmdclass={"build_ext": BuildExtension})
"""

FILES = {
    "setup.py": SETUP,
    "cuda/include/gather.h": "void gather();\nvoid old_gather();\n",
    "cuda/src/gather.cpp": '#include "gather.h"\nvoid gather_wrapper();\nvoid gather() { gather_wrapper(); }\nvoid old_gather() {}\n',
    "cuda/src/gather_gpu.cu": "__global__ void gather_kernel(float* x) {}\nvoid gather_wrapper() { gather_kernel<<<1, 1>>>(0); }\n",
    "cuda/src/bindings.cpp": """
        #include <torch/extension.h>
        #include "gather.h"
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("gather", &gather); m.def("old_gather", &old_gather); }
    """,
    "cpu/src/bindings.cpp": """
        #include <torch/extension.h>
        int knn() { return 0; }
        int old_knn() { return 0; }
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("knn", &knn); m.def("old_knn", &old_knn); }
    """,
    "pts/__init__.py": "from .ops import *\n",
    "pts/ops.py": """
        import pts.points_cpu as tpcpu
        import pts.points_cuda as tpcuda


        def gather(x):
            return tpcuda.gather(x)


        def knn(x):
            return tpcpu.knn(x)
    """,
    "tests/test_ops.py": "from pts import gather, knn\n\n\ndef test_ops():\n    assert gather and knn\n",
}


def test_formatted_globs_build_each_extension_its_sources(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind in ("unused-kernel", "unused-file")}
    assert not any(s.startswith("source:") or "gather_kernel" in s for s in found), found
    assert found.get("pybind:TORCH_EXTENSION_NAME.old_gather", 0) >= 60, found  # nothing reads them
    assert found.get("pybind:TORCH_EXTENSION_NAME.old_knn", 0) >= 60, found
    assert not any(s.endswith((".gather", ".knn")) for s in found), found


def test_path_values_of_format_calls_and_fstrings():
    import ast

    from slimfork.audit.builders import _path_value

    env = {"root": "cuda"}
    value = lambda text: _path_value(ast.parse(text, mode="eval").body, env)  # noqa: E731
    assert value('"{}/src/*.cu".format(root)') == "cuda/src/*.cu"
    assert value('"{r}/src/{0}".format("*.cpp", r=root)') == "cuda/src/*.cpp"
    assert value('f"{root}/src/*.cu"') == "cuda/src/*.cu"
    assert value('"{}/src".format(unknown)') is None  # a part computed out of sight: no path
    assert value('f"{root!r}/x"') is None
    assert value('"{0.name}/x".format(root)') is None
