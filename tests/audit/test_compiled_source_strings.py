"""A CUDA kernel whose source is a Python string passed to a call that compiles it at run time and launches the
module's kernel without its name (tutel ``1ed068d^``: ``JitKernel.generate_kernel({...}, '''extern "C" __global__
void cumsum(...) {...}''')``, run through a generic ``invoke``) was "its name appears in no other native line and no
Python string" (70). The only kernel of a source string passed to a call is used where that call is; a string
holding several kernels, or one bound to a name and passed nowhere, is judged by its kernels' names as before."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

_ONE = 'extern "C" __global__ void cumsum(long* x, int* y) {\n    y[threadIdx.x] = x[threadIdx.x];\n}\n'
_TWO = '__global__ void add_one(float* y) { y[0] += 1; }\n__global__ void add_two(float* y) { y[0] += 2; }\n'
FILES = {
    "pyproject.toml": '[project]\nname = "moe"\nversion = "1"\n',
    "moe/__init__.py": "from .gating import get_cumsum, get_adders\n",
    "moe/jit.py": "def generate_kernel(keys, source):\n    return compile_and_invoke(source)\n",
    "moe/gating.py": f"from .jit import generate_kernel\n\n\ndef get_cumsum(n):\n"
                     f"    return generate_kernel({{'n': n}}, '''\n{_ONE}''')\n\n\n"
                     f"def get_adders():\n    return generate_kernel({{}}, '''\n{_TWO}''')\n\n\n"
                     f"UNUSED = '''\n{_ONE.replace('cumsum', 'cumprod')}'''\n",
}


def test_the_only_kernel_of_a_source_string_passed_to_a_call_is_used_there(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "cuda:moe/gating.py::cumsum" not in found, found
    assert found.get("cuda:moe/gating.py::add_one", 0) >= 60 and found.get("cuda:moe/gating.py::add_two", 0) >= 60
    assert found.get("cuda:moe/gating.py::cumprod", 0) >= 60
