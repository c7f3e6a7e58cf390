"""A package a literal ``packages`` list names and nothing kept reaches leaves the fork with its entry (session 41:
before, every listed package was a root, since setuptools fails on a listed folder that is missing; dramatiq's and
mutagen's lists kept whole subpackages). Each form is cut and proven by reading the list again; a list this cannot
read whole (computed, ``setup(**kw)``) cuts nothing, and the package stays a root (tests/graph/test_listed_packages.py).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.errors import SpecError
from slimfork.source.listed_cuts import cut_listed, listed_in
from tests.mapping.registrykit import write_project

SETUP_PY = """
from setuptools import setup

setup(
    name="pk",
    version="1.0",
    packages=[
        "pk",
        "pk.extras",  # the optional backends
        "pk.more",
    ],
    entry_points={
        "console_scripts": [
            "pk-speed=pk.extras.fast:speed",
        ],
    },
)
"""
PYPROJECT = '[project]\nname = "pk"\nversion = "1.0"\n\n[tool.setuptools]\npackages = ["pk", "pk.extras", "pk.more"]\n' \
            'zip-safe = false\n'
PYPROJECT_LINES = '[tool.setuptools]\npackages = [\n    "pk",\n    "pk.extras",\n    "pk.more",\n]\n'
SETUP_CFG = "[metadata]\nname = pk\n\n[options]\npackages =\n    pk\n    pk.extras\n    pk.more\nzip_safe = False\n"


def _cut(tmp_path, rel, text, gone):
    (tmp_path / rel).write_text(text)
    cuts = cut_listed(tmp_path, gone)
    assert cuts is not None and set(cuts) == {rel}
    return cuts[rel].decode()


def test_each_form_loses_the_entries(tmp_path):
    for rel, text in (("setup.py", SETUP_PY), ("pyproject.toml", PYPROJECT), ("pyproject.toml", PYPROJECT_LINES),
                      ("setup.cfg", SETUP_CFG)):
        for gone in ({"pk.extras"}, {"pk.more"}, {"pk.extras", "pk.more"}):
            new = _cut(tmp_path, rel, text, gone)
            assert listed_in(rel, new) == [p for p in ("pk", "pk.extras", "pk.more") if p not in gone], (rel, new)
        (tmp_path / rel).unlink()


def test_a_list_it_cannot_read_whole_cuts_nothing(tmp_path):
    for setup in ("setup(name='pk', packages=['pk', 'pk.extras'] + EXTRA)\n",
                  "setup(name='pk', packages=['pk', 'pk.' + 'extras'])\n", "setup(**KW)\n",
                  "setup(name='pk', packages=PACKAGES)\n"):
        (tmp_path / "setup.cfg").write_text(SETUP_CFG)
        (tmp_path / "setup.py").write_text("from setuptools import setup\n" + setup)
        assert cut_listed(tmp_path, {"pk.extras"}) is None, setup


FILES = {
    "setup.py": SETUP_PY,
    "pk/__init__.py": "",
    "pk/core.py": "def add(a, b):\n    return a + b\n",
    "pk/extras/__init__.py": "from pk.extras.fast import speed\n",
    "pk/extras/fast.py": "def speed():\n    return 1\n",
    "pk/more/__init__.py": "from pk.core import add\n\n\ndef twice(a):\n    return add(a, a)\n",
}
SPEC = 'source = "."\nroots = ["pk.core:add"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_the_fork_drops_an_unreached_listed_package_and_still_builds(tmp_path):
    """With the console script dropped too: the list is cut after (on top of) the dropped entries' cut, and a list
    the drop empties keeps its brackets without a comma (mutagen's ``'console_scripts': [...,]`` became
    ``[,]``: the run stopped)."""
    root = write_project(tmp_path, FILES, SPEC.replace("\n\n[symbols]", '\ndrop = ["script:*"]\n\n[symbols]'))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pk/extras").exists() and not (fork / "pk/more").exists()
    setup = (fork / "setup.py").read_text()
    assert listed_in("setup.py", setup) == ["pk"], setup
    assert 'name="pk"' in setup and 'version="1.0"' in setup and "pk-speed" not in setup
    log = subprocess.run(["git", "log", "--format=%s"], cwd=fork, capture_output=True, text=True).stdout
    assert "unlisted-packages" in log, log
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path / "build")], cwd=fork,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    assert (tmp_path / "build/pk/core.py").is_file()


def test_a_dropped_package_a_list_names_that_cannot_be_cut_stops_the_run(tmp_path):
    """Before, the fork kept ``pk.extras`` in ``setup.cfg``'s list without its folder: setuptools fails on it."""
    files = {**FILES, "setup.py": "from setuptools import setup\n\nsetup(name='pk', packages=PKGS)\n",
             "setup.cfg": "[options]\npackages =\n    pk\n    pk.extras\n    pk.more\n"}
    root = write_project(tmp_path, files, SPEC.replace("\n\n[symbols]", '\ndrop = ["pk/extras"]\n\n[symbols]'))
    with pytest.raises(SpecError, match="pk.extras"):
        shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    assert not (tmp_path / "fork").exists()
