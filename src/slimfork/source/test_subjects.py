"""A test file named after a module is that module's tests (``tests/test_asf.py`` for ``mutagen.asf`` and
``mutagen.asf._objects``, ``tests/test_command.py`` for ``deepdiff.commands``): when the fork removes the module,
the file tests removed code, so it is no reason to keep the module as test support for the tests of kept code the
same file holds (they go with it, or lose their import of it). A module a test file imports without naming it
(``from pkg.testing import make_fake``) is still its support."""

from __future__ import annotations

import posixpath
import re

_STEM = re.compile(r"^tests?_(?P<a>.+)$|^(?P<b>.+?)_?tests?$")


def tests_subject(test_path: str) -> str | None:
    """The module name a test file is named after, normalised (``test__riff.py`` -> ``riff``), or None."""
    stem = posixpath.basename(test_path).removesuffix(".py").lower()
    match = _STEM.match(stem) if stem != "conftest" else None
    subject = _normal(match.group("a") or match.group("b")) if match else ""
    return subject if len(subject) > 1 else None


def names_its_subject(test_path: str, module: str) -> bool:
    """Whether ``module`` (a package's module or one below it) is what ``test_path`` is named after, alone or first
    (``test_registry_europe.py`` tests ``workalendar.registry`` on Europe's calendars), or what a folder above it
    is (mimesis' ``tests/test_plugins/test_factory/test_field_handlers.py`` tests ``mimesis.plugins.factory``).
    The top package's name does not count (``test_deepdiff.py`` tests ``deepdiff``, not each of its modules)."""
    folders = test_path.split("/")[:-1]
    subjects = [s for s in [tests_subject(test_path)] + [tests_subject(f + ".py") for f in folders] if s]
    parts = [_normal(part) for part in module.split(".")]
    return any(subject == part or subject.startswith(part + "_")  # test_registry_europe.py
               for subject in subjects for part in (parts[1:] or parts) if len(part) > 1)


def _normal(name: str) -> str:
    name = name.strip("_").lower()
    return name[:-1] if len(name) > 3 and name.endswith("s") and not name.endswith("ss") else name
