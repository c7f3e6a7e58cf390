"""Tests in a folder no import can name (FastVideo's ``fastvideo-kernel/tests/``: ``test_sta.py`` with ``from
.support_flex_sta import mask``) are collected by path and were no unused code, but the helpers they import were
"unreached" at 60, with the folder's ``__init__.py``: the graph names modules, and these files have no name."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='vk', packages=['vk'])\n",
    "vk/__init__.py": "def f():\n    return 1\n",
    "tests/test_f.py": "from vk import f\n\n\ndef test_f():\n    assert f()\n",
    "vk-kernel/tests/__init__.py": "",
    "vk-kernel/tests/test_sta.py": "from .support_sta import mask\nfrom helpers import close\n\n\n"
                                   "def test_mask():\n    assert close(mask(), 1)\n",
    "vk-kernel/tests/support_sta.py": "def mask():\n    return 1\n",
    "vk-kernel/tests/helpers.py": "def close(a, b):\n    return a == b\n",
    "vk-kernel/tests/stale.py": "def old():\n    return 0\n",
}


def test_helpers_of_unnamed_tests_are_test_code(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f.confidence for f in result.findings if f.kind == "unused-file"}
    for path in ("vk-kernel/tests/support_sta.py", "vk-kernel/tests/helpers.py", "vk-kernel/tests/__init__.py"):
        assert path not in found, found
    assert found.get("vk-kernel/tests/stale.py", 0) >= 60, found
