"""A test file's table of cases (mutagen 1.47.0's ``tests/test___init__.py``: ``_FILETYPES = {OggVorbis: [...],
...}``, ``_FILETYPES[APEv2File] = _FILETYPES[MonkeysAudio]``, and ``create_filetype_tests()`` making a test class
per entry at import) loses the entries and stores that name removed code: the file's tests of kept code stay,
the classes made from the cut entries are no longer made (the pytest check knows them gone), and the file no
longer holds every format as test support. A table some code reads otherwise (``len(_TYPES)``) stays whole."""

from __future__ import annotations

import ast

from slimfork.api import shrink
from slimfork.index.case_tables import case_tables
from tests.mapping.registrykit import write_project

TEST = """\
import unittest

from pkg.base import FileType
from pkg.mp3 import MP3
from pkg.flac import FLAC
from pkg.id3 import ID3


class TBase(unittest.TestCase):
    def test_base(self):
        assert FileType().kind() == "FileType"


class TAbstract(object):
    def test_kind(self):
        assert self.KIND().kind() == self.KIND.__name__


_TYPES = {
    MP3: ["a.mp3"],
    FLAC: ["a.flac"],
}
_TYPES[ID3] = _TYPES[MP3]
_TYPES[FileType] = _TYPES[FLAC]


def create():
    for kind, paths in _TYPES.items():
        name = "TType" + kind.__name__
        globals()[name] = type(name, (TAbstract, unittest.TestCase), {"KIND": kind})


create()


class TAll(unittest.TestCase):
    def test_paths(self):
        assert all(p for kind, paths in _TYPES.items() for p in paths)
"""
FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/base.py": "class FileType:\n    def kind(self):\n        return type(self).__name__\n",
    "pkg/mp3.py": "from pkg.base import FileType\n\n\nclass MP3(FileType):\n    pass\n",
    "pkg/id3.py": "from pkg.base import FileType\n\n\nclass ID3(FileType):\n    pass\n",
    "pkg/flac.py": "from pkg.base import FileType\n\n\nclass FLAC(FileType):\n    pass\n",
    "tests/__init__.py": "",
    "tests/test_all.py": TEST,
}
SPEC = 'source = "."\nroots = ["pkg.mp3:MP3", "pkg.id3:ID3"]\ntests = ["tests"]\n\n' \
       '[symbols]\npublic_api = "roots"\npackage_api = false\n\n[checks]\nskip = ["import-modules"]\n'


def test_cases_of_removed_code_leave_the_table(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1)
    fork = result.out
    assert not (fork / "pkg/flac.py").exists()
    text = (fork / "tests/test_all.py").read_text()
    assert "FLAC" not in text and "_TYPES[ID3] = _TYPES[MP3]" in text and "MP3: [" in text
    assert "class TBase" in text and "class TAll" in text
    assert all(b.checks and all(c.ok for c in b.checks) and not b.restored for b in result.apply.batches)


def test_a_table_read_otherwise_is_no_table_of_cases():
    tree = ast.parse(TEST)
    assert set(case_tables(tree)) == {"_TYPES"}
    assert not case_tables(ast.parse(TEST + "\nassert len(_TYPES) == 4\n"))
    assert not case_tables(ast.parse(TEST + "\n_TYPES[ID3] = _TYPES['x']\n"))  # a key read that is no reference
