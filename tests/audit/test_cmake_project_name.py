"""auto-round (``bf80f52c3^``): the vendored ``bestla/CMakeLists.txt`` declares ``project(bestla ...)`` and builds
its tests with ``file(GLOB srcs ${PROJECT_NAME}/ut/*.cpp)``: ``${PROJECT_NAME}`` was not expanded, so 19 test
sources of ``bestla/bestla/ut/`` were "no ... build file ... names it" (70). A CMake file's one ``project()``
name is its ``PROJECT_NAME``."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ark', packages=['ark'])\n",
    "ark/__init__.py": "def run():\n    return 1\n",
    "tests/test_run.py": "from ark import run\n\n\ndef test_run():\n    assert run()\n",
    "bestla/CMakeLists.txt": "cmake_minimum_required(VERSION 3.12)\nproject(bestla LANGUAGES CXX VERSION 0.1.0)\n"
                             "file(GLOB srcs ${PROJECT_NAME}/ut/*.cpp)\nadd_executable(${PROJECT_NAME}_ut ${srcs})\n",
    "bestla/bestla/ut/gemm_ut.cpp": "int main() { return 0; }\n",
    "bestla/bestla/ut/old.cpp": "int old_ut() { return 0; }\n",
    "bestla/other/stray.cpp": "int stray() { return 0; }\n",
}


def test_a_glob_under_the_project_name_builds_its_sources(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "source:bestla/bestla/ut/old.cpp" not in found
    assert found.get("source:bestla/other/stray.cpp", 0) >= 60
