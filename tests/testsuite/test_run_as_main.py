"""A test that runs a package as a program in a child (``subprocess.run([sys.executable, "-m", "pkg"])``) uses
``pkg/__main__.py``: it goes when the fork removes that module (session 30's adversarial round 2: jsonschema's
static fork, root ``jsonschema.exceptions``, dropped ``jsonschema/__main__.py`` and failed 3 tests with
``No module named jsonschema.__main__``)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

TESTS = """
    import subprocess
    import sys

    from qpkg import core


    def test_main():
        subprocess.run([sys.executable, "-m", "qpkg"], check=True)


    def test_tool():
        subprocess.check_output(args=(sys.executable, "-W", "ignore", "-m", "qpkg.tool", "--version"))


    def test_core():
        assert core.add(1, 2) == 3
"""


def test_a_test_running_a_removed_main_module_goes(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/__main__.py": "print('usage: qpkg')\n",
        "qpkg/tool.py": "if __name__ == '__main__':\n    print('1.0')\n",
        "tests/test_cli.py": TESTS,
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert "qpkg.__main__" in gone[("tests/test_cli.py", "test_main")]
    assert "qpkg.tool" in gone[("tests/test_cli.py", "test_tool")]
    assert ("tests/test_cli.py", "test_core") not in gone
