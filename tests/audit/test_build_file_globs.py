"""Session 39: CMake's and make's globs were matched with ``fnmatch``, whose ``*`` crosses folders, and a pattern
made of the build file's own variables was skipped. pyg-lib builds its library from ``set(CSRC pyg_lib/csrc)``,
``file(GLOB_RECURSE ALL_SOURCES ${CSRC}/*.cpp)`` (every source below ``csrc/``: all were "never built" as the
variable was unknown); MinkowskiEngine's Makefile from ``SRC_DIR := ./src``, ``$(wildcard $(SRC_DIR)/*.cu)``
(only ``src/``). ``file(GLOB ...)`` and make's ``$(wildcard ...)`` keep their ``*`` in one folder (what they build
and only that counts as built); ``GLOB_RECURSE`` reaches every folder below; a project's own glob function still
matches across folders (its semantics are unknown: keep more)."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.builders import _cmake_variables, _make_variables, cmake_sources, makefile_sources
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

NATIVE = ["csrc/a.cpp", "csrc/cpu/b.cpp", "csrc/cpu/deep/c.cpp", "csrc/cuda/d.cu", "other/e.cpp", "src/f.cu",
          "src/old/g.cu"]


def _built(tmp_path: Path, name: str, text: str, reader) -> set[str]:
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_text(text)
    return set(reader(tmp_path, [name], NATIVE))


def test_cmake_glob_stays_in_its_folder_and_glob_recurse_reaches_below(tmp_path):
    assert _built(tmp_path, "CMakeLists.txt", "file(GLOB S csrc/*.cpp)\nadd_library(x ${S})\n",
                  cmake_sources) == {"csrc/a.cpp"}
    assert _built(tmp_path, "CMakeLists.txt", "file(GLOB_RECURSE S CONFIGURE_DEPENDS csrc/*.cpp)\n",
                  cmake_sources) == {"csrc/a.cpp", "csrc/cpu/b.cpp", "csrc/cpu/deep/c.cpp"}
    assert _built(tmp_path, "CMakeLists.txt", "file(GLOB S RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}\n"
                  "  ${CMAKE_CURRENT_SOURCE_DIR}/csrc/cpu/*.cpp csrc/cuda/*.cu)\n",
                  cmake_sources) == {"csrc/cpu/b.cpp", "csrc/cuda/d.cu"}


def test_cmake_variables_set_once_are_expanded(tmp_path):
    text = ("set(CSRC pyg_lib/csrc)\nset(CSRC2 csrc)\nfile(GLOB_RECURSE ALL ${CSRC2}/*.cpp)\n"
            "file(GLOB_RECURSE ALL ${ALL} ${CSRC2}/*.cu)\nadd_library(x ${ALL} ${OTHER}/e.cpp)\n")
    assert _built(tmp_path, "CMakeLists.txt", text, cmake_sources) == {
        "csrc/a.cpp", "csrc/cpu/b.cpp", "csrc/cpu/deep/c.cpp", "csrc/cuda/d.cu"}
    assert _cmake_variables("set(A x)\nset(A y)\nset(B a b)\nset(C a CACHE STRING d)\nset(D \"${E}/s\")\n"
                            "set(E src)\n") == {"D": "src/s", "E": "src"}


def test_an_unknown_glob_command_still_matches_across_folders(tmp_path):
    assert _built(tmp_path, "cmake/Glob.cmake", "my_glob(S csrc/*.cpp)\n", cmake_sources) == {
        "csrc/a.cpp", "csrc/cpu/b.cpp", "csrc/cpu/deep/c.cpp"}


def test_make_wildcard_stays_in_its_folder_with_variables_expanded(tmp_path):
    text = "SRC_DIR := ./src\nCU_SRCS := $(wildcard $(SRC_DIR)/*.cu)\nall:\n\tnvcc $(CU_SRCS)\n"
    assert _built(tmp_path, "Makefile", text, makefile_sources) == {"src/f.cu"}
    assert _built(tmp_path, "Makefile", "SRCS=$(wildcard csrc/*.cpp)\nX := $(UNKNOWN)/*.cu\n",
                  makefile_sources) == {"csrc/a.cpp"}
    assert _make_variables("A := ./src\nB = $(A)/x\nC += y\nD = a b\nE = 1\nE = 2\n") == {"A": "./src", "B": "./src/x"}


FILES = {
    "CMakeLists.txt": """
        cmake_minimum_required(VERSION 3.18)
        project(pyg)
        set(CSRC pyg/csrc)
        file(GLOB_RECURSE ALL_SOURCES ${CSRC}/*.cpp)
        file(GLOB TOOLS tools/*.cpp)
        add_library(${PROJECT_NAME} SHARED ${ALL_SOURCES} ${TOOLS})
    """,
    "pyg/csrc/library.cpp": '#include "ops/sampler.h"\nint version() { return sample(); }\n',
    "pyg/csrc/ops/sampler.h": "int sample();\n",
    "pyg/csrc/ops/cpu/sampler_kernel.cpp": '#include "../sampler.h"\nint sample() { return 1; }\n',
    "tools/convert.cpp": "int convert() { return 0; }\n",
    "tools/old/legacy.cpp": "int legacy() { return 0; }\n",
    "pyg/__init__.py": "import torch\n\n\ndef load():\n    torch.ops.load_library('libpyg.so')\n",
    "pyproject.toml": '[project]\nname = "pyg"\nversion = "1"\n',
    "test/test_pyg.py": "import pyg\n\n\ndef test_load():\n    assert pyg.load\n",
}


def test_what_cmake_globs_build_is_kept_and_only_that(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    for path in ("pyg/csrc/library.cpp", "pyg/csrc/ops/cpu/sampler_kernel.cpp", "tools/convert.cpp"):
        assert "GLOB" in table.built.get(path, ""), table.built
        assert f"source:{path}" not in sources, sources
    assert "source:pyg/csrc/ops/sampler.h" not in sources, sources
    assert "tools/old/legacy.cpp" not in table.built, table.built
    assert sources.get("source:tools/old/legacy.cpp", 0) >= 60, sources
