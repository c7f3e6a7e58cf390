"""Python files native code loads by file name: a C++ Triton runtime compiles a kernel's Python source from a path
it computes (FlagGems ``f5958c6f^``: ``lib/fill.cpp``'s ``TritonJITFunction::get_instance((get_triton_src_path() /
"fill.py").string(), "fill_scalar_kernel")``, built by CMake). ``triton_src/`` was "unreached" (70) and its
kernels "no reference to it outside its own body" (80). A Python file a native string names is a root, and a
kernel name that native file writes as a string is a use of the kernel of that file."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "gems"\nversion = "1"\n',
    "gems/__init__.py": "",
    "gems/ops.py": "def add(x, y):\n    return x + y\n",
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\nproject(gems)\nadd_library(ops SHARED lib/fill.cpp)\n",
    "lib/fill.cpp": '#include <string>\n\nvoid fill(float* out) {\n'
                    '  auto& k = get_instance((src_dir() / "fill.py").string(), "fill_scalar_kernel");\n'
                    "  k(out);\n}\n",
    "triton_src/fill.py": "import triton\n\n\n@triton.jit\ndef fill_scalar_kernel(out):\n    pass\n\n\n"
                          "@triton.jit\ndef fill_unused_kernel(out):\n    pass\n",
    "triton_src/zeros.py": "import triton\n\n\n@triton.jit\ndef zeros_kernel(out):\n    pass\n",
}


def test_a_python_file_native_code_names_is_loaded_and_its_named_kernel_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind in ("unused-file", "unused-kernel")}
    assert not [s for s in found if "triton_src/fill.py" in s and "fill_unused_kernel" not in s], found
    assert found.get("triton:triton_src/fill.py::fill_unused_kernel", 0) >= 60  # no string names it
    assert any("zeros" in s and c >= 60 for s, c in found.items())  # nothing names zeros.py
