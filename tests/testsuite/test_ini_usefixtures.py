"""Session 35's adversarial project ``ra``: ``usefixtures = env_fix`` in pytest's configuration makes every test
request ``env_fix``, a conftest fixture that imports a library module no root reaches. The tests stage took the
fixture for one no test requests: it went with the module it uses, and every test of the fork erred with
``fixture 'env_fix' not found`` (exit 0, both modes). The option now counts as a ``usefixtures`` mark on every
test: the module stays as test support, in each file pytest may read the option from."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.testsuite.pytest_config import read_pytest_config
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "ra"\nversion = "1.0"\n',
    "ra/__init__.py": "",
    "ra/core.py": "def run():\n    return 1\n",
    "ra/extra.py": "def setup():\n    return 'ok'\n",
    "tests/conftest.py": "import pytest\n\n\n@pytest.fixture\ndef env_fix():\n    from ra import extra\n"
                         "    yield extra.setup()\n",
    "tests/test_core.py": "from ra import core\n\n\ndef test_run():\n    assert core.run() == 1\n",
}

CONFIGS = {
    "pytest.ini": "[pytest]\nusefixtures = env_fix\n",
    "setup.cfg": "[tool:pytest]\nusefixtures =\n    env_fix\n",
    "pyproject.toml": '[project]\nname = "ra"\nversion = "1.0"\n\n[tool.pytest.ini_options]\nusefixtures = ["env_fix"]\n',
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_a_fixture_the_configuration_requests_keeps_what_it_uses(tmp_path, config):
    files = {**FILES, config: CONFIGS[config]}
    spec = 'source = "."\nroots = ["ra.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "ra/extra.py").exists()
    assert "def env_fix" in (result.out / "tests/conftest.py").read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:]


def test_usefixtures_read_from_each_form(tmp_path):
    (tmp_path / "tox.ini").write_text("[pytest]\nusefixtures = a b\n    c\n")
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\nusefixtures = ["d", "a"]\n')
    assert read_pytest_config(tmp_path).usefixtures == ["d", "a", "b", "c"]
