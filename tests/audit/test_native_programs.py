"""Session 34 (quack ``8288fc6^``): ``microbenchmarks/gpu_pipe_microbench.cu`` defines ``main()`` and nothing in the
tree builds it: a program of its own, compiled with nvcc and run by hand, like a script. It was reported at 70
(the source) and 60 (its kernel, launched only in it). Such a source, its kernels and the headers only it
includes are at 30; an unbuilt source without ``main()`` stays at 70, and so does an unbuilt program in a tree whose
build files build programs (ThunderKittens' Makefiles: ``test_makefile_builds.py``)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "fastk"\nversion = "1"\n',
    "fastk/__init__.py": "def run(x):\n    return x\n",
    "tests/test_run.py": "from fastk import run\n\n\ndef test_run():\n    assert run(1) == 1\n",
    "microbenchmarks/pipe_bench.cu": """
        #include "bench_util.cuh"
        __global__ void pipe_bench_kernel(float* x) { x[0] = twice(1.0f); }

        int main(int argc, char** argv) {
            pipe_bench_kernel<<<1, 1>>>(nullptr);
            return 0;
        }
    """,
    "microbenchmarks/bench_util.cuh": "__device__ float twice(float x) { return 2 * x; }\n",
    "csrc/old_kernel.cu": "__global__ void old_kernel(float* x) { x[0] = 1; }\n",
}


def test_an_unbuilt_program_is_run_by_hand(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-kernel"}
    assert found["source:microbenchmarks/pipe_bench.cu"].confidence == 30
    assert "main()" in found["source:microbenchmarks/pipe_bench.cu"].reason
    assert found["cuda:microbenchmarks/pipe_bench.cu::pipe_bench_kernel"].confidence == 30
    assert found["source:microbenchmarks/bench_util.cuh"].confidence == 30
    assert found["source:csrc/old_kernel.cu"].confidence == 70
