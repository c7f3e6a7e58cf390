"""A shared base class of the tests (pyasn1's ``tests/base.py``: ``class BaseTestCase(unittest.TestCase)`` whose
``setUp`` calls a module the fork removes) leaves the fork: the test classes of other files that derive from it go
with it, so no file of the fork's suite is left importing a name its helper lost (session 30's adversarial round 2:
pyasn1's static fork failed to collect 7 test files with ``cannot import name 'BaseTestCase'``). That holds where
the module cannot stay (here the spec drops it); a module no root reaches stays as test support instead, and the
tests with it (session 32, ``test_kept_test_needs.py``)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

BASE = """
    import unittest

    from qpkg import debug


    class BaseTestCase(unittest.TestCase):

        def setUp(self):
            debug.set_logger(print)

        def tearDown(self):
            debug.set_logger(None)
"""

CORE = """
    import sys
    import unittest

    from tests.base import BaseTestCase

    from qpkg import core


    class AddTestCase(BaseTestCase):
        def testAdd(self):
            assert core.add(1, 2) == 3


    class SubAddTestCase(AddTestCase):
        def testAddMore(self):
            assert core.add(1, 3) == 4


    class PlainTestCase(unittest.TestCase):
        def testAdd(self):
            assert core.add(2, 2) == 4


    suite = unittest.TestLoader().loadTestsFromModule(sys.modules[__name__])
"""


MAIN = """
    import unittest

    suite = unittest.TestLoader().loadTestsFromNames(["{}"])
"""


def _files():
    return {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/debug.py": "LOGGER = None\n\n\ndef set_logger(f):\n    global LOGGER\n    LOGGER = f\n",
        "tests/__init__.py": "",
        "tests/base.py": BASE,
        "tests/type/__init__.py": "",
        "tests/type/test_core.py": CORE,
        "tests/__main__.py": MAIN.format("tests.type.__main__.suite"),
        "tests/type/__main__.py": MAIN.format("tests.type.test_core.suite"),
    }


def test_a_test_class_deriving_from_a_removed_base_class_goes(tmp_path):
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\ndrop = ["qpkg/debug.py"]\n'
    analysis = analyse(write_project(tmp_path, _files(), spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    print(gone)
    assert ("tests/type/test_core.py", "AddTestCase") in gone
    assert "tests.base.BaseTestCase, which goes from the tests" in gone[("tests/type/test_core.py", "AddTestCase")]
    assert ("tests/type/test_core.py", "SubAddTestCase") in gone  # a subclass of a class that goes, else a NameError
    assert ("tests/type/test_core.py", "PlainTestCase") not in gone


def test_a_module_the_base_class_needs_stays_as_test_support(tmp_path):
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, _files(), spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert not any(path == "tests/type/test_core.py" for path, _ in gone), gone
    assert "qpkg.debug" in analysis.stages.data["tests"]["support"]
