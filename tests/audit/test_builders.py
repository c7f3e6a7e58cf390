"""Builders are roots of native code: setup.py, CMake; extension imports and included headers are uses."""

from __future__ import annotations

import textwrap
from pathlib import Path

from slimfork.audit.run import AuditOptions, run_audit
from slimfork.source.layout import open_tree

ROOT = Path(__file__).parent / "fixtures" / "native_lib"


def test_builders_keep_what_they_build_and_what_that_includes():
    result, _table = run_audit(open_tree(ROOT))
    found = {f.subject: f for f in result.findings}
    unused_files = {s for s, f in found.items() if f.kind == "unused-file"}
    assert "setup.py" not in unused_files  # the build script is a root, not dead code
    kernels = {s: f.confidence for s, f in found.items() if f.kind == "unused-kernel"}
    # what setup.py and CMakeLists.txt build, what those sources include, and the Metal source the ObjC host
    # looks a kernel up in are used; extension functions only imported (from natlib._ext import x) are used
    # a source implementing an op (TORCH_LIBRARY_IMPL) that Python looks up by name is used; one nobody looks up not
    assert kernels == {"pybind:_ext.unused_op": 70, "source:csrc/orphan.h": 70,
                       "metal:src/argmax.metal::argmin_kernel": 80, "source:csrc/ops/unused_impl.cu": 70}


def test_native_tests_and_cmake_globs(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    for rel in ("csrc/moe/a.cu", "csrc/old/b.cu", "test/utils/launcher_test.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("__global__ void k_%s() {}\n" % rel.split("/")[-1].split(".")[0])
    (tmp_path / "Default.cmake").write_text("glob_files_nohip(gpu_sources\n  csrc/moe/*.cu)\n")
    (tmp_path / "CMakeLists.txt").write_text("include(Default.cmake)\n")
    result, _ = run_audit(open_tree(tmp_path))
    sources = {f.subject: f.confidence for f in result.findings if f.subject.startswith("source:")}
    # a custom glob function of a .cmake file builds csrc/moe; a native test is reported, low
    assert sources == {"source:csrc/old/b.cu": 70, "source:test/utils/launcher_test.cu": 40}


def test_importing_a_compiled_extension_of_the_tree_is_no_missing_import():
    result, _table = run_audit(open_tree(ROOT))
    (finding,) = [f for f in result.findings if f.kind == "orphaned-test"]
    assert "natlib._missing" in finding.reason and "natlib._cpp" not in finding.reason.replace("natlib._cpp.", "")


def test_a_setup_py_keeps_every_source_of_a_folder_it_names(tmp_path):
    """Transformer Engine's setup.py passes "transformer_engine/pytorch/csrc" to a helper that compiles every
    .cpp below it (os.walk): those sources, and the headers they include, are built. Include folders, package
    lists and parts of a joined path name no compiled folder."""
    files = {
        "pkg/__init__.py": "",
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "build_tools/__init__.py": "",
        "build_tools/ext.py": """
            import os
            from setuptools import Extension

            def all_files_in_dir(path, ext):
                return [os.path.join(d, n) for d, _, ns in os.walk(path) for n in ns if n.endswith(ext)]

            def setup_extension(source_folder, header_folder):
                return Extension("pkg_ext", sources=all_files_in_dir(source_folder, ".cpp"),
                                 include_dirs=[header_folder])
            """,
        "setup.py": """
            from pathlib import Path
            from setuptools import setup, find_packages
            from build_tools.ext import setup_extension

            root = Path(__file__).parent
            ext = setup_extension("pkg/csrc/extensions", root / "pkg" / "csrc")
            setup(name="pkg", packages=find_packages(exclude=["pkg/legacy"]), ext_modules=[ext],
                  include_dirs=["pkg/include"])
            """,
        "pkg/csrc/extensions/ops.cpp": '#include "../common.h"\nvoid ops() {}\n',
        "pkg/csrc/extensions/nested/more.cpp": "void more() {}\n",
        "pkg/csrc/common.h": "inline int common() { return 1; }\n",
        "pkg/csrc/stale.cpp": "void stale() {}\n",
        "pkg/include/helper.cpp": "void helper() {}\n",
        "pkg/legacy/old.cpp": "void old() {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    result, table = run_audit(open_tree(tmp_path))
    assert "every source below the folder 'pkg/csrc/extensions'" in table.built["pkg/csrc/extensions/nested/more.cpp"]
    sources = {f.subject for f in result.findings if f.subject.startswith("source:")}
    assert sources == {"source:pkg/csrc/stale.cpp", "source:pkg/include/helper.cpp", "source:pkg/legacy/old.cpp"}


def test_a_setup_py_of_a_second_distribution_builds_its_sources(tmp_path):
    """flash-attention's csrc/layer_norm/setup.py builds dropout_layer_norm (`pip install csrc/layer_norm`), which
    flash_attn/ops/layer_norm.py imports: a setup.py anywhere is a build script someone runs."""
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "pkg/__init__.py": "",
        "pkg/ln.py": "import dropout_layer_norm\n\ndef ln(x):\n    return dropout_layer_norm.fwd(x)\n",
        "csrc/layer_norm/setup.py": "from setuptools import setup\nfrom torch.utils.cpp_extension import CUDAExtension\n"
                                    "setup(name='dropout_layer_norm', ext_modules=[CUDAExtension("
                                    "name='dropout_layer_norm', sources=['ln_api.cpp', 'ln_fwd.cu'])])\n",
        "csrc/layer_norm/ln_api.cpp": '#include <torch/extension.h>\nvoid fwd() {}\n'
                                      'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fwd", &fwd); }\n',
        "csrc/layer_norm/ln_fwd.cu": "__global__ void ln_fwd_kernel() {}\nvoid launch() { ln_fwd_kernel<<<1, 1>>>(); }\n",
        "csrc/layer_norm/ln_old.cu": "void old() {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, _table = run_audit(open_tree(tmp_path))
    found = {f.subject: f for f in result.findings}
    assert "csrc/layer_norm/setup.py" not in found and "csrc/layer_norm/" not in found
    assert "source:csrc/layer_norm/ln_old.cu" in found
    assert not any(s.startswith("source:csrc/layer_norm/ln_") and s != "source:csrc/layer_norm/ln_old.cu" for s in found)


def test_a_setup_py_glob_of_a_joined_folder_builds_its_sources(tmp_path):
    """xformers' setup.py: ``extensions_dir = os.path.join("pkg", "csrc")``, then ``glob.glob(os.path.join(
    extensions_dir, "**", "*.cu"), recursive=True)``: every .cu below pkg/csrc is compiled (and so are the .cpp
    files a ``Path(...).rglob`` finds), not those the pattern misses or of a folder computed out of sight."""
    files = {
        "pkg/__init__.py": "",
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "setup.py": """
            import glob
            import os
            from pathlib import Path
            from setuptools import setup
            from torch.utils.cpp_extension import CUDAExtension

            this_dir = os.path.dirname(os.path.abspath(__file__))

            def get_extensions():
                extensions_dir = os.path.join("pkg", "csrc")
                sources = glob.glob(os.path.join(extensions_dir, "**", "*.cu"), recursive=True)
                sources += [str(p) for p in Path(this_dir, "pkg", "host").rglob("*.cpp")]
                sources += glob.glob(os.path.join(os.environ["EXTRA"], "*.cu"))
                return [CUDAExtension("pkg._C", sources)]

            setup(name="pkg", ext_modules=get_extensions())
            """,
        "pkg/csrc/top.cu": "void top() {}\n",
        "pkg/csrc/attention/deep.cu": "void deep() {}\n",
        "pkg/host/nested/bind.cpp": "void bind() {}\n",
        "pkg/host/stale.cu": "void stale() {}\n",
        "other/lost.cu": "void lost() {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    result, table = run_audit(open_tree(tmp_path))
    assert "glob pkg/csrc/**/*.cu" in table.built["pkg/csrc/attention/deep.cu"]
    sources = {f.subject for f in result.findings if f.subject.startswith("source:")}
    assert sources == {"source:pkg/host/stale.cu", "source:other/lost.cu"}


def test_a_cmake_function_compiling_the_stem_a_parameter_gives_builds_each_call(tmp_path):
    """mlx's kernels/CMakeLists.txt: ``function(build_kernel KERNEL) set(SRCFILE
    ${CMAKE_CURRENT_SOURCE_DIR}/${KERNEL}.metal) ...`` and ``build_kernel(arange arange.h)``,
    ``build_kernel(steel/gemm/kernels/steel_gemm ${HEADERS})``: each call compiles its stem's .metal file beside
    the CMake file. A .metal file no call names is still unbuilt."""
    files = {
        "pkg/__init__.py": "", "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "kernels/CMakeLists.txt": "function(build_kernel KERNEL)\n"
                                  "  set(SRCFILE ${CMAKE_CURRENT_SOURCE_DIR}/${KERNEL}.metal)\n"
                                  "  add_custom_command(OUTPUT ${KERNEL}.air COMMAND xcrun metal -c ${SRCFILE})\n"
                                  "endfunction(build_kernel)\n\n"
                                  "build_kernel(arange arange.h)\n"
                                  "if(MLX_METAL_JIT)\nelse()\n  build_kernel(steel/gemm/kernels/steel_gemm ${HEADERS})\n"
                                  "endif()\n",
        "kernels/arange.metal": "[[kernel]] void arange_f(device float* out [[buffer(0)]]) {}\n",
        "kernels/steel/gemm/kernels/steel_gemm.metal": "[[kernel]] void gemm_f(device float* o [[buffer(0)]]) {}\n",
        "kernels/stale.metal": "[[kernel]] void stale_f(device float* o [[buffer(0)]]) {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result, table = run_audit(open_tree(tmp_path), options=AuditOptions(kinds={"unused-kernel"}))
    assert "build_kernel(arange) compiles arange.metal" in table.built["kernels/arange.metal"]
    sources = {f.subject for f in result.findings if f.subject.startswith("source:")}
    assert sources == {"source:kernels/stale.metal"}
