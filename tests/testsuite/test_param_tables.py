"""textdistance 4.6.3's ``tests/test_common.py`` builds ``ALGS = (textdistance.bag, ..., textdistance.mra, ...)`` at
module level and parametrizes its tests over it: every algorithm listed was "read at import time by the test
file" and stayed (2,596 lines where a fork of four algorithms keeps far less). A table that only parametrizes
tests loses its entries naming removed code, and the tests lose those values (pytest numbers them: ``alg0``,
``alg1``, so the fork's ids are other ones); a table read otherwise keeps every entry."""

from __future__ import annotations

import ast

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink
from slimfork.index.param_tables import param_tables
from slimfork.testsuite.cut import cut_units

ALGS = '''
import pytest

import pkg


ALGS = (
    pkg.hamming,
    pkg.mra,  # phonetic

    pkg.jaro,
)


@pytest.mark.parametrize("alg", ALGS)
def test_distance_of_equal_is_zero(alg):
    assert alg("ab", "ab") == 0


class TestNames:
    @pytest.mark.parametrize("alg", ALGS)
    def test_named(self, alg):
        assert alg.name
'''
FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "from .edit import *\nfrom .phonetic import *\n",
    "pkg/base.py": '''
        class Base:
            name = "base"

            def __call__(self, a, b):
                return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
        ''',
    "pkg/edit.py": '''
        from .base import Base


        class Hamming(Base):
            name = "hamming"


        class Jaro(Base):
            name = "jaro"


        hamming = Hamming()
        jaro = Jaro()
        ''',
    "pkg/phonetic.py": '''
        from .base import Base


        class MRA(Base):
            name = "mra"


        mra = MRA()
        ''',
    "tests/test_common.py": ALGS,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg:hamming"]
tests = ["tests"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_entries_of_removed_code_leave_the_table_and_its_tests_lose_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/phonetic.py").exists()
    assert "class Jaro" not in (result.out / "pkg/edit.py").read_text()
    test = (result.out / "tests/test_common.py").read_text()
    assert "pkg.hamming," in test and "pkg.mra" not in test and "pkg.jaro" not in test
    assert "def test_distance_of_equal_is_zero" in test and "def test_named" in test
    restored = [r for b in result.data["batches"]["batches"] for r in b.get("restored", [])]
    assert not restored, restored
    removed = {r["test"] for r in analyse(root / "slimfork.toml", jobs=1).stages.data["tests"]["removed"]}
    assert {"table ALGS[1]", "table ALGS[2]", "param test_distance_of_equal_is_zero alg=ALGS[1]",
            "param TestNames.test_named alg=ALGS[2]"} <= removed


def test_a_table_read_otherwise_keeps_its_entries(tmp_path):
    files = dict(FILES)
    files["tests/test_common.py"] = ALGS + "\n\ndef test_count():\n    assert len(ALGS) == 3\n"
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    assert "pkg/phonetic.py" not in analysis.plan.removed_paths()


def test_what_makes_a_table():
    tree = ast.parse(ALGS)
    table = param_tables(tree)["ALGS"]
    assert table.users == (("test_distance_of_equal_is_zero", "alg"), ("TestNames.test_named", "alg"))
    for extra in ("ALGS = ()\n", "for a in ALGS:\n    pass\n", "x = globals()['ALGS']\n",
                  "@pytest.mark.parametrize('alg', ALGS, ids=['a', 'b', 'c'])\ndef test_ids(alg):\n    pass\n"):
        assert "ALGS" not in param_tables(ast.parse(ALGS + extra)), extra
    assert not param_tables(ast.parse("ALGS = (f(), g)\n"))  # no test parametrized by it


def test_the_cut_keeps_a_tuple_a_tuple():
    source = b"ALGS = a, b\nONE = (a, b)\nTWO = [a, b]\n"
    out = cut_units(source, {"table ALGS[0]", "table ALGS[1]", "table ONE[1]", "table TWO[0]"})
    assert out == b"ALGS = ()\nONE = (a,)\nTWO = [b]\n"
