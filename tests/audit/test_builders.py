"""Builders are roots of native code: setup.py, CMake; extension imports and included headers are uses."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree

ROOT = Path(__file__).parent / "fixtures" / "native_lib"


def test_builders_keep_what_they_build_and_what_that_includes():
    result, _table = run_audit(open_tree(ROOT))
    found = {f.subject: f for f in result.findings}
    unused_files = {s for s, f in found.items() if f.kind == "unused-file"}
    assert "setup.py" not in unused_files  # the build script is a root, not dead code
    kernels = {s: f.confidence for s, f in found.items() if f.kind == "unused-kernel"}
    # what setup.py and CMakeLists.txt build, what those sources include, and the Metal source the ObjC host
    # looks a kernel up in are used; extension functions only imported (from natlib._ext import x) are used
    # a source implementing an op (TORCH_LIBRARY_IMPL) that Python looks up by name is used; one nobody looks up not
    assert kernels == {"pybind:_ext.unused_op": 70, "source:csrc/orphan.h": 70,
                       "metal:src/argmax.metal::argmin_kernel": 80, "source:csrc/ops/unused_impl.cu": 70}


def test_native_tests_and_cmake_globs(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    for rel in ("csrc/moe/a.cu", "csrc/old/b.cu", "test/utils/launcher_test.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("__global__ void k_%s() {}\n" % rel.split("/")[-1].split(".")[0])
    (tmp_path / "Default.cmake").write_text("glob_files_nohip(gpu_sources\n  csrc/moe/*.cu)\n")
    (tmp_path / "CMakeLists.txt").write_text("include(Default.cmake)\n")
    result, _ = run_audit(open_tree(tmp_path))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    # a custom glob function of a .cmake file builds csrc/moe; a native test is reported, low
    assert sources == {"source:csrc/old/b.cu": 70, "source:test/utils/launcher_test.cu": 40}


def test_importing_a_compiled_extension_of_the_tree_is_no_missing_import():
    result, _table = run_audit(open_tree(ROOT))
    (finding,) = [f for f in result.findings if f.kind == "orphaned-test"]
    assert "natlib._missing" in finding.reason and "natlib._cpp" not in finding.reason.replace("natlib._cpp.", "")
