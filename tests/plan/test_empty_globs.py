"""A `tests`, `drop` or `keep` glob that matches no file is a stale entry (a typo, or a folder a new release moved:
it would otherwise keep every test, or drop nothing): an error with the closest folder, a warning when allowed."""

from __future__ import annotations

import pytest

from tests.mapping.registrykit import write_project

from slimfork.api import analyse
from slimfork.errors import StaleError

FILES = {"pkg/__init__.py": "", "pkg/cli.py": "print('hi')\n", "pkg/legacy_api/__init__.py": "",
         "tests/test_cli.py": "def test_x():\n    pass\n"}


def test_empty_tests_drop_and_keep_globs_are_stale(tmp_path):
    spec = ('source = "."\nroots = ["pkg.cli"]\ntests = ["tests", "test/**"]\ndrop = ["pkg/legacy"]\n'
            'keep = ["pkg/data/*.json"]\n')
    root = write_project(tmp_path, FILES, spec)
    with pytest.raises(StaleError) as info:
        analyse(root / "slimfork.toml")
    found = {e.key: (e.message, e.suggestion) for e in info.value.entries}
    assert found == {"tests[1]": ("'test/**' matches no file of the source", "tests"),
                     "drop[0]": ("'pkg/legacy' matches no file of the source", "pkg/legacy_api"),
                     "keep[0]": ("'pkg/data/*.json' matches no file of the source", None)}
    warnings = analyse(root / "slimfork.toml", allow_stale=True).plan.warnings
    assert "stale: drop[0]: 'pkg/legacy' matches no file of the source; hint: did you mean pkg/legacy_api?" in warnings
    assert not any("tests[0]" in w for w in warnings)


def test_the_hint_never_names_build_output(tmp_path):
    """``drop = ["typing_inspect/nope/**"]`` in typing_inspect 0.9.0's sdist (a single module) offered
    ``typing_inspect.egg-info``: what a build or an import wrote (``*.egg-info``, ``*.dist-info``, ``__pycache__``,
    the top-level ``build/`` and ``dist/``) is never a hint."""
    files = {"typing_inspect.py": "X = 1\n", "typing_inspect.egg-info/PKG-INFO": "Name: typing_inspect\n",
             "tests/test_mod.py": "import typing_inspect\n", "build/lib/typing_inspect.py": "X = 1\n",
             "__pycache__/typing_inspect.cpython-311.pyc": ""}
    spec = ('source = "."\nroots = ["typing_inspect"]\ndrop = ["typing_inspect/nope/**", "buil/lib/typing_inspect.py", '
            '"__pycache__/typing_inspect.pyc"]\n')
    with pytest.raises(StaleError) as info:
        analyse(write_project(tmp_path, files, spec) / "slimfork.toml")
    assert [e.key for e in info.value.entries] == ["drop[0]", "drop[1]", "drop[2]"]
    assert [e.suggestion for e in info.value.entries] == [None, "typing_inspect.py", "typing_inspect.py"]
