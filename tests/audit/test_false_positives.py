"""False positives kernel libraries' audits showed (session 28: flash-attention, DeepEP, FlagGems).

pybind exports of a ``PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)`` source: the module's name is the one the
``setup.py`` extension listing the source gives (flash-attention's ``CUDAExtension(name="flash_attn_2_cuda",
sources=[...])``, DeepEP's ``sources=sources``), so ``import flash_attn_2_cuda as gpu; gpu.fwd(...)`` uses
``fwd``; a source no build of the tree names keeps its exports at a low confidence (unknown means keep). A
module name a function binds with ``global`` (FlagGems' ``pytest_configure``) is defined: importing it is no
orphaned test."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

API = """
#include <torch/extension.h>
void fwd() {}
void spare() {}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fwd", &fwd);
  m.def("spare", &spare);
}
"""

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension

        sources = ["csrc/hop/api.cpp"]
        ext = [CUDAExtension(name="attn_cuda", sources=["csrc/attn/api.cpp"])]
        ext.append(CUDAExtension(name="hop_cuda", sources=sources))
        # ext.append(CUDAExtension(name="hop_cuda_ws", sources=sources))
        setup(name="attn", packages=["attn"], ext_modules=ext)
    """,
    "csrc/attn/api.cpp": API,
    "csrc/hop/api.cpp": API,
    "csrc/lone/api.cpp": API,
    "attn/__init__.py": """
        import attn_cuda as gpu
        import hop_cuda


        def run():
            return gpu.fwd(), hop_cuda.fwd()
    """,
}


def test_pybind_exports_take_the_name_of_the_setup_py_extension(tmp_path):
    project = write_project(tmp_path, FILES, "")
    result, _table = run_audit(open_tree(project))
    pybind = {f.subject.split("@")[0] + "@" + f.path: f.confidence for f in result.findings
              if f.kind == "unused-kernel" and f.subject.startswith("pybind:")}
    assert pybind == {"pybind:TORCH_EXTENSION_NAME.spare@csrc/attn/api.cpp": 70,
                      "pybind:TORCH_EXTENSION_NAME.spare@csrc/hop/api.cpp": 70,
                      "pybind:TORCH_EXTENSION_NAME.fwd@csrc/lone/api.cpp": 30,
                      "pybind:TORCH_EXTENSION_NAME.spare@csrc/lone/api.cpp": 30}


def test_a_name_a_function_binds_with_global_is_defined(tmp_path):
    files = {"pkg/__init__.py": "", "tests/conftest.py": "def pytest_configure(config):\n    global TO_CPU\n"
             "    TO_CPU = config.getoption('--cpu', False)\n",
             "tests/test_a.py": "from tests.conftest import TO_CPU\n\n\ndef test_a():\n    assert TO_CPU in (True, False)\n",
             "tests/__init__.py": ""}
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    assert not [f for f in result.findings if f.kind == "orphaned-test"]


def test_vendor_modules_an_fstring_names_from_the_package_name_are_reached(tmp_path):
    files = {
        "pkg/__init__.py": "from pkg.backends import registry\n",
        "pkg/backends/__init__.py": "",
        "pkg/backends/registry.py": """
            import importlib

            _BACKENDS = __name__.rsplit(".", 1)[0]


            def load(vendor):
                return importlib.import_module(f"{_BACKENDS}._{vendor}.ops")
        """,
        "pkg/backends/_npu/__init__.py": "",
        "pkg/backends/_npu/ops/__init__.py": "from pkg.backends._npu.ops.norm import norm\n",
        "pkg/backends/_npu/ops/norm.py": "def norm(x):\n    return x\n",
        "pkg/backends/_npu/draft.py": "def old():\n    return 0\n",
    }
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    unused = {f.subject for f in result.findings if f.kind == "unused-file"}
    assert unused == {"pkg/backends/_npu/draft.py"}


def test_a_submodule_of_a_plain_module_is_made_at_import_not_missing(tmp_path):
    """bottle 0.13.4: ``bottle.py`` puts an import hook on ``sys.meta_path`` that serves ``bottle.ext.NAME``, and
    ``test/test_importhook.py`` imports ``bottle.ext.test``: "imports what does not exist" at 85. A module that is
    no package has no submodules on disk, so only its import-time code makes one: that is not judged (40). A
    missing submodule of a package is still a finding at 85."""
    files = {
        "hooked.py": """
            import sys

            class _Redirect:
                def find_spec(self, fullname, path, target=None):
                    return None

            sys.meta_path.append(_Redirect())
        """,
        "setup.py": "from setuptools import setup\nsetup(name='hooked', py_modules=['hooked'], packages=['pkg'])\n",
        "pkg/__init__.py": "",
        "test/__init__.py": "",
        "test/test_hook.py": "def test_hook():\n    import hooked.ext.thing\n",
        "test/test_missing.py": "def test_missing():\n    import pkg.gone\n",
    }
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    orphaned = {f.path: f for f in result.findings if f.kind == "orphaned-test"}
    assert orphaned["test/test_hook.py"].confidence == 40
    assert "below the module hooked.py, not a package" in orphaned["test/test_hook.py"].reason
    assert orphaned["test/test_missing.py"].confidence == 85


def test_a_submodule_of_a_shared_namespace_may_come_from_another_distribution(tmp_path):
    """PasteDeploy 2.1.1: ``paste/__init__.py`` declares a namespace (``pkg_resources.declare_namespace``, else
    ``pkgutil.extend_path``) that the Paste distribution fills, and a test imports ``paste.fixture``: "imports what
    does not exist" at 85. Such a submodule may be installed by another distribution (40); a missing submodule of
    a plain package, even one inside the namespace, is still a finding at 85."""
    files = {
        "paste/__init__.py": """
            try:
                import pkg_resources
                pkg_resources.declare_namespace(__name__)
            except ImportError:
                from pkgutil import extend_path
                __path__ = extend_path(__path__, __name__)
        """,
        "paste/deploy/__init__.py": "",
        "setup.py": "from setuptools import setup\nsetup(name='pastedeploy', packages=['paste', 'paste.deploy'])\n",
        "tests/test_fixture.py": "from paste.fixture import TestApp\n",
        "tests/test_missing.py": "import paste.deploy.gone\n",
    }
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    orphaned = {f.path: f for f in result.findings if f.kind == "orphaned-test"}
    assert orphaned["tests/test_fixture.py"].confidence == 40
    assert "paste is a namespace package (paste/__init__.py extends its path)" in orphaned[
        "tests/test_fixture.py"].reason
    assert orphaned["tests/test_missing.py"].confidence == 85
