"""mutagen 1.47.0's ``TASFMixin.test_auto_bool`` is run by pytest as ``TASFTags1::test_auto_bool`` (``class
TASFTags1(TASF, TASFMixin)``). The plan removed the mixin's test of removed code, and the pytest check, seeing the
inheriting class's test not run in the fork, put the cut back. A test a class inherits from a class of its file is
gone with the base's."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "def kept():\n    return 1\n",
    "pkg/extra.py": "def gone():\n    return 2\n",
    "tests/test_mixin.py": '''
        from unittest import TestCase

        from pkg.core import kept


        class Base(TestCase):
            def test_base(self):
                assert kept() == 1


        class Mixin(object):
            def test_kept(self):
                assert kept() == 1

            def test_gone(self):
                from pkg.extra import gone
                assert gone() == 2


        class TestA(Base, Mixin):
            pass


        class TestB(Base, Mixin):
            def test_gone(self):
                assert kept() == 1
        ''',
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]
"""


def test_a_removed_mixin_test_is_gone_from_the_classes_that_inherit_it(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/extra.py").exists()
    test = (result.out / "tests/test_mixin.py").read_text()
    assert "pkg.extra" not in test and "def test_kept" in test
    restored = [r for b in result.data["batches"]["batches"] for r in b.get("restored", [])]
    assert not restored, restored
    inherited = {tuple(i) for i in result.analysis.stages.data["tests"]["inherited"]}
    assert inherited == {("tests/test_mixin.py", "TestA.test_gone")}  # TestB's own test_gone stays
