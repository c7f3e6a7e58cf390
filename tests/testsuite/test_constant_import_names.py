"""A test or fixture that imports a library module by a name computed from literals alone
(``importlib.import_module("pkg" + ".fakes")``, ``".".join(["pkg", "fakes"])``) uses that module, as a literal
name does: a module no root reaches stays as test support while a test of kept code requests the fixture. Before,
only a literal counted: ``pkg.fakes`` left the fork with exit 0 and the test of kept code errored (session 41,
both `[symbols]` modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.soundness.soundkit import shrink_and_run_main

NAMES = {"concat": "'pkg' + '.fakes'", "join": "'.'.join(['pkg', 'fakes'])", "percent": "'%s.fakes' % 'pkg'"}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_fixture_importing_a_constant_name_keeps_its_module(tmp_path, name, mode):
    files = {"pkg/__init__.py": "", "pkg/core.py": "def double(x):\n    return x * 2\n",
             "pkg/fakes.py": "from pkg.core import double\n\n\ndef fake():\n    return double(21)\n",
             "pkg/app.py": "from pkg.core import double\n\n\ndef main():\n    return double(4)\n",
             "tests/conftest.py": f"import importlib\nimport pytest\n\n\n@pytest.fixture\ndef fakes():\n"
                                  f"    return importlib.import_module({NAMES[name]})\n",
             "tests/test_core.py": "def test_fake(fakes):\n    assert fakes.fake() == 42\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "8", done.stderr[-2000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                           capture_output=True, text=True)
    assert "1 passed" in tests.stdout, tests.stdout[-2000:]
