"""Session 40 (LightX2V ``3c4116a8^``): ``lightx2v_kernel_xpu/lgrf_uni/build.bat`` compiles the XPU kernels
(``icpx sdp_kernels.cpp -shared -o esimd.unify.lgrf.dll ^`` and continuation lines); only shell scripts were read,
so ``sdp_kernels.cpp`` was "never loaded or included" (70) and the headers only it includes 60. A Windows batch file
compiles what its compiler lines name, like a shell script run by hand (30)."""

from __future__ import annotations

from slimfork.audit.builders import shell_sources
from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "",
    "xpu/lgrf/build.bat": "@echo off\nset OUT=%1\nicpx sdp_kernels.cpp -shared -o esimd.dll ^\n"
                          "   -fsycl -O3\nicpx %SRC%\\other.cpp -o x.dll\n",
    "xpu/lgrf/sdp_kernels.cpp": '#include "esimd_api.h"\nvoid sdp() {}\n',
    "xpu/lgrf/esimd_api.h": "void api();\n",
    "xpu/lgrf/other.cpp": "void other() {}\n",
}


def test_a_batch_file_compiles_its_sources(tmp_path):
    root = write_project(tmp_path, FILES, "")
    native = [p for p in FILES if p.endswith((".cpp", ".h"))]
    built = shell_sources(root, ["xpu/lgrf/build.bat"], native)
    assert built == {"xpu/lgrf/sdp_kernels.cpp": "built by xpu/lgrf/build.bat:3"}  # %SRC% is unknown
    result, _table = run_audit(open_tree(root))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-kernel"}
    assert found["source:xpu/lgrf/sdp_kernels.cpp"] == 30
    assert found["source:xpu/lgrf/esimd_api.h"] == 30
