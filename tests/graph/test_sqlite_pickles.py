"""A database file of the package whose values are pickles (``state.sqlite``: ``pickle.loads(row[0])``) names the
classes they load. Before (session 44) ``.sqlite`` files were never read: ``records.py``, which nothing imports,
left the fork and the load raised ModuleNotFoundError, exit 0, in both ``[symbols]`` modes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from slimfork.index.pickled import embedded_pickle_globals
from tests.mapping.registrykit import write_project
from tests.soundness.soundkit import SYMBOLS

APP = ("import os, pickle, sqlite3\n\n\ndef main():\n"
       "    con = sqlite3.connect(os.path.join(os.path.dirname(__file__), 'state.sqlite'))\n"
       "    (blob,) = con.execute('select v from kv').fetchone()\n    return pickle.loads(blob).show()\n")
MAKE = ("import pickle, sqlite3\nfrom pkg.records import Rec\ncon = sqlite3.connect('pkg/state.sqlite')\n"
        "con.execute('create table kv (k text, v blob)')\n"
        "con.execute('insert into kv values (?, ?)', ('rec', pickle.dumps(Rec(), protocol=4)))\ncon.commit()\n")


def test_each_embedded_pickle_is_read():
    data = b"SQLite format 3\x00" + b"\x00" * 40 + b"\x80\x02cpkg.a\nA\nq\x00)\x81q\x01." + b"\x07" * 9 + \
        b"\x80\x04\x95\x13\x00\x00\x00\x00\x00\x00\x00\x8c\x05pkg.b\x94\x8c\x01B\x94\x93\x94."
    assert embedded_pickle_globals(data) == ["pkg.a:A", "pkg.b:B"]


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_the_classes_a_database_holds_stay(tmp_path, mode):
    files = {"pkg/__init__.py": "", "pkg/app.py": APP,
             "pkg/records.py": "class Rec:\n    def show(self):\n        return 'rec'\n"}
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\n{SYMBOLS[mode]}')
    subprocess.run([sys.executable, "-c", MAKE], cwd=root, check=True, env={"PYTHONPATH": str(root)})
    shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=tmp_path / "fork",
                          capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "fork")})
    assert done.stdout.strip() == "rec", done.stderr[-2000:]
