"""A Django reusable app's tests run under Django's own runner, which configures the settings first: pytest
imported them unconfigured (django-js-asset 5.0.0, settings named by ``tests/manage.py``: "Requested setting
DATABASES, but settings are not configured", 0 of 46 tests; django-appconf 1.2.0, ``tests/test_settings.py`` and
its tests in ``tests/tests.py``, which pytest's default names miss: 0 of 0). The draft suggests pytest-django and
its ``--ds`` in one ``[checks.pytest]`` table."""

from __future__ import annotations

import json
import re
import tomllib

from slimfork.cli import main

APP = {"app/__init__.py": "X = 1\n", "setup.cfg": "[metadata]\nname = app\n[options]\ninstall_requires = django\n"}


def _draft(tmp_path, files, capsys):
    for rel, text in {**APP, **files}.items():
        (tmp_path / "p" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "p" / rel).write_text(text)
    draft = tmp_path / "spec.toml"
    assert main(["init", str(tmp_path / "p"), "--out", str(draft), "--json"]) == 0
    requirements = json.loads(capsys.readouterr().out)["verify"]["requirements"]
    text = draft.read_text()
    accepted = re.sub(r"^# (\[checks\.pytest\]|\[verify\])\n# (.*)\n# (tests|args)", r"\1\n\2\n\3", text,
                      flags=re.M)
    accepted = re.sub(r"^# (\[checks\.pytest\]|\[verify\])\n# ", r"\1\n", accepted, flags=re.M)
    return requirements, text, tomllib.loads(accepted)


def test_a_manage_py_names_the_settings_and_its_folder(tmp_path, capsys):
    requirements, text, accepted = _draft(tmp_path, {
        "tests/manage.py": 'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "testapp.settings")\n',
        "tests/testapp/__init__.py": "", "tests/testapp/settings.py": "INSTALLED_APPS = ['testapp']\n",
        "tests/testapp/test_x.py": "from django.test import TestCase\n\nclass T(TestCase):\n    def test_x(self):\n"
                                   "        pass\n"}, capsys)
    assert requirements == ["django", "pytest", "pytest-django"]
    assert "(tests/manage.py:2)" in text
    assert accepted["checks"]["pytest"] == {"tests": ["tests"], "args": ["--ds=testapp.settings"]}


def test_a_settings_module_in_the_tests_and_tests_py_share_one_table(tmp_path, capsys):
    requirements, text, accepted = _draft(tmp_path, {
        "tests/__init__.py": "", "tests/test_settings.py": "SITE_ID = 1\nINSTALLED_APPS = ['tests']\n",
        "tests/tests.py": "from django.test import TestCase\n\nclass T(TestCase):\n    def test_x(self):\n"
                          "        pass\n"}, capsys)
    assert "pytest-django" in requirements
    assert accepted["checks"]["pytest"]["args"] == ["-o", "python_files=*tests.py", "--ds=tests.test_settings"]


def test_settings_the_configuration_names_need_no_suggestion(tmp_path, capsys):
    requirements, text, accepted = _draft(tmp_path, {
        "pytest.ini": "[pytest]\nDJANGO_SETTINGS_MODULE = tests.settings\n",
        "tests/__init__.py": "", "tests/settings.py": "INSTALLED_APPS = ['tests']\n",
        "tests/test_x.py": "import django\n\ndef test_x():\n    pass\n"}, capsys)
    assert "pytest-django" in requirements and "checks" not in accepted
