"""A ``.py`` file named by literal parts handed to ``joinpath`` or ``Path(...)`` (``resources.files(__package__)
.joinpath("scripts", "gen.py")``, ``Path(HERE, "scripts", "gen.py")``) is kept. Before, only ``os.path.join`` and
``/`` chains joined their parts: ``scripts/gen.py`` (a folder without ``__init__``) left the fork with exit 0 and
``runpy.run_path`` raised FileNotFoundError (session 38, both `[symbols]` modes). So were the parts of a list joined later
(``os.sep.join(__file__.split(os.sep)[:-1] + ["impl", "worker.py"])``, session 39, both modes)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.index.parse import summarize
from tests.mapping.registrykit import write_project

CALLS = {
    "joinpath": "resources.files(__package__).joinpath('scripts', 'gen.py')",
    "path_args": "Path(Path(__file__).parent, 'scripts', 'gen.py')",
    "sep_join": "os.sep.join(__file__.split(os.sep)[:-1] + ['scripts', 'gen.py'])",
    "tuple_star": "Path(*Path(__file__).parent.parts, *('scripts', 'gen.py'))",
}


def test_joined_parts_name_the_file():
    code = "from pathlib import Path\nP = Path(__file__).parent.joinpath('a', 'b.py')\nQ = Path(X, 'c', 'd.py')\n"
    paths = {p for p, _ in summarize(code.encode()).path_strings}
    assert {"a/b.py", "c/d.py"} <= paths


def test_a_list_of_parts_names_the_file():
    code = "import os\nP = os.sep.join(__file__.split(os.sep)[:-1] + ['impl', 'worker.py'])\n"
    assert "impl/worker.py" in {p for p, _ in summarize(code.encode()).path_strings}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("call", sorted(CALLS))
def test_file_run_by_a_joined_path_is_kept(tmp_path, call, mode):
    files = {
        "pkg/__init__.py": "",
        "pkg/scripts/gen.py": "RESULT = 'gen'\n",
        "pkg/app.py": "import os\nimport runpy\nfrom importlib import resources\nfrom pathlib import Path\n\n\n"
                      f"def main():\n    return runpy.run_path(str({CALLS[call]}))['RESULT']\n",
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "gen", done.stderr[-2000:]
