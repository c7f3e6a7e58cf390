"""flash-attention (``86bcd055^``): ``hopper/`` is a package (``hopper/__init__.py``) whose tests import a helper
beside them by a bare name (``from padding import pad_input`` in ``hopper/test_flash_attn.py``), as they do when run
from that folder (``python -m pytest``, or as a script). pytest's rootdir rule puts only the first folder without an
``__init__.py`` on ``sys.path``, so ``hopper/padding.py`` was "unreached" at 60. A bare import of a test that
nothing else answers resolves in the test's own folder (the helper is then test support); one the tree answers
elsewhere, or that nothing beside the test answers, is unchanged."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='fa', packages=['fa'])\n",
    "fa/__init__.py": "",
    "hopper/__init__.py": "",
    "hopper/padding.py": "def pad_input(x):\n    return x\n",
    "hopper/unused_helper.py": "def helper():\n    return 1\n",
    "hopper/test_attn.py": "from padding import pad_input\nimport numpy\n\n\ndef test_pad():\n    assert pad_input(1)\n",
}


def test_a_bare_import_of_a_test_resolves_beside_it(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind in ("unused-file", "orphaned-test")}
    padding = found.get("hopper/padding.py")
    # test support: reached only from the test (50, it goes with it); no public API, as setup.py installs only fa
    assert padding is None or padding.confidence <= 50 and "unreached" not in padding.reason
    assert "hopper/unused_helper.py" in found  # nothing imports it
    assert "hopper/test_attn.py" not in found
