"""A test that runs a Python file by its path (``runpy.run_path(os.path.join(ROOT, "examples", "demo.py"))``,
``subprocess.run([sys.executable, TOOL])`` with ``TOOL`` a module-level path) goes when the fork removes that file
(an example that imports removed code leaves with it); so does one that resolves a removed module by a string
(``pydoc.locate("pk.gone.Gone")``, ``pkgutil.resolve_name("pk.gone:Gone")``). Before, the four tests stayed and
failed in the fork (session 32); the test of kept code in each file stays."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pk"\nversion = "1.0"\n',
    "src/pk/__init__.py": "",
    "src/pk/core.py": "def double(x):\n    return 2 * x\n",
    "src/pk/gone.py": "class Gone:\n    value = 3\n",
    "examples/demo.py": "from pk.gone import Gone\nfrom pk.core import double\nprint(double(Gone.value))\n",
    "scripts/tool.py": "import pk.gone\nprint('tool', pk.gone.Gone.value)\n",
    "tests/test_resolve.py": """
        import pkgutil
        import pydoc

        from pk.core import double


        def test_locate():
            assert pydoc.locate("pk.gone.Gone").value == 3 and double(1) == 2


        def test_resolve():
            assert pkgutil.resolve_name("pk.gone:Gone").value == 3


        def test_kept():
            assert double(3) == 6
    """,
    "tests/test_examples.py": """
        import os
        import runpy
        import subprocess
        import sys

        ROOT = os.path.dirname(os.path.dirname(__file__))
        TOOL = os.path.join(ROOT, "scripts", "tool.py")


        def test_demo_runs(capsys):
            runpy.run_path(os.path.join(ROOT, "examples", "demo.py"))
            assert capsys.readouterr().out.strip() == "6"


        def test_tool_runs():
            env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
            out = subprocess.run([sys.executable, TOOL], capture_output=True, text=True, env=env)
            assert out.stdout.strip() == "tool 3", out.stderr


        def test_kept_here():
            from pk.core import double
            assert double(0) == 0
    """,
}
SPEC = 'source = "."\nroots = ["pk.core"]\ntests = ["tests"]\n\n[symbols]\n'


def test_tests_of_files_run_by_path_or_names_resolved_go_with_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "examples/demo.py").exists() and not (fork / "src/pk/gone.py").exists()
    examples = (fork / "tests/test_examples.py").read_text()
    resolve = (fork / "tests/test_resolve.py").read_text()
    assert "def test_demo_runs" not in examples and "def test_tool_runs" not in examples
    assert "def test_locate" not in resolve and "def test_resolve" not in resolve
    assert "def test_kept_here" in examples and "def test_kept" in resolve
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True, env={"PYTHONPATH": str(fork / "src"), "PATH": ""})
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
