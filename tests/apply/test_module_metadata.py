"""The pyproject a fork of a wheel gets installs its single-file modules: setuptools' ``packages.find`` alone
leaves ``six.py`` out, so the installed fork would not import its root."""

from __future__ import annotations

import tomllib

from slimfork.apply.metadata import fork_pyproject
from slimfork.source.layout import Distribution, SourceTree


def test_single_modules_are_listed_as_py_modules(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "six.py").write_text("")
    tree = SourceTree(tmp_path, tmp_path, ["pkg", "six"], Distribution("six", "1.0"), "wheel")
    text, _ = fork_pyproject(tree, {"pkg", "six"})
    setuptools = tomllib.loads(text)["tool"]["setuptools"]
    assert setuptools["py-modules"] == ["six"] and "pkg" in setuptools["packages"]["find"]["include"]
