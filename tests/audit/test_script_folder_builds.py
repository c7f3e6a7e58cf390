"""Session 47 (Triton-distributed ``e01988e1^``): ``shmem/nvshmem_bind/nvshmemi/build_nvshmemi_bc.sh`` sets
``SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)`` and compiles ``${SCRIPT_DIR}/transfer_device.cu`` with
``clang-19``; the variable was unknown, so the source was "named by nothing" at 70. A variable holding the script's
own folder is the script's folder: the source is a by-hand build (30); another unknown variable still keeps
nothing."""

from __future__ import annotations

from slimfork.audit.builders import shell_sources
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SCRIPT = """#!/bin/bash
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HERE="$(dirname "$0")"
clang-19 -c -emit-llvm -x cuda \\
  -D__bitcode__ ${SCRIPT_DIR}/transfer_device.cu -o transfer.bc
nvcc -c $HERE/helper.cu -o helper.o
nvcc -c ${NVSHMEM_SRC}/other.cu -o other.o
"""
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "",
    "shmem/bc/build_bc.sh": SCRIPT,
    "shmem/bc/transfer_device.cu": "__device__ void put() {}\n",
    "shmem/bc/helper.cu": "__device__ void helper() {}\n",
    "shmem/bc/other.cu": "__device__ void other() {}\n",
}


def test_a_script_folder_variable_names_the_scripts_folder(tmp_path):
    root = write_project(tmp_path, FILES, "")
    native = [p for p in FILES if p.endswith(".cu")]
    assert shell_sources(root, ["shmem/bc/build_bc.sh"], native) == {
        "shmem/bc/transfer_device.cu": "built by shmem/bc/build_bc.sh:4",
        "shmem/bc/helper.cu": "built by shmem/bc/build_bc.sh:6"}
    result, _table = run_audit(open_tree(root))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found["source:shmem/bc/transfer_device.cu"] == 30, found
    assert found["source:shmem/bc/other.cu"] == 70, found
