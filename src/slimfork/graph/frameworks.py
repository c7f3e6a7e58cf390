"""Submodules a framework imports by name from a package it is given, never named in the package itself.

Django: an installed app (a package whose modules import ``django``) has its ``apps`` and ``models`` imported when
the app registry loads, ``admin`` by the admin's autodiscovery, ``migrations`` (and every migration in it) by the
migration loader, ``templatetags`` and ``management.commands`` by directory scans, and ``urls`` by the
``include("app.urls")`` a project's URLconf writes. Nothing in the app imports them, so a narrowed root (``app``
itself, or one of its modules) left them unreached: a fork whose app had no models or migrations. They come with
the app package (unknown means keep: the settings that install the app live outside the source)."""

from __future__ import annotations

from collections.abc import Iterator

from slimfork.graph.modules import ModuleMap
from slimfork.index.build import Index

DJANGO_CHILDREN = ("apps", "models", "admin", "urls")
DJANGO_TREES = ("migrations", "templatetags", "management")  # each with everything below it


def framework_edges(mm: ModuleMap, index: Index) -> Iterator[tuple[str, str, str]]:
    """(package, module, why) for each module a framework imports from a package by convention."""
    uses_django: dict[str, bool] = {}
    for name, info in mm.modules.items():
        if info.path and info.path in index.files and any(
                (imp.module or "").split(".")[0] == "django" and not imp.level for imp in index.files[info.path].imports):
            uses_django[name.split(".")[0]] = True
    for name, info in mm.modules.items():
        if not info.is_package or not uses_django.get(name.split(".")[0]):
            continue
        children = set(mm.children.get(name, ()))
        if not ({f"{name}.apps", f"{name}.models", f"{name}.migrations"} & children):
            continue  # no Django app
        for child in DJANGO_CHILDREN:
            if f"{name}.{child}" in children:
                yield name, f"{name}.{child}", f"Django imports an installed app's '{child}' by name"
        for tree in DJANGO_TREES:
            if f"{name}.{tree}" in children:
                for module in [f"{name}.{tree}", *mm.descendants(f"{name}.{tree}")]:
                    yield name, module, f"Django loads an installed app's '{tree}' by name"
