"""torch-ngp (``4d9806c^``): ``raymarching/backend.py`` builds the extension at import
(``_backend = load(name='_raymarching', sources=[...])``) and ``raymarching/raymarching.py`` takes it by name
(``from .backend import _backend``) and calls ``_backend.march_rays(...)``. Only files importing the loader's
module itself were read, so all 17 exports of the tree's three such extensions were "no Python code reads the
name from the module" (70). A file importing a name from the loader's module reads the extension too."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='rm', packages=['rm'])\n",
    "rm/__init__.py": "from .marching import march\n",
    "rm/backend.py": "import os\nfrom torch.utils.cpp_extension import load\n\n"
                     "_src = os.path.dirname(os.path.abspath(__file__))\n"
                     "_backend = load(name='_rm', sources=[os.path.join(_src, 'src', f) for f in [\n"
                     "    'rm.cu', 'bindings.cpp']])\n",
    "rm/marching.py": "from .backend import _backend\n\n\ndef march(x):\n    return _backend.march_rays(x)\n",
    "rm/src/rm.cu": "__global__ void march_kernel(float* x) { x[0] = 1; }\n"
                    "int march_rays(int x) { march_kernel<<<1, 1>>>(0); return x; }\n"
                    "int old_rays(int x) { return x; }\n",
    "rm/src/bindings.cpp": "int march_rays(int x);\nint old_rays(int x);\n"
                           "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
                           "    m.def(\"march_rays\", &march_rays);\n    m.def(\"old_rays\", &old_rays);\n}\n",
    "tests/test_march.py": "from rm import march\n\n\ndef test_march():\n    assert march(1)\n",
}


def test_exports_read_through_a_name_imported_from_the_loader_module(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.march_rays" not in found
    assert found.get("pybind:TORCH_EXTENSION_NAME.old_rays", 0) >= 60
