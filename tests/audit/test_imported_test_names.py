"""OpenEquivariance (``d851956^``): ``tests/tp_debug.py`` (a debugging script, no ``test_*`` name pytest collects)
imports ``TestBenchmarkSuite`` and ``TestDefinition`` from the library; "defines ``Test*`` classes" made it a test
another runner collects, a root, so the script the clean-up deleted was never reported. Names a file imports are not
tests it defines; a ``Test*`` class of its own still is one."""

from __future__ import annotations

from pathlib import Path

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='eq', packages=['eq'])\n",
    "eq/__init__.py": "from eq.suite import TestSuite\n",
    "eq/suite.py": "class TestSuite:\n    def run(self):\n        return 1\n",
    "tests/test_eq.py": "from eq import TestSuite\n\n\ndef test_run():\n    assert TestSuite().run()\n",
    "tests/tp_debug.py": "from eq.suite import TestSuite\n\n\ndef debug():\n    return TestSuite().run()\n",
    "tests/fmha_deterministic.py": "from eq.suite import TestSuite\n\n\nclass TestFmha:\n"
                                   "    def test_run(self):\n        assert TestSuite().run()\n",
}


def _found(tmp_path: Path) -> dict[str, int]:
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    return {f.subject: f.confidence for f in result.findings if f.kind in ("unused-file", "orphaned-test")}


def test_a_test_folder_file_importing_test_names_defines_no_test(tmp_path):
    found = _found(tmp_path)
    assert found.get("tests/tp_debug.py", 0) >= 30, found
    assert "tests/fmha_deterministic.py" not in found, found
