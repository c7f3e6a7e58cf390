"""What a package's data files name beyond dotted names (session 40): a ``.py`` path (``{"hook": "hooks/run_me.py"}``,
the file exec'd by its path; a folder without ``__init__.py``), and a pickle saved under a blob's suffix
(``rec.bin``, ``state.pt``; protocols 0 and 4), whose class only the pickle names. Both left the fork (a
FileNotFoundError; a ModuleNotFoundError on unpickling), exit 0, both ``[symbols]`` modes: ``.bin`` and ``.pt`` files
were never read, and a data file's ``.py`` paths were not read as paths."""

from __future__ import annotations

import collections
import pickle
import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.graph.data_files import readable_text, scanned_data_file
from tests.mapping.registrykit import write_project

HOOK = {"pkg/__init__.py": "", "pkg/hooks/run_me.py": "RESULT = 'hooked'\n",
        "pkg/config.json": '{"hook": "hooks/run_me.py"}\n',
        "pkg/app.py": "import json, os\n\n\ndef main():\n    here = os.path.dirname(__file__)\n"
                      "    cfg = json.load(open(os.path.join(here, 'config.json')))\n    ns = {}\n"
                      "    exec(open(os.path.join(here, cfg['hook'])).read(), ns)\n    return ns['RESULT']\n"}
RECORDS = "class Rec:\n    def __init__(self, v):\n        self.v = v\n"


def _spec(mode: str) -> str:
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    return f'source = "."\nroots = ["pkg.app:main"]\ntests = []\n\n{symbols}'


def _run(tmp_path, root) -> str:
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    return done.stdout.strip() or done.stderr[-2000:]


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_a_py_path_in_a_data_file_keeps_its_file(tmp_path, mode):
    assert _run(tmp_path, write_project(tmp_path, HOOK, _spec(mode))) == "hooked"


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("name,protocol", [("rec.bin", 4), ("rec.bin", 0), ("state.pt", 2)])
def test_a_pickle_under_a_blob_suffix_keeps_its_class(tmp_path, mode, name, protocol):
    app = (f"import os, pickle\n\n\ndef main():\n    with open(os.path.join(os.path.dirname(__file__), '{name}'), "
           "'rb') as fh:\n        return pickle.load(fh).v\n")
    root = write_project(tmp_path, {"pkg/__init__.py": "", "pkg/records.py": RECORDS, "pkg/app.py": app},
                         _spec(mode))
    sys.path.insert(0, str(root))
    try:
        from pkg.records import Rec  # type: ignore[import-not-found]
        (root / "pkg" / name).write_bytes(pickle.dumps(Rec(7), protocol=protocol))
    finally:
        sys.path.remove(str(root))
        for module in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
            del sys.modules[module]
    assert _run(tmp_path, root) == "7"


def test_a_blob_that_is_no_pickle_is_not_read(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/weights.bin").write_bytes(b"PK\x03\x04" + bytes(64))
    (tmp_path / "pkg/old.bin").write_bytes(pickle.dumps(collections.OrderedDict(a=1), protocol=0))
    assert not scanned_data_file("pkg/weights.bin", str(tmp_path)) and not scanned_data_file("pkg/weights.bin")
    assert scanned_data_file("pkg/old.bin", str(tmp_path))
    assert "pkg.records:Rec" in readable_text("x.bin", b"cpkg.records\nRec\np0\n.")
