"""An import whose name nothing reads still loads its module: when kept code names that module in a string
(``sys.modules["pkg.shapes"]``, a dotted path in a table), the string may find the module only among those already
loaded, so the import stays (the fork raised ``KeyError: 'pkg.shapes'``). An import of a module no string names
still goes when its name is unused."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": """
        import sys

        from . import helpers, shapes


        def main():
            for name in ("Circle", "Square"):
                print(getattr(sys.modules["pkg.shapes"], name)().area())
        """,
    "pkg/shapes.py": "class Circle:\n    def area(self):\n        return 3\n\n\n"
                     "class Square:\n    def area(self):\n        return 4\n",
    "pkg/helpers.py": "def unused():\n    return 0\n",
}


def test_an_import_of_a_module_a_string_names_stays(tmp_path):
    for api in ("kept", "roots"):
        spec = f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n[symbols]\npublic_api = "{api}"\n\n' \
               '[checks]\nskip = ["import-modules"]\n'
        project = write_project(tmp_path / api, FILES, spec)
        fork = tmp_path / api / "fork"
        shrink(project / "slimfork.toml", out=fork, jobs=1)
        run = subprocess.run([sys.executable, "-c", "from pkg import app; app.main()"], cwd=fork,
                             capture_output=True, text=True, timeout=60)
        assert (run.returncode, run.stdout) == (0, "3\n4\n"), run.stderr
        app = (fork / "pkg/app.py").read_text()
        assert "from . import shapes" in app and "helpers" not in app  # no string names `helpers`
