"""A parenthesized, one-name-a-line import of which the tests stage keeps one name (``from .util import (\\n a,\\n
b,\\n)`` without ``b``) loses its parentheses and must lose its trailing comma too: ``from .util import a,`` is a
SyntaxError, and the stage then left the whole test file as it was, so its tests of removed code kept that code
(ecdsa 0.19.0's ``test_pyecdsa.py`` held ``keys``, ``curves`` and ``ecdh`` for the root ``ecdsa.eddsa``)."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from slimfork.testsuite.cut import cut_units
from tests.mapping.registrykit import write_project

SOURCE = b"from .util import (\n    a,\n    b,\n    c,\n)\n\n\ndef test_a():\n    a()\n"


def test_one_name_left_loses_the_comma():
    for gone in ({"import b", "import c"}, {"import a", "import c"}):
        ast.parse(cut_units(SOURCE, gone))


def test_the_file_is_cut_and_its_other_tests_stay(tmp_path):
    files = {
        "pk/__init__.py": "",
        "pk/core.py": "from pk.util import a\n\n\ndef run():\n    return a()\n",
        "pk/util.py": "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
        "tests/__init__.py": "",
        "tests/test_util.py": "from pk.util import (\n    a,\n    b,\n)\n\n\ndef test_a():\n    assert a() == 1\n\n\n"
                              "def test_b():\n    assert b() == 2\n",
    }
    spec = 'source = "."\nroots = ["pk.core"]\ntests = ["tests"]\n[symbols]\npublic_api = "roots"\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    assert not any("tests not cut" in w for w in analysis.stages.data["tests"]["warnings"])
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_util.py", "test_b") in gone and ("tests/test_util.py", "test_a") not in gone
