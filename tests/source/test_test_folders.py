"""mkdocs 1.6.1 (session 34) names its tests ``*_tests.py`` (unittest's ``-p '*tests.py'``) in ``mkdocs/tests/``: the
folder held no file the finder took for a test, so with no ``tests`` key its 24 test modules were library modules
no root reaches and left the fork, the tests of the root's own code too. ``*_tests.py`` is a test file now."""

from __future__ import annotations

from slimfork.source.test_folders import find_test_folders, is_test_file


def test_unittest_style_names_are_test_files():
    assert is_test_file("mkdocs/tests/build_tests.py") and is_test_file("tests/test_x.py")
    assert not is_test_file("mkdocs/tests/base.py") and not is_test_file("pkg/contests.py")
    paths = ["mkdocs/__init__.py", "mkdocs/tests/__init__.py", "mkdocs/tests/base.py",
             "mkdocs/tests/config/config_tests.py", "mkdocs/theme.py"]
    assert find_test_folders(paths) == ["mkdocs/tests"]
