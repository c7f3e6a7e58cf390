"""Session 47 (nanotron ``f70230ef^``, "remove fp8 parameters"): ``tests/fp8/_test_fp8_parameter.py`` defines
``test_*`` functions, so it was a test another runner collects, a root, never reported; the clean-up deleted it.
Its leading underscore hides it from pytest's and unittest's default names: a test switched off, reported (60)
when nothing imports it. A ``python_files`` setting of the project's pytest configuration keeps it a test."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

TEST = "from pk import param\n\n\ndef test_param():\n    assert param(1) == 1\n"
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "def param(x):\n    return x\n",
    "tests/test_param.py": TEST,
    "tests/_test_param_old.py": TEST,
    "tests/param_check.py": TEST,
}


def _found(tmp_path, files: dict[str, str]) -> dict:
    result, _table = run_audit(open_tree(write_project(tmp_path, files, "")))
    return {f.subject: f for f in result.findings if f.kind == "unused-file"}


def test_an_underscored_test_file_is_switched_off(tmp_path):
    found = _found(tmp_path, FILES)
    assert found["tests/_test_param_old.py"].confidence == 60
    assert "switched off" in found["tests/_test_param_old.py"].reason
    assert "tests/param_check.py" not in found and "tests/test_param.py" not in found


def test_a_python_files_setting_keeps_it_a_test(tmp_path):
    found = _found(tmp_path, {**FILES, "pytest.ini": "[pytest]\npython_files = _test_*.py test_*.py\n"})
    assert "tests/_test_param_old.py" not in found
