"""``slimfork audit --spec SPEC`` keeps the spec's tests as roots of their own (as ``audit PATH`` keeps a tree's
tests): django-model-utils', keyring's and iniconfig's drafted specs had their whole tests folder reported as an
unused folder at 70. What only the tests reach is still reported, as test-only; ``tests = []`` makes none a root;
a ``conftest.py`` above the tests is pytest's and counts as a test."""

from __future__ import annotations

import json

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "from . import core\n",
    "pkg/core.py": "def add(a, b):\n    return a + b\n",
    "pkg/helpers.py": "def only_tests():\n    return 1\n",
    "conftest.py": "import pytest\n",
    "tests/__init__.py": "",
    "tests/support.py": "VALUE = 3\n",
    "tests/test_core.py": "from pkg.core import add\nfrom pkg.helpers import only_tests\nfrom tests.support import VALUE\n\n"
                          "def test_add():\n    assert add(1, 2) == VALUE\n",
}


def _audit(tmp_path, capsys, tests_line):
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (tmp_path / "spec.toml").write_text(f'source = "proj"\nroots = ["pkg"]\n{tests_line}')
    main(["audit", "--spec", str(tmp_path / "spec.toml"), "--format", "json", "--only", "unused-file"])
    return {f["path"]: f for f in json.loads(capsys.readouterr().out)["findings"]}


def test_the_specs_tests_are_no_unused_files(tmp_path, capsys):
    found = _audit(tmp_path, capsys, 'tests = ["tests"]\n')
    assert not [p for p in found if p.startswith("tests") or p == "conftest.py"]
    assert "pkg/helpers.py" in found  # only the tests reach it: reported as such
    assert set(found) == {"pkg/helpers.py"}


def test_no_tests_in_the_spec_makes_none_a_root(tmp_path, capsys):
    found = _audit(tmp_path, capsys, "tests = []\n")
    assert any(p.startswith("tests") for p in found)
