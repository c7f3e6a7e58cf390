"""A `tests` or `drop` glob that matches no file warns (a typo would otherwise keep every test, or drop nothing)."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import analyse

FILES = {"pkg/__init__.py": "", "pkg/cli.py": "print('hi')\n", "tests/test_cli.py": "def test_x():\n    pass\n"}


def test_empty_tests_and_drop_globs_warn(tmp_path):
    spec = 'source = "."\nroots = ["pkg.cli"]\ntests = ["tests", "test/**"]\ndrop = ["pkg/legacy"]\n'
    root = write_project(tmp_path, FILES, spec)
    warnings = analyse(root / "slimfork.toml").plan.warnings
    assert "tests[1] 'test/**' matches no file of the source (a typo?)" in warnings
    assert "drop[0] 'pkg/legacy' matches no file of the source (a typo?)" in warnings
    assert not any("tests[0]" in w for w in warnings)
