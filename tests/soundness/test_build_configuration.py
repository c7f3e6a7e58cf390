"""What the build configuration names by hand stays (session 29's adversarial round, J1, O1, S1): the targets of
``[project.gui-scripts]``, what a script the build installs imports (``script-files``, ``setup(scripts=...)``, with
or without ``.py``), and the packages ``packages = [...]`` lists by name, without which the fork does not install,
unless the fork cuts them from the list (session 41: a literal list loses the listed packages nothing kept reaches,
source/listed_cuts.py)."""

from __future__ import annotations

import tomllib

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

PYPROJECT = """
[project]
name = "bp"
version = "1.0"

[project.gui-scripts]
bpgui = "bp.gui:main"

[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[tool.setuptools]
package-dir = {"" = "src"}
packages = ["bp", "bp.extras"]
script-files = ["bin/bprun"]
"""
FILES = {
    "pyproject.toml": PYPROJECT,
    "bin/bprun": "#!/usr/bin/env python\nfrom bp.runner import main\n\nmain()\n",
    "src/bp/__init__.py": "",
    "src/bp/api.py": "def f():\n    return 1\n",
    "src/bp/gui.py": "def main():\n    pass\n",
    "src/bp/runner.py": "def main():\n    pass\n",
    "src/bp/unused.py": "",
    "src/bp/extras/__init__.py": "",
}


def test_what_the_build_configuration_names_stays(tmp_path):
    root = write_project(tmp_path, FILES, 'source = "."\nroots = ["bp.api"]\n')
    removed = {r.path for r in analyse(root / "slimfork.toml", jobs=1).plan.removals}
    assert not removed & {"src/bp/gui.py", "src/bp/runner.py", "bin/bprun"}
    assert {"src/bp/unused.py", "src/bp/extras/__init__.py"} <= removed
    shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    fork = tomllib.loads((tmp_path / "fork/pyproject.toml").read_text())
    assert fork["tool"]["setuptools"]["packages"] == ["bp"] and not (tmp_path / "fork/src/bp/extras").exists()
    assert fork["tool"]["setuptools"]["script-files"] == ["bin/bprun"]


def test_a_setup_py_scripts_list_is_read(tmp_path):
    files = {
        "setup.py": "from setuptools import setup\n\nsetup(name='sp', packages=['sp'], scripts=['tools/run.py'])\n",
        "tools/run.py": "from sp.runner import main\n\nmain()\n",
        "sp/__init__.py": "",
        "sp/api.py": "",
        "sp/runner.py": "def main():\n    pass\n",
        "sp/unused.py": "",
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["sp.api"]\n') / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert "sp/runner.py" not in removed and "sp/unused.py" in removed


def test_a_module_named_in_the_projects_own_tool_table_stays(tmp_path):
    """``[tool.cp] on_start = "cp.hooks:start"``, read by the project's code with tomllib and resolved by name
    (session 29's adversarial round, A1)."""
    files = {
        "pyproject.toml": '[project]\nname = "cp"\nversion = "1.0"\n\n[tool.cp]\non_start = "cp.hooks:start"\n'
                          'formatter = "cp.fmt.shout"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        "src/cp/__init__.py": "",
        "src/cp/cli.py": "import pkgutil\n\n\ndef hook(name):\n    return pkgutil.resolve_name(name)\n",
        "src/cp/hooks.py": "def start():\n    pass\n",
        "src/cp/fmt.py": "def shout(x):\n    return x\n",
        "src/cp/unused.py": "",
        "tests/test_unused.py": "import cp.unused\n",  # named by code that goes: hook() may load a loose module
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["cp.cli"]\n') / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert not removed & {"src/cp/hooks.py", "src/cp/fmt.py"} and "src/cp/unused.py" in removed


def test_a_python_program_in_bin_is_a_root(tmp_path):
    """``bin/pyflakes`` (a Python shebang, no suffix), installed by ``setup(**extra)`` and run by the tests."""
    files = {
        "setup.py": "from setuptools import setup\n\nextra = {'scripts': ['bin/tool']}\nsetup(name='bt', **extra)\n",
        "bin/tool": "#!/usr/bin/env python\nfrom bt.scripts.tool import main\nmain()\n",
        "bt/__init__.py": "", "bt/api.py": "", "bt/scripts/__init__.py": "",
        "bt/scripts/tool.py": "def main():\n    pass\n", "bt/unused.py": "",
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["bt.api"]\n') / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert "bt/scripts/tool.py" not in removed and "bt/unused.py" in removed
