"""A test parametrized with the modules it imports (``@pytest.mark.parametrize("mod", ["ppkg.core", "ppkg.gone"])``
then ``importlib.import_module(mod)``): when the fork removes one of them, only that value leaves the decorator and
the test still runs with the others (before, the whole test left the fork). When every value names a removed
module, the test goes as before."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from slimfork.testsuite.cut import cut_units
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "ppkg"\nversion = "1.0"\n',
    "ppkg/__init__.py": "",
    "ppkg/core.py": "def add(a, b):\n    return a + b\n",
    "ppkg/util.py": "X = 1\n",
    "ppkg/gone.py": "Y = 2\n",
    "tests/test_modules.py": """
        import importlib

        import pytest


        @pytest.mark.parametrize("mod", ["ppkg.core", "ppkg.gone", "ppkg.util"])
        def test_imports(mod):
            assert importlib.import_module(mod)


        @pytest.mark.parametrize("name", ("core", "gone"))
        def test_by_suffix(name):
            assert importlib.import_module("ppkg." + name)


        @pytest.mark.parametrize("name", ["gone"])
        def test_only_gone(name):
            assert importlib.import_module(f"ppkg.{name}")


        class TestInClass:
            @pytest.mark.parametrize("mod", [
                "ppkg.util",
                "ppkg.gone",
            ])
            def test_method(self, mod):
                assert importlib.import_module(mod)
    """,
}
SPEC = 'source = "."\nroots = ["ppkg.core", "ppkg.util"]\ntests = ["tests"]\n'


def test_only_the_parameters_naming_removed_modules_go(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", fork, verify=False)
    assert not (fork / "ppkg/gone.py").exists()
    text = (fork / "tests/test_modules.py").read_text()
    assert '["ppkg.core", "ppkg.util"]' in text
    assert '("core",)' in text
    assert "test_only_gone" not in text
    assert '"ppkg.gone"' not in text and "TestInClass" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout + run.stderr


def test_cut_leaves_a_decorator_without_the_named_values_alone():
    source = b'@pytest.mark.parametrize("m", ["a", "b"])\ndef test_x(m):\n    pass\n'
    assert cut_units(source, {"param test_x m=b"}) == b'@pytest.mark.parametrize("m", ["a"])\ndef test_x(m):\n    pass\n'
    assert cut_units(source, {"param test_x m=c"}) == source
