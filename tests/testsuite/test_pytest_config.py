"""A pytest plugin named only in pytest's configuration (``-p pkg.hooks`` in ``addopts``) is loaded by pytest at
start: it stays as test support, with what it imports, whichever file holds the configuration; ``-p no:x``
names no module."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.mapping.registrykit import write_project

from slimfork.api import shrink
from slimfork.testsuite.pytest_config import read_pytest_config

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def scale(x, k=2):\n    return x * k\n",
    "pkg/hooks.py": """
        import pytest

        from pkg.helpers import factor


        @pytest.fixture
        def scaler():
            from pkg.core import scale
            return lambda x: scale(x, factor())
        """,
    "pkg/helpers.py": "def factor():\n    return 3\n",
    "pkg/unused.py": "VALUE = 1\n",
    "tests/test_core.py": """
        def test_scale(scaler):
            assert scaler(2) == 6
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]

[symbols]
"""
ADDOPTS = "-p no:cacheprovider -p pkg.hooks -q"
CONFIGS = {
    "pyproject.toml": f'[tool.pytest.ini_options]\naddopts = "{ADDOPTS}"\n',
    "pytest.ini": f"[pytest]\naddopts = {ADDOPTS}\n",
    "setup.cfg": f"[tool:pytest]\naddopts =\n    {ADDOPTS}\n",
    "tox.ini": f"[tox]\nenvlist = py3\n\n[pytest]\naddopts = {ADDOPTS}\n",
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_a_plugin_named_by_addopts_stays_with_what_it_imports(tmp_path, config):
    root = write_project(tmp_path, {**FILES, config: CONFIGS[config]}, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "pkg/hooks.py").is_file() and (fork / "pkg/helpers.py").is_file()
    assert not (fork / "pkg/unused.py").exists()  # what nothing names still goes
    kept = {k.path: k.detail for k in result.analysis.stages.plan.kept}
    assert config in kept["pkg/hooks.py"]
    done = subprocess.run([sys.executable, "-m", "pytest", "tests"], cwd=fork, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_addopts_forms(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.pytest.ini_options]\naddopts = ["-ppkg.a", "-p", "no:x", '
                                             '"--doctest-glob=*.rst", "--doctest-glob", "*.md", '
                                             '"--doctest-modules"]\ntestpaths = ["tests", "docs"]\n')
    config = read_pytest_config(tmp_path)
    assert [name for name, _ in config.plugins] == ["pkg.a"]
    assert config.doctest_globs == ["*.rst", "*.md"] and config.doctest_modules
    assert config.testpaths == ["tests", "docs"]
    empty = read_pytest_config(tmp_path / "nowhere")
    assert empty.plugins == [] and empty.doctest_globs == ["test*.txt"] and not empty.doctest_modules
