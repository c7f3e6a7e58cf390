"""Session 32 (DeepGEMM ``ce65d5e^``, "Remove unused x256 WGMMA"): a JIT library's headers.

- A header a Python string names the way an include does (``includes = ('"deep_gemm/fp8_gemm.cuh"', )``, handed to
  a runtime compiler, or an ``#include <...>`` line of generated code) is used by that string's code: DeepGEMM's
  five headers (the kernel and everything it includes) were reported unused at 60-70.
- A kernel whose ``__launch_bounds__`` holds a call (``__launch_bounds__(get_num_threads<T>(BLOCK_M), 1)``) is named
  by its own name, not ``__launch_bounds__``."""

from __future__ import annotations

from slimfork.audit.kerneltable import kernel_table
from slimfork.audit.run import run_audit
from slimfork.index import build_index
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNEL = """
#include "utils.cuh"
template <int BLOCK_M>
__global__ void __launch_bounds__(get_num_threads<128>(BLOCK_M), 1)
gemm_kernel(float* out) { out[0] = helper(); }
"""

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='jitgemm', packages=['jitgemm'])\n",
    "jitgemm/__init__.py": "from jitgemm.gemm import gemm, grouped\n",
    "jitgemm/gemm.py": """
        from jitgemm.compiler import build

        includes = ('"jitgemm/gemm.cuh"', )


        def gemm():
            return build("gemm", includes, "gemm_kernel<128><<<1, 1>>>(out);")


        def grouped():
            return build("grouped", (), "#include <jitgemm/grouped.cuh>\\nrun();")
    """,
    "jitgemm/compiler.py": """
        def build(name, includes, body):
            return "\\n".join(f"#include {i}" for i in includes) + body
    """,
    "jitgemm/include/jitgemm/gemm.cuh": KERNEL,
    "jitgemm/include/jitgemm/grouped.cuh": "#include \"utils.cuh\"\nvoid run() {}\n",
    "jitgemm/include/jitgemm/utils.cuh": "__device__ int helper() { return 0; }\n",
    "jitgemm/include/jitgemm/spare.cuh": "__device__ int spare() { return 1; }\n",
    "tests/test_gemm.py": "from jitgemm import gemm\n\n\ndef test_gemm():\n    assert gemm()\n",
}


def _kernels(tmp_path) -> dict[str, int]:
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}


def test_headers_python_strings_name_as_includes_are_used(tmp_path):
    found = _kernels(tmp_path)
    for header in ("gemm", "grouped", "utils"):
        assert f"source:jitgemm/include/jitgemm/{header}.cuh" not in found
    assert found["source:jitgemm/include/jitgemm/spare.cuh"] >= 60  # nothing names it


def test_a_kernel_after_launch_bounds_with_a_call_keeps_its_name(tmp_path):
    root = write_project(tmp_path, FILES, "")
    names = {k.name for k in kernel_table(root, build_index(root)).kernels if k.kind == "cuda"}
    assert names == {"gemm_kernel"}


CODEGEN_FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='tlc', packages=['tlc'])\n",
    "CMakeLists.txt": "add_library(tlc SHARED src/codegen.cc)\n",
    "src/codegen.cc": """
        #include <sstream>
        void emit(std::ostream& decl_stream) {
          decl_stream << "#include <tl_templates/cuda/copy.h>\\n";
          decl_stream << "#include \\"tl_templates/cuda/gemm.h\\"\\n";
        }
    """,
    "src/tl_templates/cuda/copy.h": "#include \"common.h\"\n__device__ void copy() {}\n",
    "src/tl_templates/cuda/common.h": "__device__ int one() { return 1; }\n",
    "src/tl_templates/cuda/gemm.h": "__device__ void gemm() {}\n",
    "src/tl_templates/cuda/spare.h": "__device__ void spare() {}\n",
    "tlc/__init__.py": "def run():\n    return 1\n",
    "tests/test_run.py": "from tlc import run\n\n\ndef test_run():\n    assert run() == 1\n",
}


def test_headers_generated_code_includes_are_kept_by_the_generator(tmp_path):
    """tilelang's codegen_cuda.cc writes ``#include <tl_templates/cuda/copy.h>`` into the code it generates: 26 of
    its templates were unused at 60-70."""
    result, _table = run_audit(open_tree(write_project(tmp_path, CODEGEN_FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    for header in ("copy", "common", "gemm"):
        assert f"source:src/tl_templates/cuda/{header}.h" not in found
    assert found["source:src/tl_templates/cuda/spare.h"] >= 60
