"""A re-export a test imports stays when what it names stays: under ``public_api = "roots"`` and ``package_api =
false``, ``from .node import Node`` in ``pkg/__init__.py`` is no API, and it went with every test of the kept class
that imports it as ``from pkg import Node`` (treelib 1.7.0, root ``treelib.tree``: ``test_node.py`` whole and 3
tests of ``test_tree.py``, 14 of 55). A re-export of code no root keeps still goes, with its tests."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "rxpkg"\nversion = "1.0"\nrequires-python = ">=3.8"\n',
    "rxpkg/__init__.py": "from .node import Node\nfrom .tree import Tree\nfrom .extra import Extra\nfrom .api import Leaf\n",
    "rxpkg/node.py": "class Node:\n    def __init__(self, tag):\n        self.tag = tag\n\n\nclass Leaf(Node):\n    pass\n",
    "rxpkg/api.py": "from rxpkg.node import Leaf\n",
    "rxpkg/tree.py": "from rxpkg.node import Leaf, Node\n\n\nclass Tree:\n    def add(self, tag):\n"
                     "        return Leaf(tag) if tag.startswith('l') else Node(tag)\n",
    "rxpkg/extra.py": "class Extra:\n    pass\n",
    "tests/__init__.py": "",
    "tests/test_node.py": """
        from rxpkg import Node


        def test_node():
            assert Node("a").tag == "a"
    """,
    "tests/test_leaf.py": """
        import rxpkg


        def test_leaf():
            assert isinstance(rxpkg.Leaf("l"), rxpkg.Node)
    """,
    "tests/test_extra.py": """
        from rxpkg import Extra


        def test_extra():
            assert Extra()
    """,
}
SPEC = 'source = "."\nroots = ["rxpkg.tree"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_reexport_of_kept_code_stays_for_its_tests(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    init = (fork / "rxpkg/__init__.py").read_text()
    assert "from .node import Node" in init and "from .api import Leaf" in init  # Leaf: through rxpkg.api
    assert "Extra" not in init and not (fork / "rxpkg/extra.py").exists()
    assert (fork / "rxpkg/api.py").read_text() == FILES["rxpkg/api.py"]
    assert (fork / "tests/test_node.py").exists() and (fork / "tests/test_leaf.py").exists()
    assert not (fork / "tests/test_extra.py").exists()  # it tests removed code
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]


def test_a_reexport_of_removed_code_goes_with_its_tests(tmp_path):
    files = {**FILES, "rxpkg/tree.py": "class Tree:\n    pass\n"}  # nothing kept uses Node any more
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "rxpkg/node.py").exists() and "Node" not in (fork / "rxpkg/__init__.py").read_text()
    assert not (fork / "tests/test_node.py").exists() and not (fork / "tests/test_leaf.py").exists()
