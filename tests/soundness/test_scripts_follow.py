"""Shapes pycparser's own suite has (session 29, a static fork whose tests failed): a test class whose nested class
uses a removed module goes with it, and an example script that imports a removed module leaves the fork with it
(the suite runs every example it finds in `examples/`), while the examples of kept code stay."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "cp"\nversion = "1.0"\n',
    "cp/__init__.py": "",
    "cp/parser.py": "def parse(text):\n    return text.split()\n",
    "cp/generator.py": "class Generator:\n    def visit(self, node):\n        return ' '.join(node)\n",
    "examples/c-to-c.py": "from cp import generator, parser\n\nprint(generator.Generator().visit(parser.parse('a b')))\n",
    "examples/dump.py": "from cp import parser\n\nprint(parser.parse('a b'))\n",
    "tests/__init__.py": "",
    "tests/test_cp.py": """
        import os
        import subprocess
        import sys
        import unittest

        from cp import generator, parser


        class TestVisitor(unittest.TestCase):
            class _Visitor:
                def visit(self, node):
                    return generator.Generator().visit(node)

            def test_visit(self):
                self.assertEqual(TestVisitor._Visitor().visit(["a"]), "a")


        def test_parse():
            assert parser.parse("a b") == ["a", "b"]


        def test_examples():
            for name in sorted(os.listdir("examples")):
                run = subprocess.run([sys.executable, os.path.join("examples", name)], env={"PYTHONPATH": "."})
                assert run.returncode == 0, name
    """,
}


def test_nested_test_classes_and_example_scripts_follow_the_code(tmp_path):
    spec = 'source = "."\npackages = ["cp"]\nroots = ["cp.parser"]\ntests = ["tests"]\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert not (fork / "cp/generator.py").exists() and not (fork / "examples/c-to-c.py").exists()
    assert (fork / "examples/dump.py").exists() and "TestVisitor" not in (fork / "tests/test_cp.py").read_text()
    why = {r["path"]: r["reason"] for r in result.data["removed"]}
    assert "imports cp.generator, which the fork removes" in why["examples/c-to-c.py"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-2000:]
