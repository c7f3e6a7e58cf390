"""A distribution in a subfolder whose name is no identifier (FastVideo's ``fastvideo-kernel/pyproject.toml``,
``wheel.packages = ["python/fastvideo_kernel"]``): its files had no module name, so they were no roots, the main
package's ``from fastvideo_kernel import ops`` resolved to nothing, and the package and its Triton kernels were
"unreached" at 60. Its package now has its own name: the imports resolve, and its files are roots as the
package of a distribution of its own."""

from __future__ import annotations

from slimfork.audit.run import folder_why, run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": "[project]\nname = 'vid'\n",
    "vid/__init__.py": "",
    "vid/attn.py": "from vid_kernel.ops import attend\n\n\ndef run(x):\n    return attend(x)\n",
    "tests/test_attn.py": "from vid.attn import run\n\n\ndef test_run():\n    assert run(1)\n",
    "vid-kernel/pyproject.toml": "[project]\nname = 'vid-kernel'\n\n[tool.scikit-build]\n"
                                 "wheel.packages = ['python/vid_kernel']\n",
    "vid-kernel/python/vid_kernel/__init__.py": "from .ops import attend\n",
    "vid-kernel/python/vid_kernel/ops.py": "from vid_kernel.triton_kernels.fwd import launch\n\n\n"
                                           "def attend(x):\n    return launch(x)\n",
    "vid-kernel/python/vid_kernel/triton_kernels/__init__.py": "",
    "vid-kernel/python/vid_kernel/triton_kernels/fwd.py": "import triton\n\n\n@triton.jit\ndef _fwd(x):\n    pass\n\n\n"
                                                          "def launch(x):\n    _fwd[(1,)](x)\n    return x\n",
}


def test_a_hyphenated_distribution_folder_gives_its_package_its_own_name(tmp_path):
    root = write_project(tmp_path, FILES, "")
    result, _table = run_audit(open_tree(root))
    high = [(f.kind, f.subject) for f in result.findings if f.confidence >= 50 and f.kind != "duplicate"]
    assert not high, high
    assert folder_why(root, "vid_kernel.triton_kernels.fwd")["kept"]
