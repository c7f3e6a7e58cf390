"""auto-round (``bf80f52c3^`` "drop redundant oneMKL rng compat header"): ``ark/setup.py`` declares
``Extension("auto_round_kernel.auto_round_kernel", sources=[])`` and a ``build_ext`` that runs CMake. The empty list
was read as sources computed at run time, so every native file of the project "may be loaded" by it and the
header nothing includes (``compat/include/oneapi/mkl/rng/device.hpp``) was never reported. An empty literal source
list names no file: the CMake build is read for what it compiles."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SETUP = ("import subprocess\nfrom setuptools import Extension, setup\nfrom setuptools.command.build_ext import "
         "build_ext\n\n\nclass CMakeBuild(build_ext):\n    def run(self):\n"
         "        subprocess.check_call(['cmake', '-S', 'kern', '-B', 'build'])\n\n\n"
         "setup(name='kern', packages=['kern'], ext_modules=[Extension('kern._C', sources=[])],\n"
         "      cmdclass={'build_ext': CMakeBuild})\n")
FILES = {  # the extension's distribution in a folder of its own, as auto-round's auto_round_extension/ark/
    "ark/setup.py": SETUP,
    "ark/kern/__init__.py": "from . import _C\n\n\ndef gemm(a):\n    return _C.gemm(a)\n",
    "ark/kern/CMakeLists.txt": "project(kern)\npybind11_add_module(_C gemm.cpp)\n"
                           "target_include_directories(_C PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/compat/include)\n",
    "ark/kern/gemm.cpp": '#include "gemm.h"\nint gemm(int a) { return a; }\nPYBIND11_MODULE(_C, m) { m.def("gemm", &gemm); }\n',
    "ark/kern/gemm.h": "int gemm(int a);\n",
    "ark/kern/compat/include/oneapi/rng/device.hpp": "namespace oneapi { int rng(int a); }\n",
    "ark/tests/test_gemm.py": "import kern\n\n\ndef test_gemm():\n    assert kern.gemm(1)\n",
}


def test_an_empty_source_list_loads_no_file(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("source:ark/kern/compat/include/oneapi/rng/device.hpp", 0) >= 60
    assert not any("gemm" in s for s in found)
