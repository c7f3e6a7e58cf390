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


# Session 45: no ``testpaths``: plain ``pytest`` at the root collects every file the glob matches (a README beside
# pyproject.toml, a page under docs/), but none in a folder pytest does not enter (``build/``, ``.*``)
UNLISTED = {
    "pyproject.toml": '[project]\nname = "pnt"\nversion = "1.0"\n\n'
                      '[tool.pytest.ini_options]\naddopts = "--doctest-glob=*.md"\n',
    "README.md": "# pnt\n\n>>> from pnt.plugins.alpha import VALUE\n>>> VALUE\n'alpha'\n",
    "docs/guide.md": ">>> from pnt.plugins import beta\n>>> beta.VALUE\n'beta'\n",
    "build/old.md": ">>> from pnt.plugins import gamma\n",
    "pnt/__init__.py": "",
    "pnt/core.py": "def add(a, b):\n    return a + b\n",
    "pnt/plugins/__init__.py": "",
    "pnt/plugins/alpha.py": "VALUE = 'alpha'\n",
    "pnt/plugins/beta.py": "VALUE = 'beta'\n",
    "pnt/plugins/gamma.py": "VALUE = 'gamma'\n",
    "pnt/legacy.py": "from pnt.plugins import alpha, beta, gamma\n",
    "tests/test_core.py": "from pnt.core import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
}


def test_a_readme_pytest_collects_without_testpaths_keeps_what_it_imports(tmp_path):
    spec = 'source = "."\nroots = ["pnt.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
    result = shrink(write_project(tmp_path, UNLISTED, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = result.out
    assert (fork / "pnt/plugins/alpha.py").exists() and (fork / "pnt/plugins/beta.py").exists()
    assert not (fork / "pnt/plugins/gamma.py").exists() and not (fork / "pnt/legacy.py").exists()
    support = result.data["tests"]["support"]
    assert "README.md" in support["pnt.plugins.alpha"] and "docs/guide.md" in support["pnt.plugins.beta"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=fork,
                         capture_output=True, text=True, env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "3 passed" in run.stdout, run.stdout + run.stderr


def test_the_default_pytest_check_runs_the_doc_files_pytest_collects_without_testpaths(tmp_path):
    """Session 46: the checks verify what the plan holds (a broken root doc file was caught by the plan alone)."""
    spec = load_spec(write_project(tmp_path, UNLISTED, 'source = "."\nroots = ["pnt.core"]\ntests = ["tests"]\n')
                     / "slimfork.toml")
    analysis = analyse(spec, jobs=1)
    _default_tests(spec, analysis)
    assert spec.sections["checks"].pytest.tests == ("tests", "README.md", "docs/guide.md")
