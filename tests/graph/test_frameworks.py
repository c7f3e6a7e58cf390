"""A Django app's submodules that Django imports by name (apps, models, admin, urls, migrations, templatetags,
management commands) come with the app package: a root naming the app (what INSTALLED_APPS names) removed them
all, "unreachable: no module imports it". A package that does not use Django keeps no such convention."""

from __future__ import annotations

from slimfork.api import analyse

DJANGO_APP = {
    "myapp/__init__.py": "",
    "myapp/apps.py": "from django.apps import AppConfig\n\nclass MyappConfig(AppConfig):\n    name = 'myapp'\n",
    "myapp/models.py": "from django.db import models\n\nclass Thing(models.Model):\n    pass\n",
    "myapp/admin.py": "from django.contrib import admin\nfrom .models import Thing\nadmin.site.register(Thing)\n",
    "myapp/urls.py": "urlpatterns = []\n",
    "myapp/helpers.py": "X = 1\n",
    "myapp/migrations/__init__.py": "",
    "myapp/migrations/0001_initial.py": "from django.db import migrations\n",
    "myapp/templatetags/__init__.py": "",
    "myapp/templatetags/mytags.py": "from django import template\nregister = template.Library()\n",
    "myapp/management/__init__.py": "",
    "myapp/management/commands/__init__.py": "",
    "myapp/management/commands/frob.py": "from django.core.management.base import BaseCommand\n",
    "plain/__init__.py": "",
    "plain/models.py": "X = 1\n",
    "plain/apps.py": "Y = 1\n",
}


def _plan(tmp_path, roots):
    root = tmp_path / "proj"
    for rel, text in DJANGO_APP.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "slimfork.toml").write_text(f'source = "."\nroots = {roots!r}\ntests = []\n'.replace("'", '"'))
    return analyse(root / "slimfork.toml").plan


def test_a_django_apps_conventional_modules_come_with_the_app(tmp_path):
    plan = _plan(tmp_path, ["myapp", "plain"])
    removed = {r.path for r in plan.removals} - {"slimfork.toml"}
    assert removed == {"myapp/helpers.py", "plain/models.py", "plain/apps.py"}
    kept = {k.path: k for k in plan.kept}
    assert "Django loads an installed app's 'management' by name" in kept["myapp/management/commands/frob.py"].reason
    assert "myapp/migrations/0001_initial.py" in kept and "myapp/urls.py" in kept
