"""A setup.py glob whose folder starts at the working folder: ``this_dir = os.path.dirname(os.path.curdir)``
(``""``: the folder the build runs in, the script's), ``os.getcwd()`` or ``Path.cwd()``, then ``glob.glob(
os.path.join(this_dir, LIBRARY_NAME, "csrc", "*.cpp"))``: those sources are built, not "named by nothing"."""

from __future__ import annotations

import textwrap

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree

SETUP = """
    import glob
    import os
    from pathlib import Path
    from setuptools import setup
    from torch.utils.cpp_extension import CUDAExtension

    LIBRARY_NAME = "pkg"

    def get_extensions():
        this_dir = os.path.dirname(os.path.curdir)
        extensions_dir = os.path.join(this_dir, LIBRARY_NAME, "csrc")
        sources = glob.glob(os.path.join(extensions_dir, "*.cpp")) + glob.glob(os.path.join(extensions_dir, "*.cu"))
        sources += glob.glob(os.path.join(os.getcwd(), "pkg", "extra", "*.cu"))
        sources += [str(p) for p in (Path.cwd() / "pkg" / "more").glob("*.cu")]
        return [CUDAExtension(f"{LIBRARY_NAME}._C", sources)]

    setup(name="pkg", ext_modules=get_extensions())
    """


def test_a_glob_from_the_working_folder_builds_its_sources(tmp_path):
    files = {
        "pkg/__init__.py": "from pkg import _C\n\ndef run(x):\n    return _C.fwd(x)\n",
        "pyproject.toml": '[project]\nname = "pkg"\nversion = "0"\n',
        "setup.py": SETUP,
        "pkg/csrc/bind.cpp": 'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fwd", &fwd); }\n',
        "pkg/csrc/gemm.cu": "__global__ void gemm_kernel() {}\nvoid fwd() { gemm_kernel<<<1, 1>>>(); }\n",
        "pkg/extra/more.cu": "void extra() {}\n",
        "pkg/more/again.cu": "void again() {}\n",
        "pkg/old/stale.cu": "void stale() {}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text))
    result, table = run_audit(open_tree(tmp_path))
    assert "glob pkg/csrc/*.cpp" in table.built["pkg/csrc/bind.cpp"]
    assert {"pkg/csrc/gemm.cu", "pkg/extra/more.cu", "pkg/more/again.cu"} <= set(table.built)
    sources = {f.subject for f in result.findings if f.subject.startswith("source:")}
    assert sources == {"source:pkg/old/stale.cu"}
