"""Session 40 (torch-harmonics ``11aed88^``, "cleaned up code"): ``torch_harmonics/disco/__init__.py`` binds the
op namespace (``from torch.ops import disco_kernels``), ``disco_optimized.py`` imports that name (``from .. import
disco_kernels``) and calls ``disco_kernels.forward.default(...)``. Only ``torch.ops.NS.OP`` was read: every op of
the library was "unused" (40), and ``disco_cpu_legacy.cpp``, whose ``TORCH_LIBRARY_IMPL`` implements only the op
``forward_legacy`` that nothing calls, was never reported. Ops called through a name bound to their namespace are
used; a compiled source implementing only ops nothing calls is idle (50), with the header only it includes."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CppExtension

        setup(name="th", packages=["th"], ext_modules=[CppExtension("th.disco._C", [
            "th/csrc/interface.cpp", "th/csrc/disco_cpu.cpp", "th/csrc/disco_legacy.cpp"])])
    """,
    "th/__init__.py": "from .disco import conv\n",
    "th/disco/__init__.py": """
        import torch
        try:
            from . import _C
            from torch.ops import disco_kernels
        except ImportError:
            disco_kernels = None
        from .conv import conv
    """,
    "th/disco/conv.py": """
        from . import disco_kernels


        def conv(x):
            return disco_kernels.forward.default(x)
    """,
    "th/csrc/interface.cpp": """
        #include <torch/extension.h>
        TORCH_LIBRARY(disco_kernels, m) {
            m.def("forward(Tensor inp) -> Tensor");
            m.def("forward_legacy(Tensor inp) -> Tensor");
        }
    """,
    "th/csrc/disco_cpu.cpp": """
        #include <torch/extension.h>
        torch::Tensor disco_cpu_fwd(torch::Tensor inp) { return inp; }
        TORCH_LIBRARY_IMPL(disco_kernels, CPU, m) { m.impl("forward", &disco_cpu_fwd); }
    """,
    "th/csrc/disco_legacy.h": """
        #pragma once
        template <typename T> static void legacy_loop(T* out) { out[0] = T(0); }
    """,
    "th/csrc/disco_legacy.cpp": """
        #include <torch/extension.h>
        #include "disco_legacy.h"
        torch::Tensor disco_cpu_fwd_legacy(torch::Tensor inp) { return inp; }
        TORCH_LIBRARY_IMPL(disco_kernels, CPU, m) { m.impl("forward_legacy", &disco_cpu_fwd_legacy); }
    """,
}


def _findings(tmp_path, files):
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f for f in result.findings if f.kind == "unused-kernel"}


def test_an_op_called_through_its_imported_namespace_is_used(tmp_path):
    found = _findings(tmp_path, FILES)
    assert "torch-op:disco_kernels::forward" not in found
    assert found["torch-op:disco_kernels::forward_legacy"].confidence == 40  # public API of the library


def test_a_source_implementing_only_uncalled_ops_is_idle(tmp_path):
    found = _findings(tmp_path, FILES)
    assert found["source:th/csrc/disco_legacy.cpp"].confidence == 50
    assert found["source:th/csrc/disco_legacy.h"].confidence == 50
    assert "source:th/csrc/disco_cpu.cpp" not in found


def test_an_assigned_namespace_alias_counts(tmp_path):
    files = dict(FILES)
    files["th/disco/__init__.py"] = "import torch\nfrom .conv import conv\n"
    files["th/disco/conv.py"] = """
        import torch
        ops = torch.ops.disco_kernels


        def conv(x):
            return ops.forward_legacy(ops.forward(x))
    """
    found = _findings(tmp_path, files)
    assert not {"torch-op:disco_kernels::forward", "torch-op:disco_kernels::forward_legacy",
                "source:th/csrc/disco_legacy.cpp"} & set(found)


def test_ops_of_a_namespace_python_never_calls_are_kept(tmp_path):
    files = dict(FILES)
    files["th/disco/conv.py"] = "def conv(x):\n    return x\n"  # the ops are what users call: unknown
    found = _findings(tmp_path, files)
    assert "source:th/csrc/disco_legacy.cpp" not in found and "source:th/csrc/disco_cpu.cpp" not in found
