"""A data file of a package names a module whatever its suffix: a template of code (``plugin.py.tmpl``), a Jinja
file, ``defaults.env``, ``app.properties``, a ``REGISTRY`` file without a suffix, ``.jsonl``, ``.tsv``, ``.html``,
``.dat``, a pickle saved as ``.dat``. Only a list of suffixes was read before: each of these modules left the fork
with exit 0 and the package failed at run time (session 37, ten shapes, both `[symbols]` modes). A binary file
that is no pickle names nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

DATA = {
    "plugin.py.tmpl": "from pkg.base import run\n",
    "settings.j2": "handler: {{ prefix }}pkg.base:run\n",
    "defaults.env": "BACKEND=pkg.base\n",
    "app.properties": "handler = pkg.base:run\n",
    "REGISTRY": "pkg.base:run\n",
    "plugins.jsonl": '{"target": "pkg.base:run"}\n',
    "table.tsv": "f\tpkg.base:run\n",
    "index.html": '<meta name="handler" content="pkg.base:run">\n',
    "routes.dat": "/fast pkg.base:run\n",
}
APP = """
    import re
    from pathlib import Path
    from pkgutil import resolve_name


    def main():
        text = (Path(__file__).parent / {name!r}).read_text()
        found = re.search(r"pkg\\.base(:run)?", text).group()
        target = resolve_name(found if ":" in found else found + ":run")
        return target()
    """


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("name", sorted(DATA))
def test_a_data_file_of_any_suffix_keeps_what_it_names(tmp_path, name, mode):
    files = {
        "pkg/__init__.py": "",
        "pkg/base.py": "def run():\n    return 'ran'\n\n\ndef unused():\n    return 0\n",
        "pkg/gone.py": "X = 1\n",
        "tests/test_gone.py": "from pkg.gone import X\n",  # named by code that goes: no loose module
        f"pkg/{name}": DATA[name],
        "pkg/app.py": APP.format(name=name),
    }
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}')
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/gone.py").exists()
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "ran", done.stderr[-2000:]


def test_a_pickle_of_any_suffix_and_binary_files(tmp_path):
    """A pickle saved as ``state.dat`` names the class it holds; a binary file that is no pickle names nothing."""
    files = {
        "pkg/__init__.py": "",
        "pkg/state.py": "class Saved:\n    v = 'saved'\n",
        "pkg/gone.py": "X = 1\n",
        "pkg/app.py": "import pickle\nfrom pathlib import Path\n\n\ndef main():\n"
                      "    return pickle.loads((Path(__file__).parent / 'state.dat').read_bytes()).v\n",
    }
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app:main"]\ntests = []\n')
    data = subprocess.run([sys.executable, "-c", "import pickle, sys; from pkg.state import Saved; "
                           "sys.stdout.buffer.write(pickle.dumps(Saved(), 4))"], cwd=root, capture_output=True,
                          check=True).stdout
    (root / "pkg/state.dat").write_bytes(data)
    (root / "pkg/blob.bin2").write_bytes(b"\x00\x01pkg.gone\x00" * 4)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/gone.py").exists()
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "saved", done.stderr[-2000:]
