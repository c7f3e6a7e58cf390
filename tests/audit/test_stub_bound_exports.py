"""aiter (``2f773f826c^``): ``@compile_ops("module_hipbsolgemm") def hipb_mm(...) -> Tensor: ...`` declares a
function the decorator binds to the extension's export of the same name (``getattr(module, func.__name__)``); the
11 exports of ``hipbsolgemm.cu``/``rocsolgemm.cu`` were reported at 70 ("no Python code reads the name"). A
decorated function with no body (a docstring, ``...`` or ``pass``) named like an export uses it; ``@overload`` and
``@abstractmethod`` stubs do not, and an export nothing declares or reads is still reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='gl', packages=['gl'], ext_modules=[CUDAExtension('glext', ['csrc/gemm.cu'])])\n",
    "gl/__init__.py": "from gl.ops import hipb_mm\n",
    "gl/jit.py": "import importlib\n\n\ndef compile_ops(md):\n    def wrap(f):\n"
                 "        return getattr(importlib.import_module(md), f.__name__)\n    return wrap\n",
    "gl/ops.py": """
        from abc import abstractmethod
        from typing import overload

        from gl.jit import compile_ops


        @compile_ops("glext")
        def hipb_mm(a, b):
            \"\"\"a @ b on the GPU.\"\"\"


        class Base:
            @abstractmethod
            def rocb_mm(self, a): ...


        @overload
        def old_mm(a: int) -> int: ...
    """,
    "csrc/gemm.cu": 'int hipb_mm(int a, int b) { return a * b; }\nint rocb_mm(int a) { return a; }\n'
                    'int old_mm(int a) { return a; }\n'
                    'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("hipb_mm", &hipb_mm);\n'
                    '  m.def("rocb_mm", &rocb_mm); m.def("old_mm", &old_mm); }\n',
    "tests/test_mm.py": "from gl import hipb_mm\n\n\ndef test_mm():\n    assert hipb_mm(1, 2)\n",
}


def test_an_export_a_decorated_stub_declares_is_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.hipb_mm" not in found
    assert found.get("pybind:TORCH_EXTENSION_NAME.rocb_mm", 0) >= 60
    assert found.get("pybind:TORCH_EXTENSION_NAME.old_mm", 0) >= 60
