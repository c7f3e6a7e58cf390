"""OpenEquivariance (``d9b408f^``): the driver scripts at the root import ``src.implementations...``; ``src/`` is
no installed package, so the folder was one finding of those scripts at 30 (a folder a script outside it imports
from stays whole: xformers' ``benchmarks/``), and the eight Python files of ``src/deprecated/``, which nothing
imports, were "may be run by hand" with it. A subfolder whose name says its code was replaced (``deprecated/``,
``old/``, ``legacy/``, ...) holding a file dead on its own splits the scripts' folder: it is reported on its own."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "CMakeLists.txt": "project(eq)\nadd_library(k SHARED src/kernel/k.cpp)\n",
    "src/kernel/k.cpp": "int k() { return 1; }\n",
    "driver.py": "from src.implementations.tp import TP\n\nif __name__ == '__main__':\n    TP().run()\n",
    "src/implementations/tp.py": "from src.implementations.base import Base\n\n\nclass TP(Base):\n    pass\n",
    "src/implementations/base.py": "class Base:\n    def run(self):\n        return 1\n",
    "src/implementations/extra.py": "class Extra:\n    pass\n",
    "src/deprecated/gemm_tp.py": "from src.implementations.base import Base\n\n\nclass GemmTP(Base):\n    pass\n",
    "src/deprecated/comparison/e3nn_cmp.py": "import numpy\n\n\ndef compare():\n    return numpy.zeros(1)\n",
}


def _found(tmp_path: Path, files: dict[str, str]) -> dict[str, int]:
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}


def test_a_superseded_subfolder_leaves_the_scripts_folder(tmp_path):
    found = _found(tmp_path, FILES)
    assert found.get("src/deprecated/", 0) >= 60, found
    assert "src/" not in found and found.get("src/implementations/") == 30, found


def test_a_subfolder_of_another_name_stays_with_the_scripts(tmp_path):
    files = {(k.replace("src/deprecated/", "src/helpers/")): v for k, v in FILES.items()}
    found = _found(tmp_path, files)
    assert found.get("src/") == 30 and not [s for s, c in found.items() if c >= 60], found
