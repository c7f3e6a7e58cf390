"""Session 36 (ktransformers ``f5f79f5c^``): ``ktransformers_ext/CMakeLists.txt`` builds its pybind11 module from
``aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR}/cpu_backend SOURCE_DIR2)`` (and three more folders, one of them
``../../third_party/llamafile``): CMake's command for "every source of this folder". It was not read, so 43 built
sources and headers were "never loaded or included" at 60-70. Every source directly in the folder is built (not
those below it, nor headers, which stay by their includes)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/ext/CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.16)
        project(cpuinfer_ext)
        aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR} SOURCE_DIR1)
        aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR}/backend SOURCE_DIR2)
        aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR}/../../third_party/blas SOURCE_DIR3)
        set(ALL_SOURCES ${SOURCE_DIR1} ${SOURCE_DIR2} ${SOURCE_DIR3})
        pybind11_add_module(${PROJECT_NAME} MODULE ${ALL_SOURCES})
    """,
    "pkg/ext/bindings.cpp": """
        #include <pybind11/pybind11.h>
        #include "backend/queue.h"
        int submit() { return run_queue(); }
        PYBIND11_MODULE(cpuinfer_ext, m) { m.def("submit", &submit); }
    """,
    "pkg/ext/backend/queue.h": "int run_queue();\n",
    "pkg/ext/backend/queue.cpp": '#include "queue.h"\n#include "sgemm.h"\nint run_queue() { return sgemm(); }\n',
    "pkg/ext/backend/old/legacy.cpp": "int legacy() { return 0; }\n",
    "third_party/blas/sgemm.h": "int sgemm();\n",
    "third_party/blas/sgemm.cpp": '#include "sgemm.h"\nint sgemm() { return 1; }\n',
    "third_party/blas/unused.h": "int unused();\n",
    "pkg/__init__.py": "import cpuinfer_ext\n\n\ndef submit():\n    return cpuinfer_ext.submit()\n",
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\n',
    "tests/test_pkg.py": "from pkg import submit\n\n\ndef test_submit():\n    assert submit\n",
}


def test_aux_source_directory_builds_the_sources_of_its_folder(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    for path in ("pkg/ext/bindings.cpp", "pkg/ext/backend/queue.cpp", "third_party/blas/sgemm.cpp"):
        assert "aux_source_directory" in table.built[path]
        assert f"source:{path}" not in sources, sources
    assert "source:pkg/ext/backend/queue.h" not in sources and "source:third_party/blas/sgemm.h" not in sources
    assert "pkg/ext/backend/old/legacy.cpp" not in table.built  # below the folder: not built by it
    assert sources.get("source:pkg/ext/backend/old/legacy.cpp", 0) >= 60, sources
    # not built, nothing includes it; a vendored library's header: 40 (test_vendored_headers)
    assert sources.get("source:third_party/blas/unused.h", 0) == 40, sources
