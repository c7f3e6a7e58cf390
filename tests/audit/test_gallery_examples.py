"""sphinx-gallery runs the example files of the folders a Sphinx ``conf.py`` lists under ``examples_dirs`` (keops
``7b3f1d75^``: ``doc/conf.py`` naming ``../pykeops/benchmarks``, whose ``plot_benchmark_invkernel.py`` defines
functions and calls ``full_benchmark(...)`` from a helper at its top level): such files were "unreached" at 60.
They are examples the documentation build runs (30); a commented-out ``filename_pattern`` is no pattern."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='gx', packages=['gx'])\n",
    "gx/__init__.py": "def solve(x):\n    return x\n",
    "tests/test_solve.py": "from gx import solve\n\n\ndef test_solve():\n    assert solve(1)\n",
    "doc/conf.py": "extensions = ['sphinx_gallery.gen_gallery']\nsphinx_gallery_conf = {\n"
                   "    'examples_dirs': [\n        '../gx_bench',\n    ],\n"
                   "    # 'filename_pattern': r'../gx_bench/*',\n    'gallery_dirs': ['_auto_bench'],\n}\n",
    "gx_bench/bench_utils.py": "def full_benchmark(f):\n    return f(1)\n",
    "gx_bench/plot_bench_solve.py": "from bench_utils import full_benchmark\nfrom gx import solve\n\n\n"
                                    "def run(x):\n    return solve(x)\n\n\nfull_benchmark(run)\n",
    "gx_bench/stale_helper.py": "def old(x):\n    return x\n",
}


def test_sphinx_gallery_examples_are_run_by_the_docs(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert found["gx_bench/plot_bench_solve.py"].confidence == 30, found
    assert "sphinx-gallery" in found["gx_bench/plot_bench_solve.py"].reason
    assert found["gx_bench/stale_helper.py"].confidence >= 60, found
