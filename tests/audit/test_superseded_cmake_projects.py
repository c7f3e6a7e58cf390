"""A CMake project in a folder whose name says its code was replaced (keops ``7b3f1d75^``: ``old/``, the C++ engine
its Python JIT had replaced, with its own ``project()``, tests, examples and benchmarks) was read as a build of its
own: its sources were built, the headers they include live, and 180 of the 203 files the clean-up deleted were not
reported. Nothing builds it when no file outside the folder names it; a folder of another name may be a project
users build by hand, and one a script or document names stays read."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='kx', packages=['kx'])\n",
    "kx/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from kx import f\n\n\ndef test_f():\n    assert f()\n",
    "old/CMakeLists.txt": "project(KX LANGUAGES CXX CUDA)\nadd_library(kx SHARED src/conv.cu)\n"
                          "add_subdirectory(examples)\n",
    "old/src/conv.cu": '#include "core/pack.h"\n__global__ void conv_kernel(float* x) {}\n'
                       "void conv(float* x) { conv_kernel<<<1, 1>>>(x); }\n",
    "old/core/pack.h": "inline int pack() { return 1; }\n",
    "old/examples/CMakeLists.txt": "add_executable(demo demo.cpp)\n",
    "old/examples/demo.cpp": '#include "../core/pack.h"\nint main() { return pack(); }\n',
}


def _native(result) -> dict[str, int]:
    return {f.path: f.confidence for f in result.findings if f.kind == "unused-kernel"}


def test_a_project_in_an_old_folder_nothing_names_is_built_by_nothing(tmp_path):
    found = _native(run_audit(open_tree(write_project(tmp_path, FILES, "")))[0])
    for path in ("old/src/conv.cu", "old/core/pack.h", "old/examples/demo.cpp"):
        assert found.get(path, 0) >= 60, (path, found)


def test_a_project_of_another_folder_name_stays_a_build(tmp_path):
    files = {k.replace("old/", "cpp/"): v for k, v in FILES.items()}
    found = _native(run_audit(open_tree(write_project(tmp_path, files, "")))[0])
    assert not [p for p, c in found.items() if c >= 60], found


def test_an_old_project_a_script_builds_stays_a_build(tmp_path):
    files = {**FILES, "build_legacy.sh": "cd old && cmake -B build . && make\n"}
    found = _native(run_audit(open_tree(write_project(tmp_path, files, "")))[0])
    assert not [p for p, c in found.items() if c >= 60], found


def test_an_old_project_its_parent_adds_stays_a_build(tmp_path):
    files = {f"vendor/lib/{k}": v for k, v in FILES.items() if k.startswith("old/")}
    files.update({k: v for k, v in FILES.items() if not k.startswith("old/")})
    files["CMakeLists.txt"] = "project(Top)\nadd_subdirectory(vendor/lib)\n"
    files["vendor/lib/CMakeLists.txt"] = "add_subdirectory(old)\n"
    found = _native(run_audit(open_tree(write_project(tmp_path, files, "")))[0])
    assert not [p for p, c in found.items() if c >= 60], found
