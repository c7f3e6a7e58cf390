"""A project's own pytest plugin (a ``pytest11`` entry point) loads only when the project is installed: run from
the source, pytest-httpserver 1.1.0's tests lacked their ``httpserver`` fixture ("fixture 'httpserver' not
found"), 85 of 112 failed in the original and the check verified the other 27, silently. The check now declares
the tree's own plugins as an installed distribution would, so the fixture is there in the original, and a fork
that declares the plugin but lost its module fails, as pytest with the fork installed would."""

from __future__ import annotations

from slimfork.verify.checks.pytest import PytestCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import PytestSpec

from tests.verify.verify_helpers import LAYOUT

ARGS = ("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist")
PYPROJECT = """
[tool.poetry]
name = "srvplug"
version = "1.0"
[tool.poetry.plugins.pytest11]
srvplug = "srvplug.plugin"
"""


def _tree(root, plugin=True):
    (root / "srvplug").mkdir(parents=True)
    (root / "srvplug" / "__init__.py").write_text("")
    if plugin:
        (root / "srvplug" / "plugin.py").write_text(
            "import pytest\n\n@pytest.fixture\ndef server():\n    return 'up'\n")
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "tests").mkdir()
    (root / "tests" / "test_srv.py").write_text("def test_up(server):\n    assert server == 'up'\n\n"
                                                "def test_plain():\n    pass\n")
    return root


def test_the_trees_own_pytest_plugin_loads(tmp_path):
    check = PytestCheck(LAYOUT, current_env(), PytestSpec(args=ARGS))
    baseline = check.baseline(_tree(tmp_path / "orig"))
    assert baseline.usable and baseline.data == {"tests.test_srv::test_up", "tests.test_srv::test_plain"}
    result = check.run(_tree(tmp_path / "fork", plugin=False), baseline)  # the plugin module left the fork
    assert not result.ok and "No module named 'srvplug.plugin'" in result.failures[0]  # as pytest installed would


def test_no_plugin_no_metadata(tmp_path):
    from slimfork.verify.checks.pytest import own_plugins

    root = _tree(tmp_path / "p")
    (root / "pyproject.toml").write_text('[project]\nname = "srvplug"\nversion = "1"\n')
    assert not own_plugins(root, root, tmp_path / "scratch") and not (tmp_path / "scratch").exists()
