"""aphrodite-engine (``41e4f513^``): ``CMakeLists.txt`` runs the kernel generator with
``PYTHONPATH=${CMAKE_CURRENT_SOURCE_DIR}/kernels/cutlass_extensions/:$PYTHONPATH``, and the generator's
``from aphrodite_cutlass_library_extension import ...`` is a file of that folder; the tree names it
``kernels.cutlass_extensions.aphrodite_cutlass_library_extension``, so the folder was "unreached" at 70. A module of a
folder a command puts on ``PYTHONPATH`` that a Python file imports by its own name runs with that command (30); a
file of that folder nothing imports, and a ``PYTHONPATH=.`` of the root, say nothing."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='ap', packages=['ap'])\n",
    "ap/__init__.py": "def run():\n    return 1\n",
    "tests/test_ap.py": "from ap import run\n\n\ndef test_run():\n    assert run()\n",
    "CMakeLists.txt": "project(ap)\nadd_custom_command(OUTPUT gen.cu COMMAND ${CMAKE_COMMAND} -E env\n"
                      "  PYTHONPATH=${CMAKE_CURRENT_SOURCE_DIR}/kernels/cutlass_ext/:$PYTHONPATH\n"
                      "  ${Python_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/kernels/machete/generate.py)\n",
    "kernels/machete/generate.py": "from cutlass_lib_ext import DataType\n\nif __name__ == '__main__':\n"
                                   "    print(DataType)\n",
    "kernels/cutlass_ext/cutlass_lib_ext.py": "from cutlass_helpers import tag\n\nDataType = tag('x')\n",
    "kernels/cutlass_ext/cutlass_helpers.py": "def tag(x):\n    return x\n",
    "kernels/cutlass_ext/stale_ext.py": "OLD = 1\n",
    "scripts/ci.sh": "PYTHONPATH=. python -m pytest tests\n",
    "tools/old_tool.py": "X = 1\n",
}


def test_modules_a_command_imports_through_pythonpath_run_with_it(tmp_path: Path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    lib = found["kernels/cutlass_ext/cutlass_lib_ext.py"]
    assert lib.confidence == 30 and "CMakeLists.txt:3 puts kernels/cutlass_ext/ on PYTHONPATH" in lib.reason, lib
    assert found["kernels/cutlass_ext/cutlass_helpers.py"].confidence == 30
    assert found["kernels/cutlass_ext/stale_ext.py"].confidence >= 60
    assert found["tools/"].confidence >= 60
