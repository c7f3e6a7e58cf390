"""Session 37, two build scripts of rusty1s' extension libraries that were not read:

- pytorch_sparse (``631df92^``): ``extensions_dir = osp.join(osp.dirname(osp.abspath(__file__)), 'csrc')`` and
  ``glob.glob(osp.join(extensions_dir, '*.cpp'))``: ``osp.dirname``/``osp.abspath`` (``import os.path as osp``)
  were not read as the script's folder, so no source was built and all 14 ``csrc/*.cpp`` were "never loaded or
  included" at 70.
- pytorch_cluster (``9a1f781^``): ``build.py`` runs ``build.sh``, whose ``$(which nvcc) -c -o "$BUILD_DIR/THC.so"
  "$SRC_DIR/THC.cu"`` (``SRC_DIR=aten/THC``) compiles the CUDA kernels: shell scripts were no builders, so the
  source, the 13 headers it includes and their 8 kernels were reported at 60-70."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

SPARSE = {
    "setup.py": """
        import glob
        import os.path as osp
        from setuptools import setup
        from torch.utils.cpp_extension import CppExtension


        def get_extensions():
            extensions_dir = osp.join(osp.dirname(osp.abspath(__file__)), 'csrc')
            main_files = glob.glob(osp.join(extensions_dir, '*.cpp'))
            return [CppExtension('sp._' + osp.basename(m)[:-4], [m]) for m in main_files]


        setup(name='sp', packages=['sp'], ext_modules=get_extensions())
    """,
    "sp/__init__.py": """
        import importlib
        import os.path as osp
        import torch
        for library in ['_convert']:
            torch.ops.load_library(importlib.machinery.PathFinder().find_spec(library, [osp.dirname(__file__)]).origin)
    """,
    "csrc/convert.cpp": """
        #include <torch/script.h>
        torch::Tensor ind2ptr(torch::Tensor ind, int64_t M) { return ind; }
        static auto registry = torch::RegisterOperators().op("sp::ind2ptr", &ind2ptr);
    """,
    "csrc/old/legacy.cpp": "int legacy() { return 0; }\n",
    "tests/test_sp.py": "import sp\n\n\ndef test_sp():\n    assert sp\n",
}

CLUSTER = {
    "setup.py": """
        from os import path as osp
        from setuptools import setup, find_packages
        setup(name='cl', packages=find_packages(), cffi_modules=[osp.join(osp.dirname(__file__), 'build.py:ffi')])
    """,
    "build.py": """
        import subprocess
        import torch
        from torch.utils.ffi import create_extension
        subprocess.call(['./build.sh', torch.__file__])
        ffi = create_extension(name='cl._ext.ffi', headers=['aten/THCC/THCCGrid.h'], sources=['aten/THCC/THCCGrid.c'],
                               extra_objects=['aten/build/THC.so'], with_cuda=True, relative_to=__file__)
    """,
    "build.sh": """
        #!/bin/sh
        SRC_DIR=aten/THC
        BUILD_DIR=aten/build
        mkdir -p $BUILD_DIR
        $(which nvcc) -c -o "$BUILD_DIR/THC.so" "$SRC_DIR/THC.cu" -arch=sm_52 -Xcompiler -fPIC \\
            "-I$SRC_DIR"
    """,
    "aten/THC/THC.cu": '#include "THCGrid.cu"\n',
    "aten/THC/THCGrid.cu": """
        #include "common.cuh"
        __global__ void gridKernel(long* cluster) { cluster[0] = 0; }
        void THCGrid(long* cluster) { gridKernel<<<1, 1>>>(cluster); }
    """,
    "aten/THC/common.cuh": "#define THREADS 1024\n",
    "aten/THCC/THCCGrid.h": "void THCCGrid(long* cluster);\n",
    "aten/THCC/THCCGrid.c": '#include "THCCGrid.h"\nvoid THCGrid(long*);\nvoid THCCGrid(long* c) { THCGrid(c); }\n',
    "kernel/old.cu": "__global__ void oldKernel(long* c) { c[0] = 1; }\nvoid old(long* c) { oldKernel<<<1, 1>>>(c); }\n",
    "cl/__init__.py": "from cl._ext import ffi\n\n\ndef grid(c):\n    return ffi.THCCGrid(c)\n",
    "tests/test_cl.py": "from cl import grid\n\n\ndef test_grid():\n    assert grid\n",
}


def test_a_glob_below_the_scripts_folder_through_osp(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, SPARSE, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "glob" in table.built.get("csrc/convert.cpp", ""), table.built
    assert "source:csrc/convert.cpp" not in sources, sources


def test_a_shell_script_that_runs_nvcc_builds_its_sources(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, CLUSTER, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    kernels = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert table.built.get("aten/THC/THC.cu") == "built by build.sh:5", table.built
    for path in ("aten/THC/THC.cu", "aten/THC/THCGrid.cu", "aten/THC/common.cuh"):
        assert f"source:{path}" not in sources, sources
    assert not any("gridKernel" in k for k in kernels), kernels
    assert sources.get("source:kernel/old.cu", 0) >= 60, sources  # no script compiles it


def test_a_shell_script_nothing_runs_compiles_by_hand(tmp_path):
    """exllama (``58b3d49^``): ``cuda_test/compile.sh`` runs ``nvcc ... test.cu`` and nothing runs the script; its
    program was reported at 30 before shell scripts were read, and stays at 30 (a script run by hand)."""
    files = dict(CLUSTER)
    files["build.py"] = files["build.py"].replace("subprocess.call(['./build.sh', torch.__file__])\n", "")
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    sources = {f.subject: (f.confidence, f.reason) for f in result.findings if f.subject.startswith("source:")}
    assert "aten/THC/THC.cu" not in table.built and "build.sh:5" in table.script_built["aten/THC/THC.cu"]
    assert sources["source:aten/THC/THC.cu"][0] == 30 and "shell script" in sources["source:aten/THC/THC.cu"][1]
    assert sources["source:aten/THC/THCGrid.cu"][0] == 30, sources
