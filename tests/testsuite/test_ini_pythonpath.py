"""emoji 2.14.0 (session 38): ``[tool.pytest.ini_options] pythonpath = [".", "utils"]`` puts ``utils/`` on
``sys.path``, and the tests import ``utils/testutils.py`` by a bare name (``from testutils import ...``). The fork
removed the file as "unreachable: no module imports it", and every test file that imported it erred at collection
(``No module named 'testutils'``; 5 of 10 files, 48 of 102 tests). A folder pytest's ``pythonpath`` names is on
``sys.path`` for the tests: a bare import of a test resolves there, and the helper stays with the tests."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.testsuite.pytest_config import read_pytest_config
from tests.mapping.registrykit import write_project

FILES = {
    "ra/__init__.py": "",
    "ra/core.py": "def run():\n    return 1\n",
    "utils/testutils.py": "def expected():\n    return 1\n",
    "tests/test_core.py": "from ra import core\nfrom testutils import expected\n\n\n"
                          "def test_run():\n    assert core.run() == expected()\n",
}

CONFIGS = {
    "pytest.ini": "[pytest]\npythonpath = . utils\n",
    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = [".", "utils"]\n',
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_a_helper_in_a_pythonpath_folder_stays_with_the_tests(tmp_path, config):
    project = '[project]\nname = "ra"\nversion = "1.0"\n'
    files = {**FILES, "pyproject.toml": project, config: CONFIGS[config] if config != "pyproject.toml"
             else project + "\n" + CONFIGS[config]}
    spec = 'source = "."\nroots = ["ra.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "utils/testutils.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]


def test_pythonpath_read_from_each_form(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = a b\n")
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["c", "a"]\n')
    assert read_pytest_config(tmp_path).pythonpath == ["c", "a", "b"]
