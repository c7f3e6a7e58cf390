"""Session 39 (tiny-cuda-nn ``28ca991^`` "Remove obsolete files", ``653e09c^`` "Remove obsolete cutlass_b2b
subfolder"): the root ``CMakeLists.txt`` had stopped adding ``src`` (it lists ``src/common_host.cu`` ... itself),
but ``src/CMakeLists.txt`` still listed ``common.cu`` and ``common_device.cu``; a CUTLASS example's
``CMakeLists.txt`` was copied into ``dependencies/cutlass_b2b/`` and nothing added it. Every CMake file counted
as a build, so those sources (and the 10 headers ``fused_gemm.cu`` alone includes) were "built". A
``CMakeLists.txt`` below another, with no ``project()``, that no read CMake file adds and nothing names as a
folder is not read: the sources only it names are reported (60)."""

from __future__ import annotations

from slimfork.audit.builders import unread_cmake_files
from slimfork.audit.run import run_audit
from slimfork.index.build import python_files
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.18)
        project(tcnn LANGUAGES CXX CUDA)
        set(SOURCES src/common_host.cu src/encoding.cu)
        add_library(tcnn STATIC ${SOURCES})
        add_subdirectory("samples")
        add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/benchmarks/image)
    """,
    "src/CMakeLists.txt": "set(SOURCES common.cu encoding.cu)\nadd_library(tcnn STATIC ${SOURCES})\n",
    "src/common_host.cu": '#include "common.h"\nint host() { return 0; }\n',
    "src/common.h": "int host();\n",
    "src/encoding.cu": '#include "common.h"\n__global__ void enc(float* x) { x[0] = 0; }\n'
                       "void encode() { enc<<<1, 1>>>(nullptr); }\n",
    "src/common.cu": '#include "common.h"\n#include "old.h"\n__global__ void old_kernel(float* x) { x[0] = 0; }\n'
                     "void old() { old_kernel<<<1, 1>>>(nullptr); }\n",
    "src/old.h": "void old();\n",
    "samples/CMakeLists.txt": "add_executable(sample sample.cu)\n",
    "samples/sample.cu": "int main() { return 0; }\n",
    "benchmarks/image/CMakeLists.txt": "add_executable(bench bench.cu)\n",
    "benchmarks/image/bench.cu": "int main() { return 0; }\n",
    "dependencies/b2b/CMakeLists.txt": "cutlass_example_add_executable(13_fused_two_gemms fused_gemm.cu)\n",
    "dependencies/b2b/fused_gemm.cu": '#include "b2b_gemm.h"\nint main() { return 0; }\n',
    "dependencies/b2b/b2b_gemm.h": "__global__ void b2b(float* x) { x[0] = 0; }\n",
    "dependencies/lib/CMakeLists.txt": "project(lib)\nadd_library(lib lib.cpp)\n",
    "dependencies/lib/lib.cpp": "int lib() { return 0; }\n",
    "dependencies/ext/CMakeLists.txt": "add_library(ext ext.cpp)\n",
    "dependencies/ext/ext.cpp": "int ext() { return 0; }\n",
    "bindings/torch/setup.py": """
        import subprocess
        from setuptools import setup
        subprocess.check_call(["cmake", "-S", "../../dependencies/ext"])
        subprocess.check_call(["cmake", "-S", "dependencies/ext"])
        setup(name="tcnn", packages=["tcnn"])
    """,
    "bindings/torch/tcnn/__init__.py": "def encode():\n    return 0\n",
}


def test_a_cmakelists_no_build_reads(tmp_path):
    root = write_project(tmp_path, FILES, "")
    python, other = python_files(root)
    assert set(unread_cmake_files(root, other, python)) == {"src/CMakeLists.txt", "dependencies/b2b/CMakeLists.txt"}
    result, table = run_audit(open_tree(root))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    for path in ("src/common.cu", "dependencies/b2b/fused_gemm.cu", "dependencies/b2b/b2b_gemm.h", "src/old.h"):
        assert sources.get(f"source:{path}", 0) >= 60, (path, sources)
    assert "no CMake build reads" in table.unloaded["src/common.cu"][0], table.unloaded
    for path in ("src/common_host.cu", "src/encoding.cu", "src/common.h", "samples/sample.cu",
                 "benchmarks/image/bench.cu", "dependencies/lib/lib.cpp", "dependencies/ext/ext.cpp"):
        assert f"source:{path}" not in sources, (path, sources)


def test_an_add_subdirectory_of_an_unknown_folder_reads_every_folder_below(tmp_path):
    files = {
        "CMakeLists.txt": "project(x)\nforeach(d ${DIRS})\n  add_subdirectory(${d})\nendforeach()\n",
        "a/CMakeLists.txt": "add_library(a a.cpp)\n",
        "a/a.cpp": "int a() { return 0; }\n",
        "pkg/__init__.py": "",
    }
    root = write_project(tmp_path, files, "")
    python, other = python_files(root)
    assert unread_cmake_files(root, other, python) == {}


def test_headers_a_cmake_library_exports_are_public(tmp_path):
    """tiny-cuda-nn ``28ca991^``: ``target_include_directories(tiny-cuda-nn PUBLIC "include" ...)`` exports its
    headers to the library's users (``vec_json.h``, ``matrix_layout.h``): a header there nothing in the tree includes
    is C++ API (40), not dead (they were at 70); a header of a folder not exported stays high."""
    files = dict(FILES)
    files["CMakeLists.txt"] += ('target_include_directories(tcnn PUBLIC "include"\n'
                                '  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/api>)\n')
    files["include/tcnn/vec_json.h"] = "inline int to_json() { return 0; }\n"
    files["api/x.h"] = "inline int x() { return 0; }\n"
    files["src/unused.h"] = "inline int unused() { return 0; }\n"
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    assert set(table.exported) == {"include", "api"}, table.exported
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert sources.get("source:include/tcnn/vec_json.h") == 40 and sources.get("source:api/x.h") == 40, sources
    assert sources.get("source:src/unused.h", 0) >= 60, sources
