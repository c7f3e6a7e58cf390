"""Session 47 (Triton-distributed ``e01988e1^``): ``tutorials/06-inter-node-reduce-scatter.py`` imports
``triton_dist.kernels.common_ops``, which nothing else imports. A file name that is no module name has no module,
so its imports were never followed: ``common_ops.py`` was "unreached" at 60. A script's absolute imports are
followed whatever its file name: what it imports is the script's (30). A top-level folder holding only such files
(here ``tutorials/``) was a package root the module map lacks: the audit stopped ("no module 'tutorials'")."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

MAIN = "\n\nif __name__ == '__main__':\n    main()\n"
FILES = {
    "pyproject.toml": "[project]\nname = 'dist'\n",
    "dist/__init__.py": "from dist.ops import run\n",
    "dist/ops.py": "def run(x):\n    return x\n",
    "dist/signals.py": "def wait_eq(x):\n    return x\n",
    "dist/_stale.py": "def old(x):\n    return x\n",
    "tests/test_ops.py": "from dist import run\n\n\ndef test_run():\n    assert run(1)\n",
    "tutorials/06-reduce-scatter.py": "from dist.signals import wait_eq\n\n\ndef main():\n    wait_eq(1)\n" + MAIN,
}


def test_what_a_script_with_no_module_name_imports_is_its(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "unused-file"}
    assert found["dist/signals.py"].confidence == 30, found["dist/signals.py"]
    assert "tutorials/06-reduce-scatter.py imports it" in found["dist/signals.py"].reason
    assert found["dist/_stale.py"].confidence == 60
