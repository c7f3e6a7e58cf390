"""A test helper that imports a module its parameter names (pyparsing's ``TestExamples._run(self, name)``:
``import_module("examples." + name)``) makes each test calling it with a literal (``self._run("numerics")``) a test
of that module: the test goes when the fork removes it (session 30's adversarial round 2: pyparsing's static fork
failed 18 tests with ``No module named 'examples.numerics'``)."""

from __future__ import annotations

from slimfork.api import analyse
from slimfork.testsuite.scan import scan_test_file
from tests.mapping.registrykit import write_project

TESTS = """
    import unittest
    from importlib import import_module

    from qpkg import core


    def run_demo(name):
        return import_module(f"qpkg.demos.{name}").main()


    class TestExamples(unittest.TestCase):
        def _run(self, name):
            mod = import_module("qpkg.demos." + name)
            return mod.main()

        def test_core_demo(self):
            self._run("core_demo")

        def test_legacy_demo(self):
            self._run(name="legacy_demo")


    def test_legacy_demo_function():
        run_demo("legacy_demo")


    def test_core():
        assert core.add(1, 2) == 3
"""


def test_a_test_calling_an_importing_helper_with_a_removed_module_goes(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/legacy.py": "def legacy_add(a, b):\n    return a + b\n",
        "qpkg/demos/__init__.py": "",
        "qpkg/demos/core_demo.py": "from qpkg.core import add\n\n\ndef main():\n    return add(1, 2)\n",
        "qpkg/demos/legacy_demo.py": "from qpkg.legacy import legacy_add\n\n\ndef main():\n"
                                     "    return legacy_add(1, 2)\n",
        "tests/test_examples.py": TESTS,
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert "qpkg.demos.legacy_demo" in gone[("tests/test_examples.py", "TestExamples.test_legacy_demo")]
    assert "qpkg.demos.legacy_demo" in gone[("tests/test_examples.py", "test_legacy_demo_function")]
    assert ("tests/test_examples.py", "test_core") not in gone


def test_the_scan_reads_the_literal_at_the_call():
    import textwrap
    tf = scan_test_file("tests/test_examples.py", textwrap.dedent(TESTS).encode(), {"qpkg"})
    assert "qpkg.demos.core_demo" in {u.dotted for u in tf.units["TestExamples.test_core_demo"].uses}
    assert "qpkg.demos.legacy_demo" in {u.dotted for u in tf.units["TestExamples.test_legacy_demo"].uses}
    assert "qpkg.demos.legacy_demo" in {u.dotted for u in tf.units["test_legacy_demo_function"].uses}
