"""Test cases a conftest's ``pytest_collect_file`` hook collects from data files (``tests/cases/double.case``:
``func: pkg.extra:g``): each file is a test, and no test file names it. It was taken for prose: ``pkg.extra``
left the fork with exit 0 and the case failed on the fork (session 37, both modes). What such a file names now
stays as test support; so does what a file names that a test finds by a glob (``glob("*.case")``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

CONFTEST = """
import pkgutil
import pytest


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".case":
        return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    def collect(self):
        spec = dict(line.split(": ") for line in self.path.read_text().splitlines())
        yield CaseItem.from_parent(self, name=self.path.stem, spec=spec)


class CaseItem(pytest.Item):
    def __init__(self, *, spec, **kw):
        super().__init__(**kw)
        self.spec = spec

    def runtest(self):
        assert pkgutil.resolve_name(self.spec["func"])() == int(self.spec["expect"])
"""
GLOBBED = """
import pathlib
import pkgutil

from pkg.core import f


def test_f():
    assert f() == 1


def test_cases():
    for path in (pathlib.Path(__file__).parent / "cases").glob("*.case"):
        spec = dict(line.split(": ") for line in path.read_text().splitlines())
        assert pkgutil.resolve_name(spec["func"])() == int(spec["expect"])
"""
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def f():\n    return 1\n",
    "pkg/extra.py": "def g():\n    return 2\n",
    "pkg/gone.py": "X = 1\n",
    "tests/cases/double.case": "func: pkg.extra:g\nexpect: 2\n",
    "tests/test_core.py": "from pkg.core import f\n\n\ndef test_f():\n    assert f() == 1\n",
}


@pytest.mark.parametrize("how", ["collected", "globbed"])
@pytest.mark.parametrize("mode", ["default", "roots"])
def test_what_a_collected_data_file_names_stays(tmp_path, mode, how):
    files = {**FILES, **({"tests/conftest.py": CONFTEST} if how == "collected" else {"tests/test_core.py": GLOBBED})}
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    spec = f'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n\n{symbols}'
    result = shrink(write_project(tmp_path, files, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert not (result.out / "pkg/gone.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-2000:]
