"""A test package's ``__init__.py`` that loses its imports of removed code, every test of its own and every file below
it goes whole: apache-libcloud 3.9.1's EC2 slice kept ``libcloud/test/backup/__init__.py`` cut to its licence and a
``doctest.testmod()`` guard (+21 lines) after the backup tests below it and its ``TestCaseMixin`` went. A package
another kept test file imports, or with a test file below it that stays, stays as before."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

MIXIN = """
    from qpkg.backup import Target


    class TestCaseMixin:
        def test_targets(self):
            assert isinstance(self.driver.targets()[0], Target)
"""
BELOW = """
    from qpkg.backup import Driver
    from tests.backup import TestCaseMixin


    class TestDummy(TestCaseMixin):
        driver = Driver()
"""
KEPT_BELOW = "from qpkg.core import add\n\n\ndef test_add_below():\n    assert add(1, 1) == 2\n"


@pytest.mark.parametrize("kept_below", [False, True])
def test_an_emptied_test_package_goes_whole(tmp_path, kept_below):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/backup.py": "class Target:\n    pass\n\n\nclass Driver:\n    def targets(self):\n"
                          "        return [Target()]\n",
        "tests/__init__.py": "",
        "tests/test_core.py": KEPT_BELOW.replace("_below", ""),
        "tests/backup/__init__.py": MIXIN,
        "tests/backup/test_dummy.py": BELOW,
    }
    if kept_below:
        files["tests/backup/test_kept.py"] = KEPT_BELOW
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/backup/test_dummy.py", None) in gone
    assert (("tests/backup/__init__.py", None) in gone) is not kept_below
    assert ("tests/test_core.py", None) not in gone
