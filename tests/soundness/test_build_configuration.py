"""What the build configuration names by hand stays (session 29's adversarial round, J1, O1, S1): the targets of
``[project.gui-scripts]``, what a script the build installs imports (``script-files``, ``setup(scripts=...)``, with
or without ``.py``), and the packages ``packages = [...]`` lists by name, without which the fork does not install."""

from __future__ import annotations

from slimfork.api import analyse
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
    analysis = analyse(write_project(tmp_path, FILES, 'source = "."\nroots = ["bp.api"]\n') / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    assert not removed & {"src/bp/gui.py", "src/bp/runner.py", "src/bp/extras/__init__.py", "bin/bprun"}
    assert "src/bp/unused.py" in removed


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
