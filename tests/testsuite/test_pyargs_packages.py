"""Session 46: ``addopts = "--pyargs pkg.selfcheck"`` has pytest collect the test files of a package inside the
library. On main the package's ``__init__.py`` stayed (the configuration names it) but its test file, which
nothing imports, left as unreachable code: pytest in the fork ran no test of the package, exit 0 for slimfork."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pya"\nversion = "1.0"\n\n'
                      '[tool.pytest.ini_options]\naddopts = "--pyargs pya.selfcheck -k self"\n',
    "pya/__init__.py": "",
    "pya/app.py": "def main():\n    return 1\n",
    "pya/helpers.py": "def unused():\n    return 2\n",
    "pya/selfcheck/__init__.py": "",
    "pya/selfcheck/test_self.py": "from pya.app import main\n\n\ndef test_self():\n    assert main() == 1\n",
    "pya/selfcheck/data.py": "def unused():\n    return 3\n",
    "tests/test_app.py": "from pya.app import main\n\n\ndef test_main():\n    assert main() == 1\n",
}


def test_the_test_files_of_a_pyargs_package_are_tests(tmp_path):
    spec = 'source = "."\nroots = ["pya.app:main"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "pya/selfcheck/test_self.py").exists() and (fork / "pya/selfcheck/__init__.py").exists()
    assert not (fork / "pya/helpers.py").exists() and not (fork / "pya/selfcheck/data.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
