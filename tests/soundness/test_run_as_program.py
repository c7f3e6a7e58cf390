"""Packages run as programs keep their ``__main__`` (session 28's adversarial round): ``python -m pkg`` when the
package's ``__main__`` only dispatches to the root, ``runpy.run_module("pkg.tool")`` and
``[sys.executable, "-m", "pkg.tool2"]`` of a package."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "rp"\nversion = "1.0"\n',
    "src/rp/__init__.py": "",
    "src/rp/__main__.py": "from rp.cli import main\n\nmain()\n",
    "src/rp/cli.py": """
        import runpy
        import subprocess
        import sys


        def main():
            runpy.run_module("rp.tool", run_name="__main__")
            subprocess.run([sys.executable, "-m", "rp.tool2"], check=True)
    """,
    "src/rp/tool/__init__.py": "",
    "src/rp/tool/__main__.py": "print('tool')\n",
    "src/rp/tool2/__init__.py": "",
    "src/rp/tool2/__main__.py": "print('tool2')\n",
    "src/rp/other/__init__.py": "",
    "src/rp/other/__main__.py": "print('never run')\n",
}


def test_packages_run_as_programs_keep_their_main(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["rp.cli"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert not removed & {"src/rp/__main__.py", "src/rp/tool/__main__.py", "src/rp/tool2/__main__.py"}
    assert "src/rp/other/__main__.py" in removed
