"""Session 31 (exllamav2 ``fd28827^``, "Fix (unused kernel)"): pybind exports and the host code they bind.

- A ``setup.py`` extension named by a variable bound once to a literal (``extension_name = "exllamav2_ext"``,
  ``CUDAExtension(extension_name, [...])``) names the module of its ``PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)``
  sources: 40 of 47 exports were reported unused at 70 while ``ext_c.rms_norm(...)`` read them.
- A host function a pybind export binds (``m.def("quantize", &quantize)``) is reached through that export: an export
  no Python code reads makes it live no more, and neither does a method of that name read on an instance of a class
  (``lq.quantize()`` with ``lq: AdaptiveGPTQ``): the maintainers' unused ``quantize_kernel`` was counted launched.
- A kernel or export that only scripts (or what they import) use is reported like them, at 30."""

from __future__ import annotations

from slimfork.audit.layout import audit_tree
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

BINDINGS = """
#include <torch/extension.h>
#include "quant.cuh"
void fwd() {}
void spare() {}
void quantize() { quantize_cuda(); }
void plan() {}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fwd", &fwd);
  m.def("spare", &spare);
  m.def("quantize", &quantize);
  m.def("plan", &plan);
}
"""

QUANT = """
#include "quant.cuh"
__global__ void quantize_kernel(float* x) { x[0] = 0; }
__global__ void plan_kernel(float* x) { x[0] = 1; }
void quantize_cuda() { quantize_kernel<<<1, 1>>>(nullptr); }
"""

FILES = {
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension

        extension_name = "fastq_ext"
        setup(name="fastq", packages=["fastq"],
              ext_modules=[CUDAExtension(extension_name, ["csrc/bindings.cpp", "csrc/quant.cu"])])
    """,
    "csrc/bindings.cpp": BINDINGS,
    "csrc/quant.cuh": "void quantize_cuda();\n",
    "csrc/quant.cu": QUANT,
    "fastq/__init__.py": "from fastq.ext import ext_c\n\n\ndef run():\n    return ext_c.fwd()\n",
    "fastq/ext.py": "import fastq_ext as ext_c\n",
    "fastq/gptq.py": """
        from fastq.ext import ext_c


        class Quantizer:
            def quantize(self):
                return 0


        def quant_linear(lq: Quantizer):
            return lq.quantize()


        def build():
            q = Quantizer()
            return q.quantize()
    """,
    "tests/test_run.py": "from fastq import run\nimport fastq.gptq\n\n\ndef test_run():\n    assert run() is None\n",
    "convert.py": """
        from fastq.ext import ext_c

        if __name__ == "__main__":
            ext_c.plan()
    """,
}


def _kernels(tmp_path, files):
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}


def test_exports_of_an_extension_named_by_a_variable_are_read_through_its_module(tmp_path):
    found = _kernels(tmp_path, FILES)
    assert "pybind:TORCH_EXTENSION_NAME.fwd" not in found
    assert found["pybind:TORCH_EXTENSION_NAME.spare"] == 70


def test_a_host_function_only_an_unread_export_binds_launches_nothing(tmp_path):
    found = _kernels(tmp_path, FILES)
    # lq.quantize() / q.quantize() are methods of Quantizer instances, not reads of the extension's quantize
    assert found["pybind:TORCH_EXTENSION_NAME.quantize"] == 70
    assert found["cuda:csrc/quant.cu::quantize_kernel"] == 50


def test_a_host_function_a_read_export_binds_is_live(tmp_path):
    files = dict(FILES)
    files["fastq/gptq.py"] = "from fastq.ext import ext_c\n\n\ndef quant_linear(lq):\n    return ext_c.quantize()\n"
    found = _kernels(tmp_path, files)
    assert "pybind:TORCH_EXTENSION_NAME.quantize" not in found
    assert "cuda:csrc/quant.cu::quantize_kernel" not in found


def test_a_receiver_that_may_be_the_module_still_reads_it(tmp_path):
    files = dict(FILES)  # an unannotated parameter may be the extension module itself: unknown means keep
    files["fastq/gptq.py"] = "from fastq.ext import ext_c\n\n\ndef quant_linear(lq):\n    return lq.quantize()\n"
    found = _kernels(tmp_path, files)
    assert "cuda:csrc/quant.cu::quantize_kernel" not in found


def test_an_export_only_a_script_uses_is_reported_like_the_script(tmp_path):
    found = _kernels(tmp_path, FILES)
    assert found["pybind:TORCH_EXTENSION_NAME.plan"] == 30


def test_exports_of_an_extension_that_is_a_distributions_whole_api_are_public(tmp_path):
    """ThunderKittens' ``setup(name="thunderkittens", ext_modules=[CUDAExtension("thunderkittens", ...)])`` installs
    no package: users ``import thunderkittens`` and call its exports (``tk.cylon``), which nothing in the tree
    reads. They are public (40), and the host code they bind stays live; a distribution that also installs
    packages keeps its unread exports at 70."""
    files = {
        "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n\n"
                    "setup(name='tk', ext_modules=[CUDAExtension('tk', ['tk.cpp', 'k.cu'])])\n",
        "tk.cpp": BINDINGS,
        "quant.cuh": "void quantize_cuda();\n",
        "k.cu": QUANT,
        "tests/test_tk.py": "import tk\n\n\ndef test_fwd():\n    assert tk.fwd() is None\n",
    }
    result, _table = run_audit(audit_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found["pybind:TORCH_EXTENSION_NAME.spare"] == 40
    assert found["pybind:TORCH_EXTENSION_NAME.quantize"] == 40
    assert "cuda:k.cu::quantize_kernel" not in found


def test_exports_of_an_extension_named_by_a_template(tmp_path):
    """Session 39 (tiny-cuda-nn): ``CUDAExtension(name=f"tinycudann_bindings_{cc}._C", sources=source_files)``,
    loaded by ``_C = importlib.import_module(f"tinycudann_bindings_{cc}._C")`` and read as ``_C.create_network``:
    the file writing the build's template loads the module; its six exports were unused at 60-70."""
    files = {
        "bindings/setup.py": """
            from setuptools import setup
            from torch.utils.cpp_extension import CUDAExtension
            cc = 86
            source_files = ["tc/bindings.cpp"]
            ext = CUDAExtension(name=f"tc_bindings_{cc}._C", sources=source_files)
            setup(name="tc", packages=["tc"], ext_modules=[ext])
        """,
        "bindings/tc/bindings.cpp": """
            #include <torch/extension.h>
            int create_network() { return 0; }
            int free_memory() { return 0; }
            PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
              m.def("create_network", &create_network);
              m.def("free_memory", &free_memory);
            }
        """,
        "bindings/tc/__init__.py": """
            import importlib
            _C = None
            for cc in (86, 80):
                try:
                    _C = importlib.import_module(f"tc_bindings_{cc}._C")
                    break
                except ImportError:
                    pass


            def network():
                return _C.create_network()
        """,
        "bindings/tests/test_tc.py": "from tc import network\n\n\ndef test_network():\n    assert network\n",
    }
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert not any("create_network" in s for s in found), found
    assert any("free_memory" in s for s in found), found
