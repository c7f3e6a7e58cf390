"""Session 40 (AQLM ``a795ee6^``): a research repository whose code is a package named ``src`` (``src/__init__.py``,
``src/aq.py``), imported by the scripts beside it as ``from src.aq import ...``, with an empty ``__init__.py`` at
the root. ``src/`` was read as a src layout: its modules became top-level names, and the root ``__init__.py`` a
module called ``__init__``, so ``slimfork audit`` stopped with "roots[0]: no module '__init__' in the source"."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from slimfork.source.top_modules import loose_modules


def _write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


FILES = {
    "__init__.py": "",
    "main.py": "from src.aq import quantize\n\nif __name__ == '__main__':\n    quantize()\n",
    "src/__init__.py": "",
    "src/aq.py": "from src.utils import helper\n\n\ndef quantize():\n    return helper()\n",
    "src/utils.py": "def helper():\n    return 1\n",
    "src/old.py": "def stale():\n    return 2\n",
}


def test_a_src_folder_with_init_and_no_packages_is_a_package(tmp_path):
    _write(tmp_path, FILES)
    tree = open_tree(tmp_path)
    assert tree.python_root == tmp_path and tree.packages == ["src"]
    result, _table = run_audit(tree)  # ran into "no module '__init__'" before
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    assert found["src/old.py"] > found.get("src/utils.py", 0)  # utils.py: main.py, run by hand, imports it


def test_a_src_layout_keeps_its_packages(tmp_path):
    _write(tmp_path, {"src/pkg/__init__.py": "", "src/pkg/core.py": "", "src/__init__.py": ""})
    tree = open_tree(tmp_path)  # a stray src/__init__.py beside the packages: still a src layout
    assert tree.python_root == tmp_path / "src" and tree.packages == ["pkg"]


def test_a_dunder_file_is_no_loose_module(tmp_path):
    _write(tmp_path, {"__init__.py": "", "tool.py": ""})
    assert loose_modules(tmp_path) == ["tool"]
