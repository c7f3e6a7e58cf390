"""k2 (``613e03d1^`` "Remove unused DiscountedCumSum"): the module's body only calls functions that bind names
into the module they are passed (``PYBIND11_MODULE(_k2, m) { PybindTorch(m); }``, ``void PybindTorch(py::module
&m) { PybindDiscountedCumSum(m); ... }``, ``void PybindDiscountedCumSum(py::module &m) { m.def("discounted_cum_sum",
...); }``): only ``m.def`` inside a module's own body was an export, so the one nothing read was never reported. Such
a function's exports belong to the module whose body calls it, directly or through other such functions; a name
imported from a submodule (``from _k2.v2 import index_add``) reads the module's export."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='kk', packages=['kk'], ext_modules=[CUDAExtension(name='_kk', "
                "sources=['csrc/kk.cu', 'csrc/torch.cu', 'csrc/cum_sum.cu', 'csrc/index.cu'])])\n",
    "csrc/kk.cu": "void PybindTorch(py::module &m);\nPYBIND11_MODULE(_kk, m) {\n  PybindTorch(m);\n}\n",
    "csrc/torch.cu": "void PybindCumSum(py::module &m);\nvoid PybindIndex(py::module &m);\n"
                     "void PybindTorch(py::module &m) {\n  PybindCumSum(m);\n  auto v2 = m.def_submodule(\"v2\");\n"
                     "  PybindIndex(v2);\n}\n",
    "csrc/cum_sum.cu": "int CumSum(int x) { return x; }\nint Used(int x) { return x; }\n"
                       "void PybindCumSum(py::module &m) {\n  m.def(\"cum_sum\", &CumSum);\n"
                       "  m.def(\"used_sum\", &Used);\n}\n",
    "csrc/index.cu": "int IndexAdd(int x) { return x; }\n"
                     "void PybindIndex(py::module &m) {\n  m.def(\"index_add\", &IndexAdd);\n}\n",
    "kk/__init__.py": "import _kk\nfrom _kk.v2 import index_add\n\n\ndef total(x):\n    return _kk.used_sum(x)\n",
    "tests/test_kk.py": "import kk\n\n\ndef test_total():\n    assert kk.total(1)\n",
}


def test_exports_of_a_function_a_module_passes_itself_to(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("pybind:_kk.cum_sum", 0) >= 60
    assert "pybind:_kk.used_sum" not in found
    assert "pybind:_kk.index_add" not in found


MOVED = {
    "setup.py": "from setuptools import setup\nsetup(name='kk', packages=['kk'])\n",
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\nproject(kk)\nadd_subdirectory(new)\n"
                      "# add_subdirectory(old)\n",
    "new/CMakeLists.txt": "pybind11_add_module(_kk kk.cu nbest.cu)\n",
    "new/kk.cu": "void PybindNbest(py::module &m);\nPYBIND11_MODULE(_kk, m) {\n  PybindNbest(m);\n}\n",
    "new/nbest.cu": "int Best(int x) { return x; }\nvoid PybindNbest(py::module &m) {\n  m.def(\"best\", &Best);\n}\n",
    "old/CMakeLists.txt": "pybind11_add_module(_kk kk.cu nbest.cu)\n",
    "old/kk.cu": "void PybindNbest(py::module &m);\nPYBIND11_MODULE(_kk, m) {\n  PybindNbest(m);\n}\n",
    "old/nbest.cu": "int Best(int x) { return x; }\nvoid PybindNbest(py::module &m) {\n  m.def(\"best\", &Best);\n}\n",
    "kk/__init__.py": "import _kk\n\n\ndef best(x):\n    return _kk.best(x)\n",
    "tests/test_kk.py": "import kk\n\n\ndef test_best():\n    assert kk.best(1)\n",
}


def test_reads_of_an_export_load_the_copy_a_build_compiles(tmp_path):
    """k2 ``80e0460c^``: the old ``k2/python/csrc/`` (its ``add_subdirectory`` commented out) binds the same exports
    into ``_k2`` as the built ``k2/torch/python/csrc/``; the reads kept the old ``nbest.cu`` (60 before)."""
    result, _table = run_audit(open_tree(write_project(tmp_path, MOVED, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found.get("source:old/nbest.cu", 0) >= 60
    assert "source:new/nbest.cu" not in found


UNBUILT = {
    "setup.py": "from setuptools import setup\nsetup(name='kk', packages=['kk', 'kkhost'])\n",
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\nproject(kk)\nadd_subdirectory(new)\n"
                      "# add_subdirectory(host)\n# add_subdirectory(old)\n",
    "new/CMakeLists.txt": "pybind11_add_module(_kk kk.cu torch.cu)\n",
    "new/kk.cu": "void PybindTorch(py::module &m);\nPYBIND11_MODULE(_kk, m) {\n  PybindTorch(m);\n}\n",
    "new/torch.cu": "int Best(int x) { return x; }\nvoid PybindTorch(py::module &m) {\n  m.def(\"best\", &Best);\n}\n",
    # a copy no build compiles whose binder has the built one's name and binds one more export
    "old/CMakeLists.txt": "pybind11_add_module(_kk kk.cu torch.cu ragged.cu)\n",
    "old/kk.cu": "void PybindTorch(py::module &m);\nPYBIND11_MODULE(_kk, m) {\n  PybindTorch(m);\n}\n",
    "old/torch.cu": "void PybindRagged(py::module &m);\nvoid PybindTorch(py::module &m) {\n  PybindRagged(m);\n}\n",
    "old/ragged.cu": '#include "old/util.h"\nvoid PybindRagged(py::module &m) {\n  m.def("index", &Index);\n}\n',
    "old/util.h": "int Index(int x);\n",
    # a module of its own no build compiles
    "host/CMakeLists.txt": "pybind11_add_module(_kkhost k2.cc properties.cc)\n",
    "host/k2.cc": "void PybindProperties(py::module &m);\nPYBIND11_MODULE(_kkhost, m) {\n  PybindProperties(m);\n}\n",
    "host/properties.cc": "bool Valid(int x) { return x; }\nvoid PybindProperties(py::module &m) {\n"
                          "  m.def(\"_is_valid\", &Valid);\n}\n",
    "kk/__init__.py": "import _kk\n\n\ndef best(x):\n    return _kk.best(x) + _kk.index(x)\n",
    "kkhost/__init__.py": "import _kkhost\n\n\ndef valid(x):\n    return _kkhost._is_valid(x)\n",
    "tests/test_kk.py": "import kk\nimport kkhost\n\n\ndef test_best():\n    assert kk.best(1) and kkhost.valid(1)\n",
}


def test_reads_of_exports_bound_into_a_module_no_build_compiles_keep_nothing(tmp_path):
    """k2 ``2fd1aa79^``: ``k2/python/host/csrc/properties.cc`` binds ``_is_valid`` into ``_k2host``, whose body
    (``k2.cc``) sits behind a commented-out ``add_subdirectory(host)``: Python's reads kept it (60 before binder
    exports). ``80e0460c^``: the unbuilt ``ragged_ops.cu`` binds ``index`` through a binder named like the built
    copy's (``PybindTorch``): the built module cannot link it, so ``torch_util.h``, which only it includes, went."""
    result, _table = run_audit(open_tree(write_project(tmp_path, UNBUILT, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    for source in ("host/k2.cc", "host/properties.cc", "old/ragged.cu", "old/util.h"):
        assert found.get(f"source:{source}", 0) >= 60, source
    assert not any(s.startswith("source:new/") for s in found)
    assert "pybind:_kkhost._is_valid" not in found  # Python reads it: its source is the finding
