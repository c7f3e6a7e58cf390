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
