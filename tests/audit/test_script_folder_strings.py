"""A dotted string in a script names a module relative to the script's own folder, first on sys.path when it
runs: django-js-asset 5.0.0's ``tests/manage.py`` sets ``DJANGO_SETTINGS_MODULE`` to ``"testapp.settings"``, the
file ``tests/testapp/settings.py``, which the audit called unreached (60)."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": "[project]\nname = 'app'\nversion = '1'\n",
    "app/__init__.py": "X = 1\n",
    "tests/manage.py": "import os\nimport sys\n\nif __name__ == '__main__':\n"
                       "    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'testapp.settings')\n",
    "tests/testapp/__init__.py": "",
    "tests/testapp/settings.py": "INSTALLED_APPS = ['testapp']\n",
    "tests/testapp/test_x.py": "import app\n\n\ndef test_x():\n    assert app.X\n",
}


def test_a_scripts_string_names_a_module_beside_it(tmp_path):
    result = run_audit(open_tree(write_project(tmp_path, FILES, "")))[0]
    found = {f.path: f for f in result.findings}
    settings = found.get("tests/testapp/settings.py")
    assert settings is None or settings.confidence <= 30 and "tests/manage.py" in settings.reason, settings
