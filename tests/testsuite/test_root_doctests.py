"""Adversarial round s29 (P1): a README.md at the project root that pytest collects as a doctest (``testpaths =
tests README.md`` and ``--doctest-glob=README.md``) is test code outside the test folders: the modules its
``>>>`` examples import stay as test support (the README is documentation, not a file to delete), and the default
pytest check runs the configured ``testpaths``, as plain ``pytest`` in the project does."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from slimfork.pipeline.analyse import analyse
from slimfork.pipeline.shrink import _default_tests
from slimfork.spec import load_spec
from tests.mapping.registrykit import write_project

FILES = {
    "setup.py": 'from setuptools import setup\n\nsetup(name="pns", version="1.0", package_dir={"": "lib"},\n'
                '      packages=["pns", "pns.core", "pns.extra"])\n',
    "pytest.ini": "[pytest]\naddopts = --doctest-glob=README.md\ntestpaths = tests README.md\n",
    "README.md": '# pns\n\n>>> from pns.extra.shout import shout\n>>> shout("hi")\n\'HI!\'\n',
    "lib/pns/__init__.py": "",
    "lib/pns/core/__init__.py": "",
    "lib/pns/core/api.py": "def add(a, b):\n    return a + b\n",
    "lib/pns/extra/__init__.py": "",
    "lib/pns/extra/shout.py": 'def shout(s):\n    return s.upper() + "!"\n',
    "lib/pns/extra/other.py": "def other():\n    return 1\n",
    "tests/test_api.py": "from pns.core.api import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}
SPEC = 'source = "."\nroots = ["pns.core.api"]\ntests = ["tests"]\n'


def test_a_root_readme_doctest_keeps_what_it_imports(tmp_path):
    result = shrink(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "README.md").exists() and (fork / "lib/pns/extra/shout.py").exists()
    assert not (fork / "lib/pns/extra/other.py").exists()
    assert "README.md" in result.data["tests"]["support"]["pns.extra.shout"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork / "lib"), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout + run.stderr


def test_the_default_pytest_check_runs_the_configured_testpaths(tmp_path):
    spec = load_spec(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    analysis = analyse(spec, jobs=1)
    _default_tests(spec, analysis)
    assert spec.sections["checks"].pytest.tests == ("tests", "README.md")
