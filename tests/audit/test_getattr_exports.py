"""Session 32 (pytorch_scatter ``e55d73e^``): pybind exports read with ``getattr`` and a computed name.

``torch_scatter/utils/ext.py`` imports ``scatter_cpu``/``scatter_cuda`` and returns ``getattr(scatter, name)``;
callers pass the names as strings (``get_func('scatter_mul', src)``): all ten exports were unused at 70. An export
a string in reached code names is read; one no string names is at 40 (its name may be computed)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CppExtension

        setup(name="scat", packages=["scat"], ext_modules=[CppExtension("scat_cpu", ["cpu/scat.cpp"])])
    """,
    "cpu/scat.cpp": """
        #include <torch/extension.h>
        void scat_mul() {}
        void scat_div() {}
        void scat_max() {}
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
          m.def("scat_mul", &scat_mul);
          m.def("scat_div", &scat_div);
          m.def("scat_max", &scat_max);
        }
    """,
    "scat/__init__.py": "from scat.mul import mul\nfrom scat.div import div\n",
    "scat/ext.py": """
        import scat_cpu


        def get_func(name):
            return getattr(scat_cpu, name)
    """,
    "scat/mul.py": "from scat.ext import get_func\n\n\ndef mul(x):\n    return get_func('scat_mul')(x)\n",
    "scat/div.py": "from scat.ext import get_func\n\n\ndef div(x, op):\n    return get_func(f'scat_{op}')(x)\n",
    "tests/test_mul.py": "from scat import mul\n\n\ndef test_mul():\n    assert mul(1)\n",
}


def test_exports_read_by_getattr_with_a_computed_name(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.scat_mul" not in found  # get_func('scat_mul')
    assert "pybind:TORCH_EXTENSION_NAME.scat_div" not in found  # f'scat_{op}' may name it
    assert found.get("pybind:TORCH_EXTENSION_NAME.scat_max", 40) <= 40


def test_a_getattr_on_another_object_reads_no_export(tmp_path):
    """AutoAWQ's and apex's unread exports stayed at 70: their readers call getattr on other objects
    (``getattr(module, name)`` on a model), which says nothing about the extension."""
    files = dict(FILES)
    files["scat/ext.py"] = """
        import scat_cpu


        def get_func(name):
            return scat_cpu.scat_mul


        def attr(model, name):
            return getattr(model, name)
    """
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found["pybind:TORCH_EXTENSION_NAME.scat_div"] == 70  # 'scat_div' is named, but never read from it


def test_getattr_on_the_dotted_module(tmp_path):
    """Session 39 (pytorch_spline_conv ``d316976^``): ``import torch_spline_conv.basis_cuda`` ... ``getattr(
    torch_spline_conv.basis_cuda, name)`` with ``name = '{}_fw'.format(...)``: the receiver is the module's dotted
    name, not a local name; its 20 exports were unused at 70."""
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace('CppExtension("scat_cpu"', 'CppExtension("scat.scat_cpu"')
    files["scat/ext.py"] = ("import scat.scat_cpu\n\n\ndef get_func(name):\n"
                            "    return getattr(scat.scat_cpu, name)\n")
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.scat_mul" not in found, found
    assert "pybind:TORCH_EXTENSION_NAME.scat_div" not in found, found
    assert found.get("pybind:TORCH_EXTENSION_NAME.scat_max", 40) <= 40, found
