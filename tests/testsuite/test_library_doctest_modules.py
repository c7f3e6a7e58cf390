"""Under ``--doctest-modules`` pytest runs the docstring examples of the library modules it collects: what a kept
module's docstring imports stays as test support, with a reason naming the module's file; a removed module's
docstring keeps nothing. Before (session 45) only test files' docstrings counted: ``plugins/alpha.py``, imported
otherwise only by code no root reaches, left the fork and the kept module's doctest failed there, exit 0."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "ldm"\nversion = "1.0"\n\n'
                      '[tool.pytest.ini_options]\naddopts = "--doctest-modules"\n',
    "ldm/__init__.py": "",
    "ldm/app.py": '"""The app.\n\n>>> from ldm.plugins import alpha\n>>> alpha.VALUE\n\'alpha\'\n"""\n\n\n'
                  "def main():\n    return 1\n",
    "ldm/plugins/__init__.py": "",
    "ldm/plugins/alpha.py": "VALUE = 'alpha'\n",
    "ldm/plugins/gamma.py": "VALUE = 'gamma'\n",
    "ldm/legacy.py": '"""\n>>> from ldm.plugins import gamma\n"""\nfrom ldm.plugins import alpha, gamma\n',
    "tests/test_app.py": "from ldm.app import main\n\n\ndef test_main():\n    assert main() == 1\n",
}


def test_what_a_kept_modules_doctest_imports_stays(tmp_path):
    spec = 'source = "."\nroots = ["ldm.app:main"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "ldm/plugins/alpha.py").exists()
    assert not (fork / "ldm/legacy.py").exists() and not (fork / "ldm/plugins/gamma.py").exists()
    assert "ldm/app.py" in result.data["tests"]["support"]["ldm.plugins.alpha"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr


# Session 46: a module kept only as test support (a test of kept code reads its name at import time) has its own
# docstrings run by pytest too; and a module's ``__test__`` dict holds examples doctest runs as docstrings
SUPPORT = {
    "pyproject.toml": FILES["pyproject.toml"],
    "ldm/__init__.py": "",
    "ldm/app.py": "def main():\n    return 1\n",
    "ldm/helpers.py": '"""\n>>> from ldm.plugins import alpha\n>>> alpha.VALUE\n\'alpha\'\n"""\n\n\n'
                      "def double(x):\n    return 2 * x\n",
    "ldm/tables.py": "_EX = '''\n>>> from ldm.plugins import beta\n>>> beta.VALUE\n'beta'\n'''\n"
                     "__test__ = {'beta': _EX, 'gamma': '>>> import ldm.plugins.gamma'}\n",
    "ldm/plugins/__init__.py": "",
    "ldm/plugins/alpha.py": "VALUE = 'alpha'\n",
    "ldm/plugins/beta.py": "VALUE = 'beta'\n",
    "ldm/plugins/gamma.py": "VALUE = 'gamma'\n",
    "ldm/plugins/delta.py": "VALUE = 'delta'\n",
    "ldm/legacy.py": "from ldm.plugins import alpha, beta, gamma, delta\n",
    "tests/test_app.py": "from ldm.app import main\nfrom ldm.helpers import double\nimport ldm.tables\n\n"
                         "TWO = double(1)\nN = len(ldm.tables.__test__)\n\n\n"
                         "def test_main():\n    assert main() * 2 == TWO\n",
}


def test_a_support_modules_doctests_and_test_dicts_keep_what_they_import(tmp_path):
    spec = 'source = "."\nroots = ["ldm.app:main"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
    result = shrink(write_project(tmp_path, SUPPORT, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    support = result.data["tests"]["support"]
    assert "ldm.helpers" in support and "ldm/helpers.py" in support["ldm.plugins.alpha"]
    assert "ldm/tables.py" in support["ldm.plugins.beta"] and "ldm/tables.py" in support["ldm.plugins.gamma"]
    assert not (fork / "ldm/plugins/delta.py").exists() and not (fork / "ldm/legacy.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "4 passed" in run.stdout, run.stdout + run.stderr
