"""A module pytest's configuration names in an option's value: a conftest reading its own ini option
(``helpers_module = pkg.testhelpers``, ``import_module(config.getini("helpers_module"))`` in
``pytest_configure``), pytest-django's ``DJANGO_SETTINGS_MODULE``, a ``filterwarnings`` category. Only ``-p`` was
read: ``pkg.testhelpers`` left the fork with exit 0 and the fork's suite stopped with an INTERNALERROR (session
37, both modes). Such a module now stays as test support. Also: a test parametrized over several arguments
(``"mod,name"``, rows of literals) that imports a module built from one of them uses each row's module."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

CONFTEST = """
from importlib import import_module


def pytest_addoption(parser):
    parser.addini("helpers_module", "module with setup()")


def pytest_configure(config):
    assert import_module(config.getini("helpers_module")).setup() == "ok"
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def f():\n    return 1\n",
    "pkg/testhelpers.py": "from pkg.extra import g\n\n\ndef setup():\n    return 'ok' if g() == 2 else 'no'\n",
    "pkg/extra.py": "def g():\n    return 2\n",
    "pkg/gone.py": "X = 1\n",
    "tests/conftest.py": CONFTEST,
    "tests/test_core.py": "from pkg.core import f\n\n\ndef test_f():\n    assert f() == 1\n",
}
CONFIGS = {
    "pytest.ini": "[pytest]\nhelpers_module = pkg.testhelpers\n",
    "setup.cfg": "[tool:pytest]\nhelpers_module = pkg.testhelpers\n",
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1"\n[tool.pytest.ini_options]\n'
                      'helpers_module = "pkg.testhelpers"\n',
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("mode", ["default", "roots"])
def test_a_module_an_option_names_stays(tmp_path, mode, config):
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    spec = f'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n\n{symbols}'
    files = {**FILES, config: CONFIGS[config]}
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert not (result.out / "pkg/gone.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout[-2000:] + run.stderr[-2000:]


def test_a_test_parametrized_over_rows_uses_each_rows_module(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/extra.py": "def g():\n    return 2\n",
        "tests/test_x.py": "import importlib\nimport pytest\nfrom pkg.core import f\n\n\n"
                           "@pytest.mark.parametrize('mod,name,val', [('core', 'f', 1), ('extra', 'g', 2)])\n"
                           "def test_fn(mod, name, val):\n"
                           "    assert getattr(importlib.import_module('pkg.' + mod), name)() == val\n\n\n"
                           "def test_f():\n    assert f() == 1\n",
    }
    spec = 'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "failed" not in run.stdout, run.stdout[-2000:]
