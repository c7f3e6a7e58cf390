"""Session 36's adversarial project ``sf``: a conftest's ``pytest_plugins = ["sf_testing.fixtures"]`` names a
module of the project (outside the tests folder) that no root reaches, and whose fixture the test of kept code
requests (or the project's root conftest does). The plan removed the module, kept the conftest (it only warned: "removing it would take every test below
it"), and every test of the fork erred at collection (``Error importing plugin``), exit 0, both modes. A module a
conftest's ``pytest_plugins`` names is now test support, with what it imports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "sf"\nversion = "1.0"\n',
    "sf/__init__.py": "",
    "sf/core.py": "def f():\n    return 3\n",
    "sf/other.py": "def g():\n    return 4\n",
    "sf_testing/__init__.py": "",
    "sf_testing/fixtures.py": "import pytest\nfrom sf.other import g\n\n\n@pytest.fixture\ndef four():\n"
                              "    return g()\n",
    "tests/conftest.py": 'pytest_plugins = ["sf_testing.fixtures"]\n',
    "tests/test_core.py": "from sf.core import f\n\n\ndef test_f(four):\n    assert f() + 1 == four\n",
}


@pytest.mark.parametrize("conftest", ["tests/conftest.py", "conftest.py"])
@pytest.mark.parametrize("roots_mode", [False, True])
def test_a_plugin_a_conftest_names_stays_with_what_it_imports(tmp_path, roots_mode, conftest):
    files = {**FILES, conftest: FILES["tests/conftest.py"]}
    if conftest != "tests/conftest.py":
        del files["tests/conftest.py"]
    spec = 'source = "."\nroots = ["sf.core"]\ntests = ["tests"]\n'
    if roots_mode:
        spec += '\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "sf_testing/fixtures.py").exists()
    assert "def g" in (result.out / "sf/other.py").read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]
