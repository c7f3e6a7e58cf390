"""Session 34 (pytorch3d ``e19df587^``): ``setup.py`` binds the extension class to a name and calls it
(``extension = CppExtension`` ... ``extension = CUDAExtension`` ... ``extension("pytorch3d._C", sources)``), and
tests import the built module from the package (``from pytorch3d import _C``). Four tests were reported at 85,
"imports _C from pytorch3d, which does not define it"."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": """
        import glob
        import os

        from setuptools import find_packages, setup
        from torch.utils.cpp_extension import CppExtension, CUDAExtension


        def get_extensions():
            extensions_dir = os.path.join("geo3d", "csrc")
            main_source = os.path.join(extensions_dir, "ext.cpp")
            sources = [main_source] + glob.glob(os.path.join(extensions_dir, "**", "kernels", "*.cpp"))
            extension = CppExtension
            if os.getenv("FORCE_CUDA", "0") == "1":
                extension = CUDAExtension
                sources += glob.glob(os.path.join(extensions_dir, "**", "*.cu"))
            return [extension("geo3d._C", sources)]


        setup(name="geo3d", packages=find_packages(exclude=("tests",)), ext_modules=get_extensions())
    """,
    "geo3d/__init__.py": "from geo3d.ops import knn\n",
    "geo3d/ops.py": "from geo3d import _C\n\n\ndef knn(p):\n    return _C.knn(p)\n",
    "geo3d/csrc/ext.cpp": """
        #include <torch/extension.h>
        int knn(int p) { return p; }
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("knn", &knn); }
    """,
    "tests/test_knn.py": """
        from geo3d import _C
        from geo3d.ops import knn


        def test_knn():
            assert knn(1) == _C.knn(1)
    """,
    "tests/test_missing.py": "from geo3d import _D\n\n\ndef test_d():\n    assert _D\n",
}


def test_a_module_built_through_a_bound_extension_class_exists(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    orphaned = {f.subject: f.reason for f in result.findings if f.kind == "orphaned-test"}
    assert "_C" not in orphaned.get("tests/test_knn.py", "")
    assert "imports _D from geo3d" in orphaned["tests/test_missing.py"]
    unused = {f.subject for f in result.findings if f.kind == "unused-kernel"}
    assert not any("knn" in s for s in unused)
