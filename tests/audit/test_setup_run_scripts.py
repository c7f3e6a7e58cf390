"""Session 34 (hqq ``d7decb5^``, session 32's open item): the root ``setup.py`` runs a second build script
through a shell command (``cmd = "cd hqq/kernels; "``, ``cmd += "python setup_cuda.py install; "``,
``os.system(cmd)``), which builds the ``hqq_aten`` extension ``hqq`` imports. It was read as a script run by hand:
its sources, their nine kernels and the exports ``hqq`` reads were reported at 30. A Python file a ``setup.py``
runs is a build script: a root, and its extensions are built like ``setup.py``'s."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.audit.test_script_built_kernels import FILES
from tests.mapping.registrykit import write_project

RUN = {**FILES, "setup.py": """
    import os
    from setuptools import setup


    def install_cuda_cmd() -> str:
        cmd = "cd fastq/kernels; "
        cmd += "python setup_cuda.py install; "
        return cmd


    os.system(install_cuda_cmd())
    setup(name="fastq", packages=["fastq"])
""", "fastq/kernels/unbuilt.cu": "__global__ void unbuilt_kernel(float* x) { x[0] = 1; }\n"}


def test_a_build_script_setup_py_runs_builds_its_extension(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, RUN, "")))
    found = {f.subject: f.confidence for f in result.findings}
    assert not any("aten" in s or "dequantize" in s or "helper.cuh" in s for s in found), found
    assert "unused-file:fastq/kernels/setup_cuda.py" not in {f.fingerprint for f in result.findings}
    assert found["source:fastq/kernels/unbuilt.cu"] == 70
