"""Session 46: ``@pytest.mark.filterwarnings("ignore::pkg.warns.LegacyWarning")`` names a warning class pytest
imports when it applies the mark; where the class's module is gone pytest stops the whole run (INTERNALERROR). On
main the string was no use: ``warns.py``, imported otherwise only by code no root reaches, left the fork and no
test ran there. A mark of a test of kept code is test setup: the module stays as test support."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "fwm"\nversion = "1.0"\n',
    "fwm/__init__.py": "",
    "fwm/app.py": "def main():\n    return 1\n",
    "fwm/warns.py": "class LegacyWarning(DeprecationWarning):\n    pass\n",
    "fwm/legacy.py": "from fwm import warns\n",
    "fwm/other.py": "class OtherWarning(Warning):\n    pass\n",
    "tests/test_app.py": "import pytest\nfrom fwm.app import main\n\npytestmark = pytest.mark.filterwarnings("
                         "'error:old:fwm.other.OtherWarning')\n\n\n"
                         "@pytest.mark.filterwarnings('ignore::fwm.warns.LegacyWarning')\n"
                         "def test_main():\n    assert main() == 1\n",
}


def test_a_filterwarnings_category_stays_as_test_support(tmp_path):
    spec = 'source = "."\nroots = ["fwm.app:main"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "fwm/warns.py").exists() and not (fork / "fwm/legacy.py").exists()
    assert (fork / "fwm/other.py").exists()  # the module-level mark's module: the file's import-time read
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
