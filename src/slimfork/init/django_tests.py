"""A Django reusable app's tests run under Django's own runner (``manage.py test``, ``django-admin test
--settings=...``), which configures the settings first; pytest imports them unconfigured (django-js-asset 5.0.0:
"Requested setting DATABASES, but settings are not configured", 0 of 46 tests; django-appconf 1.2.0). pytest-django
with ``--ds`` runs them: the draft suggests both where the tests import Django, the pytest configuration names no
settings module, and the tree has one (a ``manage.py``'s ``DJANGO_SETTINGS_MODULE``, else a tests module that sets
``INSTALLED_APPS``). A ``manage.py`` counts in a tests folder or at the top (another is a demo project's)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from slimfork.init.project import Project
from slimfork.testsuite.pytest_config import read_pytest_config

_MANAGE = re.compile(r"""DJANGO_SETTINGS_MODULE['"]\s*,\s*['"]([\w.]+)['"]""")


@dataclass(frozen=True)
class DjangoSettings:
    module: str  # the settings module, as pytest-django's --ds takes it
    folder: str  # a tests folder's manage.py's folder, which the selection names (pytest-django's sys.path), or ""
    where: str  # what named it: tests/manage.py:8, tests/test_settings.py


def django_settings(project: Project) -> DjangoSettings | None:
    tests = project.tests
    files = [rel for rel in project.index.files if any(rel.startswith(t.rstrip("/") + "/") for t in tests)]
    if not files or not any(_imports_django(project.parse(rel)) for rel in files):
        return None
    config = read_pytest_config(project.tree.root)
    if "pytest-django" in config.needs:  # DJANGO_SETTINGS_MODULE or --ds in the configuration
        return None
    for rel in sorted((r for r in project.index.files if r.rsplit("/", 1)[-1] == "manage.py"
                       and (r in files or "/" not in r)), key=lambda r: (r not in files, r.count("/"), r)):
        text = (project.tree.root / rel).read_text(encoding="utf-8", errors="replace")
        if match := _MANAGE.search(text):
            line = text.count("\n", 0, match.start()) + 1
            return DjangoSettings(match.group(1), rel.rpartition("/")[0], f"{rel}:{line}")
    for rel in sorted(files):
        if rel.endswith(".py") and _sets_installed_apps(project.parse(rel)):
            return DjangoSettings(rel.removesuffix(".py").removesuffix("/__init__").replace("/", "."), "", rel)
    return None


def _imports_django(tree: ast.Module | None) -> bool:
    for node in ast.walk(tree or ast.Module(body=[], type_ignores=[])):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "django" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "django":
            return True
    return False


def _sets_installed_apps(tree: ast.Module | None) -> bool:
    return any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "INSTALLED_APPS"
                                                    for t in node.targets) for node in (tree.body if tree else []))
