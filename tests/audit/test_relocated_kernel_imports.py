"""A kernel imported through a module name the tree lacks, whose tail names a module that is there (FlagGems
``f5958c6f^``: ``flag_gems/runtime/backend/_kunlunxin/ops/contiguous.py``'s ``from _kunlunxin.ops.copy import
copy_slice``, the backend folder on ``sys.path``) had "no reference to it outside its own body" (80): the
import was linked to nothing. A dotted name missing from the tree links to the modules whose names end with it; a
kernel nothing imports is still reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

_KERNELS = "import triton\n\n\n@triton.jit\ndef copy_slice(x):\n    pass\n\n\n@triton.jit\ndef copy_old(x):\n    pass\n"
FILES = {
    "pyproject.toml": '[project]\nname = "gems"\nversion = "1"\n',
    "gems/__init__.py": "from gems.backend import contiguous\n",
    "gems/backend/__init__.py": "import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(__file__))\n"
                                "from gems.backend._vendor.ops import contiguous\n",
    "gems/backend/_vendor/__init__.py": "",
    "gems/backend/_vendor/ops/__init__.py": "",
    "gems/backend/_vendor/ops/copy.py": _KERNELS,
    "gems/backend/_vendor/ops/contiguous.py": "from _vendor.ops.copy import copy_slice\n\n\ndef contiguous(x):\n"
                                             "    copy_slice[(1,)](x)\n",
}


def test_a_kernel_imported_by_the_tail_of_its_module_name_is_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "triton:gems/backend/_vendor/ops/copy.py::copy_slice" not in found, found
    assert found.get("triton:gems/backend/_vendor/ops/copy.py::copy_old", 0) >= 60
