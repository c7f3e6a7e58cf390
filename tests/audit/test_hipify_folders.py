"""Session 37 (mmcv ``77cb5786e^``, "Remove dumplicate files in csrc"): ``setup.py`` builds
``glob('./mmcv/ops/csrc/pytorch/*.cpp') + glob('./mmcv/ops/csrc/pytorch/cuda/*.cu')``; the ROCm branch first runs
``hipify_python.hipify(project_directory=project_dir, output_directory=project_dir, includes=...)`` with
``project_dir = 'mmcv/ops/csrc/'``. That folder string was read as "a build helper walks it", so every source below
``csrc/`` was built, 17 stale copies (``pytorch/nms_cuda.cu`` beside the built ``pytorch/cuda/nms_cuda.cu``) with
them. A folder only a source translator reads is not compiled by it: its output is, which the build globs."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

LAUNCHER = """
    #include "nms_kernel.cuh"
    int nms_launcher(float* boxes) { nms_kernel<<<1, 1>>>(boxes); return 0; }
"""

FILES = {
    "setup.py": """
        import glob
        import os
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension


        def get_extensions():
            project_dir = 'pkg/csrc/'
            if os.getenv('ROCM'):
                from torch.utils.hipify import hipify_python
                hipify_python.hipify(project_directory=project_dir, output_directory=project_dir,
                                     includes='pkg/csrc/*', is_pytorch_extension=True)
                op_files = glob.glob('./pkg/csrc/pytorch/hip/*')
            else:
                op_files = glob.glob('./pkg/csrc/pytorch/*.cpp') + glob.glob('./pkg/csrc/pytorch/cuda/*.cu')
            return [CUDAExtension(name='pkg._ext', sources=op_files, include_dirs=['pkg/csrc/common'])]


        setup(name='pkg', packages=['pkg'], ext_modules=get_extensions())
    """,
    "pkg/__init__.py": "from pkg.ops import nms\n",
    "pkg/ops.py": "from pkg import _ext\n\n\ndef nms(boxes):\n    return _ext.nms(boxes)\n",
    "pkg/csrc/common/nms_kernel.cuh": "__global__ void nms_kernel(float* boxes) { boxes[0] = 0; }\n",
    "pkg/csrc/pytorch/pybind.cpp": """
        #include <torch/extension.h>
        int nms_launcher(float* boxes);
        int nms(float* boxes) { return nms_launcher(boxes); }
        PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("nms", &nms); }
    """,
    "pkg/csrc/pytorch/cuda/nms_cuda.cu": LAUNCHER,
    "pkg/csrc/pytorch/nms_cuda.cu": LAUNCHER,  # the stale copy nothing builds
    "tests/test_ops.py": "from pkg import nms\n\n\ndef test_nms():\n    assert nms([0.0]) == 0\n",
}


def test_a_folder_only_hipify_reads_is_not_built(tmp_path):
    result, table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "pkg/csrc/pytorch/cuda/nms_cuda.cu" in table.built and "pkg/csrc/pytorch/pybind.cpp" in table.built
    assert "pkg/csrc/pytorch/nms_cuda.cu" not in table.built, table.built.get("pkg/csrc/pytorch/nms_cuda.cu")
    assert sources.get("source:pkg/csrc/pytorch/nms_cuda.cu", 0) >= 60, sources
    assert "source:pkg/csrc/pytorch/cuda/nms_cuda.cu" not in sources and "source:pkg/csrc/pytorch/pybind.cpp" not in sources


def test_a_folder_a_build_helper_walks_is_still_built(tmp_path):
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace("project_dir = 'pkg/csrc/'", "project_dir = 'pkg/csrc/'\n"
                                                  "            build_all(project_dir)")
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    assert "pkg/csrc/pytorch/nms_cuda.cu" in table.built  # project_dir is read by something else too


def test_a_glob_of_every_file_of_a_folder_builds_its_sources(tmp_path):
    """mmcv's TensorRT and ONNX Runtime extensions: ``op_files = glob.glob('./mmcv/ops/csrc/tensorrt/plugins/*')``.
    Only patterns ending in a source suffix were read, so (once the hipify folder kept nothing) their 40 built
    sources and headers were "never loaded or included". A ``folder/*`` glob builds the sources directly in it."""
    files = dict(FILES)
    files["setup.py"] = files["setup.py"].replace(
        "return [CUDAExtension(", "trt = glob.glob('./pkg/csrc/trt/*')\n"
        "            return [CUDAExtension(name='pkg._trt', sources=trt), CUDAExtension(")
    files["pkg/csrc/trt/plugin.cpp"] = '#include "plugin.hpp"\nint NmsPlugin::enqueue() { return 0; }\n'
    files["pkg/csrc/trt/plugin.hpp"] = "class NmsPlugin {\n public:\n  int enqueue();\n};\n"
    files["pkg/csrc/trt/old/legacy.cpp"] = "int legacy() { return 1; }\n"
    result, table = run_audit(open_tree(write_project(tmp_path, files, "")))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    assert "glob" in table.built["pkg/csrc/trt/plugin.cpp"]
    assert "source:pkg/csrc/trt/plugin.cpp" not in sources and "source:pkg/csrc/trt/plugin.hpp" not in sources
    assert "pkg/csrc/trt/old/legacy.cpp" not in table.built  # below the folder: not matched by folder/*
