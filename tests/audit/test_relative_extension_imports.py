"""SageAttention (``c7fba1b^``): ``from . import _qattn`` in ``sageattention/core.py`` imports the extension
``setup.py`` builds as ``sageattention._qattn``; only absolute imports were matched, so the 14 exports the package
reads (``_qattn.qk_int8_sv_f8_accum_f32_fuse_v_scale_attn(...)``) were reported at 70 ("no Python code reads the
name from the module"). Relative imports, and ``from sageattention import _fused``, now count; an export no code
reads is still reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "setup(name='sage', packages=['sage'], ext_modules=[\n"
                "    CUDAExtension(name='sage._qattn', sources=['csrc/qattn/pybind.cpp']),\n"
                "    CUDAExtension(name='sage._fused', sources=['csrc/fused/pybind.cpp'])])\n",
    "sage/__init__.py": "from sage.core import attn\n",
    "sage/core.py": "from . import _qattn\nfrom sage import _fused\n\n\ndef attn(q):\n"
                    "    return _qattn.attn_f16(q) + _fused.quant(q)\n",
    "csrc/qattn/pybind.cpp": 'int attn_f16(int q) { return q; }\nint attn_old(int q) { return q; }\n'
                             'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("attn_f16", &attn_f16);\n'
                             '  m.def("attn_old", &attn_old); }\n',
    "csrc/fused/pybind.cpp": 'int quant(int q) { return q; }\n'
                             'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("quant", &quant); }\n',
    "tests/test_attn.py": "from sage import attn\n\n\ndef test_attn():\n    assert attn(1)\n",
}


def test_exports_read_through_a_relative_import_are_used(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.attn_f16" not in found
    assert "pybind:TORCH_EXTENSION_NAME.quant" not in found
    assert found.get("pybind:TORCH_EXTENSION_NAME.attn_old", 0) >= 60
