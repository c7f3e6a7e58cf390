"""Test requirements read from tox.ini: a factor-conditional line (`trio: trio`) is a requirement too."""

from __future__ import annotations

from slimfork.corpus import testdeps


def test_tox_factor_conditional_deps_are_requirements(tmp_path):
    (tmp_path / "tox.ini").write_text("[testenv]\ndeps =\n    pytest\n    trio: trio\n    py38,py39: anyio>=3\n")
    assert testdeps.test_requirements(tmp_path) == (["anyio>=3", "pytest", "trio"], "tox.ini [testenv] deps")
