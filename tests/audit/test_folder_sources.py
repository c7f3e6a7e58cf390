"""aiter (``ee9114bd48^``): ``@compile_ops(srcs=[f"{CSRC}/pybind/gemm_pybind.cu", f"{CSRC}/ck_gemm_a8w8",
f"{CSRC}/ck_gemm_a8w8/instances"])`` gives a build helper folders it lists and compiles every source of
(``os.listdir``); 150 sources of those folders were reported at 60-70 ("no Python string, loader, build file or
#include names it"). A path string naming a folder keeps the sources directly in it; folders of include lists
(``include_dirs=``, ``"extra_include": [...]``) keep nothing, and an unnamed folder's sources are still found."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ait', packages=['ait'])\n",
    "ait/__init__.py": "from ait.gemm import gemm\n",
    "ait/jit.py": """
        import os

        CSRC = os.path.join(os.path.dirname(__file__), "..", "csrc")


        def compile_ops(srcs, extra_include=()):
            def wrap(f):
                return f
            return wrap
    """,
    "ait/gemm.py": """
        from ait.jit import CSRC, compile_ops

        OPTS = {"extra_include": [f"{CSRC}/old_kernels"]}


        @compile_ops(srcs=[f"{CSRC}/pybind/gemm_pybind.cu", f"{CSRC}/ck_gemm", f"{CSRC}/ck_gemm/instances"],
                     extra_include=[f"{CSRC}/common"])
        def gemm(x): ...
    """,
    "csrc/pybind/gemm_pybind.cu": "int gemm_pybind() { return 0; }\n",
    "csrc/ck_gemm/gemm.cu": "int gemm_main() { return 0; }\n",
    "csrc/ck_gemm/instances/gemm_128x128.cpp": "int gemm_128() { return 0; }\n",
    "csrc/common/helpers.cpp": "int helper() { return 0; }\n",
    "csrc/old_kernels/stale.cu": "int stale() { return 0; }\n",
    "tests/test_gemm.py": "from ait import gemm\n\n\ndef test_gemm():\n    gemm(1)\n",
}


def test_a_folder_a_build_helper_lists_keeps_its_sources(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    flagged = {f.subject for f in result.findings if f.kind == "unused-kernel" and f.confidence >= 60}
    assert "source:csrc/ck_gemm/gemm.cu" not in flagged
    assert "source:csrc/ck_gemm/instances/gemm_128x128.cpp" not in flagged
    assert "source:csrc/common/helpers.cpp" in flagged  # an include folder
    assert "source:csrc/old_kernels/stale.cu" in flagged
