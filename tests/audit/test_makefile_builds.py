"""ThunderKittens (``65cd9db7^``): a CUDA header library with no Python package. Its kernels and unit tests are
built by Makefiles (``SRC=matmul.cu``, ``$(shell find . -name '*.cu')``), its ``setup.py`` takes the extension's
sources from ``config.py`` beside it (``from config import sources``). The audit stopped ("no Python package
found"); with that fixed, 258 kernels and sources were reported at 60-70 (Makefiles were not read) and
``config.py`` was unreached."""

from __future__ import annotations

from slimfork.audit.layout import audit_tree
from slimfork.audit.run import run_audit
from tests.mapping.registrykit import write_project

KERNEL = "__global__ void k(float* x) { x[0] = 0; }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n"

FILES = {
    "include/kittens.cuh": "#pragma once\n",
    "kernels/matmul/Makefile": "TARGET=matmul\nSRC=matmul.cu\n\nall:\n\tnvcc $(SRC) -o $(TARGET)\n",
    "kernels/matmul/matmul.cu": KERNEL,
    "kernels/old/old.cu": KERNEL,
    "kernels/glob/Makefile": "SRCS=$(wildcard src/*.cu)\nall:\n\tnvcc $(SRCS)\n",
    "kernels/glob/src/a.cu": KERNEL,
    "tests/unit/Makefile": "TESTS_SRC=$(shell find . -name '*.cu')\n# SRC=commented.cu\n",
    "tests/unit/warp/tile.cu": KERNEL,
    "kernels/commented.cu": KERNEL,
    "setup.py": """
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension
        from config import sources

        setup(name="tk", ext_modules=[CUDAExtension("tk", sources)])
    """,
    "config.py": "sources = ['kernels/attn/attn.cu']\n",
    "kernels/attn/attn.cu": "void attn() {}\n",
    "tests/python/test_attn.py": "def test_attn():\n    assert True\n",
}


def _findings(tmp_path):
    result, _table = run_audit(audit_tree(write_project(tmp_path, FILES, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind in ("unused-kernel", "unused-file")}


def test_sources_a_makefile_names_globs_or_finds_are_built(tmp_path):
    found = _findings(tmp_path)
    for path in ("kernels/matmul/matmul.cu", "kernels/glob/src/a.cu", "tests/unit/warp/tile.cu"):
        assert f"source:{path}" not in found
    assert found["source:kernels/old/old.cu"] == 70
    assert found["source:kernels/commented.cu"] == 70  # a commented-out name builds nothing


def test_a_module_a_build_script_imports_from_beside_it_is_reached(tmp_path):
    found = _findings(tmp_path)
    assert "config.py" not in found


def test_a_file_of_another_suffix_a_source_includes_is_native(tmp_path):
    files = {"kernels/demo/Makefile": "SRC=4090.cu\n",
             "kernels/demo/4090.cu": "__global__ void attend_ker(float* x) { x[0] = 0; }\n"
                                     "#include \"4090_harness.impl\"\n",
             "kernels/demo/4090_harness.impl": "int main() { attend_ker<<<1, 1>>>(nullptr); return 0; }\n",
             "setup.py": "from setuptools import setup\nsetup(name='tk')\n"}
    result, table = run_audit(audit_tree(write_project(tmp_path, files, "")))
    assert "kernels/demo/4090_harness.impl" in table.native
    assert not [f for f in result.findings if f.kind == "unused-kernel"]


def test_script_code_and_what_it_names(tmp_path):
    files = {
        "setup.py": "from setuptools import setup\nsetup(name='tk')\n",
        # a command line read at the top level; a module of top-level calls only
        "kernels/scaled/gentests.py": "import sys\nimport torch\nNAME = sys.argv[1]\nx = torch.ones(4)\n",
        "kernels/scaled/visualize.py": "import numpy as np\nimport matplotlib.pyplot as plt\n"
                                       "d = np.loadtxt('h_C.csv')\nplt.figure()\nplt.savefig('d.png')\n",
        # a script importing from a folder above it, and the source only script code names
        "tests/python/conv/implementations.py": "from conv.baselines.tk_conv import TKConv\n\n"
                                                "if __name__ == '__main__':\n    TKConv()\n",
        "tests/python/conv/baselines/tk_conv.py": "import torch\n\n\nclass TKConv:\n"
                                                  "    def run(self):\n        return torch.utils.cpp_extension.load("
                                                  "name='c', sources=['conv_new.cu'])\n",
        "tests/python/conv/baselines/conv_new.cu": "__global__ void conv_kernel(float* x) { x[0] = 0; }\n",
    }
    result, _table = run_audit(audit_tree(write_project(tmp_path, files, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found == {"kernels/": 30, "tests/": 30}  # scripts, and what a script imports
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert sources == {"source:tests/python/conv/baselines/conv_new.cu": 30}  # only script code loads it
