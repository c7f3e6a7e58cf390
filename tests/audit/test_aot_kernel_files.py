"""Session 34 (aiter ``8df2bbd``, session 33's false finding): ``op_tests/.../kernel.py`` defines the Triton
``empty_kernel``; nothing imports it, but the test beside it names the file by path (``kernel_path =
os.path.join(Path(__file__).parent, "kernel.py")``), compiles it ahead of time and loads the binary by name
(``kernel_name="empty_kernel"``). The kernel was reported with no use at 60+. A kernel's name as a string in a
file that names the kernel's file by path is a use there; the same string with no path to the file is none."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

KERNEL = """
    import triton
    import triton.language as tl


    @triton.jit
    def empty_kernel(x_ptr, SIZE: tl.constexpr):
        return
"""

FILES = {
    "pyproject.toml": '[project]\nname = "fastk"\nversion = "1"\n',
    "fastk/__init__.py": "def run(x):\n    return x\n",
    "op_tests/redirect/kernel.py": KERNEL,
    "op_tests/redirect/test_redirect.py": """
        import os
        from pathlib import Path

        kernel_path = os.path.join(Path(__file__).parent, "kernel.py")


        def test_aot():
            assert os.path.exists(kernel_path)
            assert load_aot(kernel_name="empty_kernel")


        def load_aot(kernel_name):
            return kernel_name
    """,
    "op_tests/other/kernel2.py": KERNEL.replace("empty_kernel", "lonely_kernel"),
    "op_tests/other/test_other.py": 'def test_x():\n    assert "lonely_kernel"\n',
}


def test_a_kernel_named_beside_a_path_to_its_file_is_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert not any("empty_kernel" in s for s in found), found
    assert any("lonely_kernel" in s for s in found), found
