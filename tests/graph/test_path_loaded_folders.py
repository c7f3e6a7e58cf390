"""A module that lists a folder of its package and loads the files it finds by their paths scans that folder, even
when no module name is computed: ``spec_from_file_location(f.stem, f)`` over ``(Path(__file__).parent /
PLUGIN_DIR).iterdir()``, the folder's name a constant of another module. The plugins there stayed unreachable and
were removed with exit 0 (lead's adversarial round, session 36); the scan is now uncertain and keeps the project."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

LOADERS = {
    "spec": "s = importlib.util.spec_from_file_location(f.stem, f)\n"
            "            m = importlib.util.module_from_spec(s)\n            s.loader.exec_module(m)",
    "source_loader": "m = importlib.machinery.SourceFileLoader(f.stem, str(f)).load_module()",
    "exec": "m = {}\n            exec(compile(f.read_text(), str(f), 'exec'), m)",
    "runpy": "m = runpy.run_path(str(f))",
}


@pytest.mark.parametrize("load", sorted(LOADERS))
def test_a_folder_listed_and_loaded_by_path_keeps_its_files(tmp_path, load):
    files = {
        "pkg/__init__.py": "",
        "pkg/consts.py": "PLUGIN_DIR = 'addons'\n",
        "pkg/addons/x.py": "N = 'x'\n",
        "pkg/app.py": f"""
            import importlib.machinery, importlib.util, runpy
            from pathlib import Path

            from .consts import PLUGIN_DIR


            def main():
                for f in sorted((Path(__file__).parent / PLUGIN_DIR).iterdir()):
                    {LOADERS[load]}
            """,
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app"]\n') / "slimfork.toml", jobs=1)
    kept = {k.path for k in analysis.plan.kept}
    assert "pkg/addons/x.py" in kept
    assert any(u.path == "pkg/app.py" and "directory scan" in u.why for u in analysis.plan.uncertain)


def test_a_folder_listed_for_data_only_keeps_nothing_more(tmp_path):
    """Listing a folder of the package to read its files (no load by path, no import by name) is no scan."""
    files = {
        "pkg/__init__.py": "",
        "pkg/consts.py": "DATA_DIR = 'addons'\n",
        "pkg/addons/x.py": "N = 'x'\n",
        "pkg/app.py": """
            from pathlib import Path

            from .consts import DATA_DIR


            def main():
                return [f.read_bytes() for f in (Path(__file__).parent / DATA_DIR).iterdir()]
            """,
    }
    analysis = analyse(write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app"]\n') / "slimfork.toml", jobs=1)
    assert "pkg/addons/x.py" not in {k.path for k in analysis.plan.kept}
