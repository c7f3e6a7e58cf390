"""An import whose name nothing reads still loads its module: when kept code names that module in a string
(``sys.modules["pkg.shapes"]``, a dotted path in a table), the string may find the module only among those already
loaded, so the import stays (the fork raised ``KeyError: 'pkg.shapes'``). An import of a module no string names
still goes when its name is unused."""

from __future__ import annotations

from tests.symbols.forkrun import shrink_and_run_main

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
        _, fork, run = shrink_and_run_main(tmp_path / api, FILES, api)
        assert (run.returncode, run.stdout) == (0, "3\n4\n"), run.stderr
        app = (fork / "pkg/app.py").read_text()
        assert "from . import shapes" in app and "helpers" not in app  # no string names `helpers`
