"""zope.deprecation 5.0 keeps its tests in ``src/zope/deprecation/tests.py``: the draft said "no tests folder
found" and nothing else, so the pytest check verified no test. It now suggests the test modules inside the
packages (not a ``testing.py`` of helpers for the users' tests)."""

from __future__ import annotations

import json
import re

from slimfork.cli import main

FILES = {
    "src/pkg/__init__.py": "def f():\n    return 1\n",
    "src/pkg/testing.py": "def helper():\n    return 2\n",
    "src/pkg/tests.py": "import unittest\nimport pkg\n\nclass T(unittest.TestCase):\n"
                        "    def test_f(self):\n        self.assertEqual(pkg.f(), 1)\n",
    "src/pkg/sub/__init__.py": "",
    "src/pkg/sub/test_sub.py": "def test_sub():\n    pass\n",
}


def test_the_draft_suggests_test_modules_inside_the_packages(tmp_path, capsys):
    for rel, text in FILES.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(tmp_path / "p"), "--out", str(draft)]) == 0
    text = draft.read_text()
    assert '# tests = ["src/pkg/sub/test_sub.py", "src/pkg/tests.py"]' in text
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", text, flags=re.M))
    capsys.readouterr()
    assert main(["plan", str(accepted), "--json"]) == 0
    json.loads(capsys.readouterr().out)


def test_no_test_module_no_suggestion(tmp_path):
    (tmp_path / "p" / "pkg").mkdir(parents=True)
    (tmp_path / "p" / "pkg" / "__init__.py").write_text("X = 1\n")
    (tmp_path / "p" / "pkg" / "testing.py").write_text("X = 1\n")
    assert main(["init", str(tmp_path / "p"), "--out", str(tmp_path / "s.toml")]) == 0
    assert "no tests folder found (tests" in (tmp_path / "s.toml").read_text()


def test_the_suggested_test_modules_get_pytest_in_verify(tmp_path, capsys):
    """zope.deprecation 5.0's accepted draft ran its tests.py in a venv without pytest ("No module named pytest")."""
    for rel, text in {**FILES, "setup.py": "from setuptools import setup\nsetup(install_requires=['six'])\n"}.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    assert main(["init", str(tmp_path / "p"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verify"]["requirements"] == ["six", "pytest"]
