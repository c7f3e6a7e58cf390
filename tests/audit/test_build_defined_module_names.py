"""auto-round (``da01160b7^``): ``ark.cpp`` declares ``PYBIND11_MODULE(PY_NAME, m)``, a macro the CMake build
defines (``set(PY_NAME auto_round_kernel_xpu)`` or ``_cpu``, ``target_compile_definitions(${PY_NAME} PRIVATE
PY_NAME=${PY_NAME})``), and the package loads it as ``from . import auto_round_kernel_cpu as _lib``: the module was
taken to be called ``PY_NAME``, so all 25 exports were "no Python code reads the name" (70). A module name that is
a macro is what the build defines it to be (a CMake or compiler ``NAME=value``, ``define_macros``); a macro no
build file defines is an unknown module (30). A reader of the extension naming an export in a string
(``getattr(lib, "sage_sparse_qtile256_row64k")``, ``hasattr(module, name) for name in ("sage_sparse", ...)``) uses
it."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

BINDINGS = ('int woqgemm(int a) { return a; }\nint old_gemm(int a) { return a; }\n'
            'PYBIND11_MODULE(PY_NAME, m) {\n  m.def("woqgemm", &woqgemm);\n  m.def("tiled_gemm", &woqgemm);\n'
            '  m.def("old_gemm", &old_gemm);\n}\n')
CMAKE = ("cmake_minimum_required(VERSION 3.18)\nproject(ark)\nif(USE_XPU)\n  set(PY_NAME ark_xpu)\nelse()\n"
         "  set(PY_NAME ark_cpu)\nendif()\npybind11_add_module(${PY_NAME} ark.cpp)\n"
         "target_compile_definitions(${PY_NAME} PRIVATE PY_NAME=${PY_NAME})\n")
PACKAGE = ("import torch\n\n\ndef get_lib(a):\n    if a.is_cpu:\n        from . import ark_cpu as lib\n"
           "    else:\n        from . import ark_xpu as lib\n    return lib\n\n\n"
           "def woqgemm(a):\n    lib = get_lib(a)\n    return lib.woqgemm(a)\n\n\n"
           "def tiled(a, wide):\n    name = 'tiled_gemm' if wide else 'woqgemm'\n"
           "    return getattr(get_lib(a), name)(a)\n")
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ark', packages=['ark'])\n",
    "ark/__init__.py": PACKAGE,
    "ark/CMakeLists.txt": CMAKE,
    "ark/ark.cpp": BINDINGS,
    "tests/test_ark.py": "import ark\n\n\ndef test_gemm():\n    assert ark.woqgemm(1)\n",
}


def _findings(tmp_path, files):
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}


def test_a_module_named_by_a_build_macro_is_read_under_the_names_the_build_gives(tmp_path):
    found = _findings(tmp_path, FILES)
    assert not any(s.endswith((".woqgemm", ".tiled_gemm")) for s in found)
    assert max(c for s, c in found.items() if s.endswith(".old_gemm")) >= 60


def test_a_macro_no_build_file_defines_is_an_unknown_module(tmp_path):
    files = {**FILES, "ark/CMakeLists.txt": CMAKE.replace("PY_NAME=${PY_NAME}", "ARK=1")}
    found = _findings(tmp_path, files)
    assert all(c <= 30 for s, c in found.items() if s.startswith("pybind:"))
