"""The static tools' sections of a project's configuration files name modules nobody loads: mypy's
``[[tool.mypy.overrides]] module = "pkg.plugins.*"`` (holidays 0.109), setup.cfg's ``[mypy-pkg.plugins.*]`` and
``[coverage:run]``. They no longer keep every name of the package they spell; pytest's options, a mypy plugin and
any other file still do (graph/tool_configs.py)."""

from __future__ import annotations

import pytest
from tests.mapping.registrykit import write_project

from slimfork.api import analyse
from slimfork.graph.tool_configs import runtime_text

PYPROJECT = """
[project]
name = "pkg"

[tool.mypy]
plugins = ["pkg.mypy_plugin"]

[[tool.mypy.overrides]]
module = "pkg.plugins.*"
disable_error_code = ["override"]

[tool.ruff.lint.per-file-ignores]
"pkg/plugins/__init__.py" = ["F401"]

[tool.pytest.ini_options]
addopts = "-p pkg.testing_plugin"
"""
SETUP_CFG = """
[mypy-pkg.plugins.*]
ignore_errors = True

[coverage:run]
source = pkg.plugins

[tool:pytest]
addopts = -p pkg.testing_plugin
"""


def test_static_tool_sections_are_left_out():
    text = runtime_text("pyproject.toml", PYPROJECT)
    assert "pkg.plugins" not in text
    assert "pkg.mypy_plugin" in text and "pkg.testing_plugin" in text
    text = runtime_text("setup.cfg", SETUP_CFG)
    assert "pkg.plugins" not in text and "pkg.testing_plugin" in text
    assert runtime_text("settings.toml", PYPROJECT) == PYPROJECT
    assert runtime_text("pyproject.toml", "not = [toml") == "not = [toml"


FILES = {
    "pkg/__init__.py": "",
    "pkg/plugins/__init__.py": "from pkg.plugins.alpha import Alpha\nfrom pkg.plugins.beta import Beta\n",
    "pkg/plugins/alpha.py": "class Alpha:\n    pass\n",
    "pkg/plugins/beta.py": "class Beta:\n    pass\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.plugins.alpha:Alpha"]

[symbols]
public_api = "roots"
package_api = false
"""


@pytest.mark.parametrize("name, text", [("pyproject.toml", PYPROJECT), ("setup.cfg", SETUP_CFG)],
                         ids=["pyproject", "setup.cfg"])
def test_a_mypy_override_keeps_no_name_of_the_package(tmp_path, name, text):
    root = write_project(tmp_path, {**FILES, name: text}, SPEC)
    assert "pkg/plugins/beta.py" in {r.path for r in analyse(root / "slimfork.toml").plan.removals}


def test_a_pytest_option_naming_the_package_keeps_its_names(tmp_path):
    text = '[tool.pytest.ini_options]\naddopts = "-p pkg.plugins"\n'
    root = write_project(tmp_path, {**FILES, "pyproject.toml": text}, SPEC)
    assert "pkg/plugins/beta.py" not in {r.path for r in analyse(root / "slimfork.toml").plan.removals}
