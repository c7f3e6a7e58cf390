"""Session 46: a dynamic import whose name starts with a class attribute (``f"{cls.base}.{name}"`` in a metaclass
``__getattr__``, ``self.base + "." + name``) where the class binds it from its own module's name (``base =
__package__ + ".backends"``). On main only a ``for p in self.ATTR`` loop read the attribute, and only literal
values counted: the import kept nothing (a "none literal" uncertain place) and ``backends/fast.py``, imported
otherwise only by code no root reaches, left the fork: ModuleNotFoundError, exit 0."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

METACLASS = """
import importlib


class _Meta(type):
    def __getattr__(cls, name):
        return importlib.import_module(f"{cls.base}.{name}")


class Backends(metaclass=_Meta):
    base = __package__ + ".backends"


def main():
    return Backends.fast.NAME
"""
METHOD = """
import importlib


class Loader:
    base = f"{__package__}.backends"

    def load(self, name):
        return importlib.import_module(self.base + "." + name)


def main():
    return Loader().load("fast").NAME
"""


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("app", [METACLASS, METHOD], ids=["metaclass", "method"])
def test_an_attribute_bound_from_the_own_name_is_a_start(tmp_path, app, mode):
    files = {"pkg/__init__.py": "", "pkg/app.py": app, "pkg/backends/__init__.py": "",
             "pkg/backends/fast.py": "NAME = 'fast'\n", "pkg/other.py": "VALUE = 1\n",
             "pkg/legacy.py": "import pkg.backends.fast\nimport pkg.other\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]
    assert not (fork / "pkg/other.py").exists() and not (fork / "pkg/legacy.py").exists()


INSTANCE = """
import importlib, os


class Loader:
    def __init__(self, base):
        self.base = base

    def load(self, name):
        return importlib.import_module(self.base + "." + name)


def main():
    return Loader(os.environ.get("BASE", "pkg.backends")).load("fast").NAME
"""


def test_an_attribute_no_class_binds_still_keeps_the_loose_modules(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/app.py": INSTANCE, "pkg/backends/__init__.py": "",
             "pkg/backends/fast.py": "NAME = 'fast'\n"}
    fork, done = shrink_and_run_main(tmp_path, files, "roots")
    assert done.stdout.strip() == "fast", done.stderr[-2000:]
