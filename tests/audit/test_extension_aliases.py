"""aiter (``ee9114bd48^``): ``gradlib/csrc/hipbsolgemm.cu`` is built twice, as ``hipbsolidxgemm`` by
``gradlib/setup.py`` and as ``hipbsolidxgemm_`` by the root ``setup.py`` (``sources=[f"{bd_dir}/hipbsolgemm.cu"]``),
and the package star-imports the latter (``from hipbsolidxgemm_ import *``), so its exports are read as
``ater.hipb_mm``; only the first name was kept, so 8 exports were reported at 70. Every extension name a source
is built under counts, and an f-string source (``{bd_dir}/x.cu``) is matched by its file name."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

EXT = 'int hipb_mm(int a) { return a; }\nint hipb_old(int a) { return a; }\n' \
      'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("hipb_mm", &hipb_mm); m.def("hipb_old", &hipb_old); }\n'

FILES = {
    "setup.py": "import os\nfrom setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                "bd_dir = os.path.join('gradlib', 'csrc')\n"
                "setup(name='at', packages=['at'], ext_modules=[CUDAExtension(name='hipbsol_',\n"
                "      sources=[f'{bd_dir}/hipbsolgemm.cu'])])\n",
    "gradlib/setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                        "setup(name='gradlib', ext_modules=[CUDAExtension(name='hipbsol', "
                        "sources=['./csrc/hipbsolgemm.cu'])])\n",
    "gradlib/csrc/hipbsolgemm.cu": EXT,
    "at/__init__.py": "import importlib.util\n\nif importlib.util.find_spec('hipbsol_') is not None:\n"
                      "    from hipbsol_ import *\n",
    "at/tuner.py": "import at\n\n\ndef tune(a):\n    return at.hipb_mm(a)\n",
    "tests/test_tune.py": "from at.tuner import tune\n\n\ndef test_tune():\n    assert tune(1)\n",
}


def test_exports_of_a_source_built_under_two_names_are_read_through_either(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert "pybind:TORCH_EXTENSION_NAME.hipb_mm" not in found
    assert found.get("pybind:TORCH_EXTENSION_NAME.hipb_old", 0) >= 40  # (the gradlib distribution's whole API)
