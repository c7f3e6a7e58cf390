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
    assert kernels == {"pybind:_ext.unused_op": 70, "source:csrc/orphan.h": 70,
                       "metal:src/argmax.metal::argmin_kernel": 80}
