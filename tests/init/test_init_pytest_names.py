"""phonenumbers 9.0.43 names its test files ``phonenumbertest.py``, which none of pytest's default names
(``test_*.py``, ``*_test.py``) match: the draft's pytest check collected no test. The draft now suggests the
``python_files`` option that collects them, and the accepted draft runs them in the original."""

from __future__ import annotations

import re
import tomllib

from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "def f():\n    return 1\n",
    "tests/__init__.py": "",
    "tests/coretest.py": "import unittest\nimport pkg\n\nclass CoreTest(unittest.TestCase):\n"
                         "    def test_f(self):\n        self.assertEqual(pkg.f(), 1)\n",
}


def _draft(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(tmp_path / "p"), "--out", str(draft)]) == 0
    return draft.read_text()


def test_test_files_pytest_does_not_collect_get_an_option(tmp_path):
    text = _draft(tmp_path, FILES)
    assert '# args = ["-o", "python_files=*test.py"]' in text
    accepted = tomllib.loads(re.sub(r"^# (\[checks|args)", r"\1", text, flags=re.M))
    assert accepted["checks"]["pytest"]["args"] == ["-o", "python_files=*test.py"]


def test_default_names_or_a_configured_option_get_none(tmp_path):
    named = {**FILES, "tests/test_core.py": FILES["tests/coretest.py"]}
    assert "python_files" not in _draft(tmp_path / "a", named)
    configured = {**FILES, "setup.cfg": "[tool:pytest]\npython_files = *test.py\n"}
    assert "python_files" not in _draft(tmp_path / "b", configured)
