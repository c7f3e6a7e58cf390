"""Session 47 (session 46's leftover, cuEquivariance ``09d6d74^``): three distributions in one repository, each a
folder holding a ``pyproject.toml`` and a package of the folder's own name (``cuequivariance/cuequivariance/``).
The tree named the files ``cuequivariance.cuequivariance.*``, their ``import cuequivariance`` resolved to the
folder, and session 40's rule made every file a root: nothing inside was ever reported. The package now takes its
own name when only its folder held it, and is audited like a main package: its ``__init__`` is a root, its tests
are roots, an unreached public module is public API (40), an unreached private one unused (60)."""

from __future__ import annotations

from slimfork.audit.run import folder_why, run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "README.md": "# two libraries\n",
    "eqv/pyproject.toml": "[project]\nname = 'eqv'\n",
    "eqv/eqv/__init__.py": "from eqv.core import product\n",
    "eqv/eqv/core.py": "from eqv.shapes import shape\n\n\ndef product(x):\n    return shape(x)\n",
    "eqv/eqv/shapes.py": "def shape(x):\n    return x\n",
    "eqv/eqv/examples_.py": "def example():\n    return 1\n",
    "eqv/eqv/_old_product.py": "def product(x):\n    return x\n",
    "eqv/tests/core_test.py": "import eqv\n\n\ndef test_product():\n    assert eqv.product(1)\n",
    "eqv_torch/pyproject.toml": "[project]\nname = 'eqv-torch'\n",
    "eqv_torch/eqv_torch/__init__.py": "import eqv\n\n\ndef run(x):\n    return eqv.product(x)\n",
    "eqv_torch/tests/run_test.py": "import eqv_torch\n\n\ndef test_run():\n    assert eqv_torch.run(1)\n",
}


def test_a_package_named_like_its_distribution_folder_is_audited_as_a_library(tmp_path):
    root = write_project(tmp_path, FILES, "")
    result, _table = run_audit(open_tree(root))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found.get("eqv/eqv/_old_product.py") == 60, found
    assert found.get("eqv/eqv/examples_.py") == 40, found
    assert not {"eqv/eqv/core.py", "eqv/eqv/shapes.py", "eqv/eqv/__init__.py", "eqv_torch/eqv_torch/__init__.py",
                "eqv/tests/core_test.py", "eqv_torch/tests/run_test.py"} & set(found), found
    assert folder_why(root, "eqv.shapes")["kept"]


def test_a_name_taken_elsewhere_leaves_the_files_roots(tmp_path):
    files = {**FILES, "eqv/eqv/shapes.py": FILES["eqv/eqv/shapes.py"], "tools/eqv.py": "print(1)\n"}
    files["eqv/eqv/__init__.py"] = "from eqv.core import product\n"
    result, _table = run_audit(open_tree(write_project(tmp_path, {**files, "eqv.py": "X = 1\n"}, "")))
    found = {f.subject for f in result.findings if f.kind == "unused-file" and f.confidence >= 40}
    assert not any(p.startswith("eqv/eqv/") for p in found), found
