"""Session 34 (aiter ``ee9114b^``, session 33's open item): the package re-exports an extension whole
(``from hipbsolidxgemm_ import *`` in ``gradlib``), so every export is public API of the package
(``gradlib.destroy_extension``) a user may call; those nothing in the tree reads were at 70. A star import of the
extension is an import of each export (40, "imported but never called"); an extension nothing star-imports keeps
its unread exports at 70."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

EXT = """
    #include <torch/extension.h>
    int gemm(int a) { return a; }
    int destroy_extension() { return 0; }
    PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("gemm", &gemm); m.def("destroy_extension", &destroy_extension); }
"""

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension

        setup(name="gl", packages=["gl"], ext_modules=[CUDAExtension("gl_ext_", ["gl/csrc/ext.cpp"]),
                                                       CUDAExtension("gl_priv_", ["gl/csrc/priv.cpp"])])
    """,
    "gl/__init__.py": "from gl_ext_ import *\nfrom gl.ops import mm2\n",
    "gl/ops.py": "import gl_ext_\nimport gl_priv_\n\n\ndef mm2(a):\n    return gl_ext_.gemm(a) + gl_priv_.gemm(a)\n",
    "gl/csrc/ext.cpp": EXT,
    "gl/csrc/priv.cpp": EXT,
    "tests/test_gl.py": "from gl import mm2\n\n\ndef test_mm():\n    assert mm2(1) == 2\n",
}


def test_star_imported_exports_are_public(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {(f.path, f.subject.split("@")[0].rsplit(".", 1)[-1]): f for f in result.findings if f.kind == "unused-kernel"}
    star = found[("gl/csrc/ext.cpp", "destroy_extension")]
    assert star.confidence == 40 and "gl/__init__.py" in star.reason
    assert found[("gl/csrc/priv.cpp", "destroy_extension")].confidence == 70
    assert ("gl/csrc/ext.cpp", "gemm") not in found
