"""A command class the build configuration names (``[tool.setuptools.cmdclass] build_py = "pkg._build.BuildPy"``,
setup.cfg's ``[options] cmdclass``) runs when pip builds the fork: its module is a root, as setup.py is (session
30's adversarial round, P1: the fork did not install, ``No module named 'ppkg._build'``)."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

PYPROJECT = '[project]\nname = "ppkg"\nversion = "1.0"\n\n[tool.setuptools.cmdclass]\nbuild_py = "ppkg._build.BuildPy"\n'
SETUP_CFG = "[metadata]\nname = ppkg\n\n[options]\ncmdclass =\n    build_py = ppkg._build.BuildPy\n"


@pytest.mark.parametrize("config", ["pyproject", "setup.cfg"])
def test_a_build_command_class_is_a_root(tmp_path, config):
    files = {"src/ppkg/__init__.py": "", "src/ppkg/api.py": "X = 1\n", "src/ppkg/_other.py": "",
             "src/ppkg/_build.py": "from setuptools.command.build_py import build_py\n\n\nclass BuildPy(build_py):\n"
                                   "    pass\n"}
    if config == "pyproject":
        files["pyproject.toml"] = PYPROJECT
    else:
        files.update({"pyproject.toml": "[build-system]\nrequires = ['setuptools']\n", "setup.cfg": SETUP_CFG})
    spec = 'source = "."\npackages = ["ppkg"]\nroots = ["ppkg.api"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml")
    roots = {r.module: r.reason for r in analysis.graph.roots}
    assert "ppkg._build" in roots and "cmdclass" in roots["ppkg._build"]
    assert "ppkg._other" not in analysis.graph.reached
