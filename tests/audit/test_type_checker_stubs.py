"""Session 34 (xformers ``07ef5285^``, session 30's open false positive): ``stubs/`` holds type stubs (``.pyi``) and
``torch_stub_tests.py``, which the type checker reads because ``.pyre_configuration`` names the folder
(``"source_directories": ["stubs", {"import_root": ".", "source": "xformers"}]``); it was reported at 70. The files
of a stub folder a type checker configuration names (pyre, pyright, mypy's ``mypy_path``) are read by a tool (30);
a source folder named there that holds no stubs (the package itself) keeps nothing."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": 'from setuptools import setup\n\nsetup(name="xfm", packages=["xfm"])\n',
    ".pyre_configuration": """
        {
          "source_directories": [
            "stubs",
            {"import_root": ".", "source": "xfm"}
          ]
        }
    """,
    "xfm/__init__.py": "from xfm.ops import op\n",
    "xfm/ops.py": "def op(x):\n    return x\n",
    "xfm/_old.py": "def old(x):\n    return x\n",
    "stubs/torch/__init__.pyi": "def cat(x): ...\n",
    "stubs/torch_stub_tests.py": "import torch\n\n\ndef check() -> None:\n    torch.cat([])\n",
    "typings/np/__init__.pyi": "def zeros(n): ...\n",
    "typings/np_checks.py": "def check():\n    pass\n",
    "mypy.ini": "[mypy]\nmypy_path = typings\n",
    "tests/test_ops.py": "from xfm import op\n\n\ndef test_op():\n    assert op(1) == 1\n",
}


def test_stub_folders_a_type_checker_reads(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert found["stubs/torch_stub_tests.py"].confidence == 30
    assert "type checker" in found["stubs/torch_stub_tests.py"].reason
    assert found["typings/np_checks.py"].confidence == 30
    assert found["xfm/_old.py"].confidence >= 60
