"""Imports by computed name through another name of the import function, and submodules in a computed
``__import__``'s fromlist. Each shape removed the module it loads with exit 0 (lead's adversarial round,
session 36): ``functools.partial(importlib.import_module, package=__package__)`` and the aliases were not read as
imports at all; ``__import__(f"{__package__}.sub", fromlist=["x"])`` kept ``sub`` but not ``sub.x``; a ``partial``
called or mapped where it is made was no import either (session 45)."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

BACKENDS = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "N = 1\n",
            "pkg/backends/slow.py": "N = 2\n"}
CALLS = {
    "partial": ("import functools, importlib\nload = functools.partial(importlib.import_module, package=__package__)",
                "load('.backends.' + kind)"),
    "from_as": ("from importlib import import_module as im", "im('.backends.' + kind, __package__)"),
    "assigned": ("import importlib\n_imp = importlib.import_module", "_imp(f'.backends.{kind}', package=__package__)"),
    "dunder": ("imp = __import__", "imp('backends.' + kind, globals(), None, ['N'], 1)"),
    # session 45: a partial called or mapped where it is made
    "partial_called": ("import functools, importlib",
                       "functools.partial(importlib.import_module, package=__package__)('.backends.' + kind)"),
    "partial_mapped": ("import functools, importlib", "list(map(functools.partial(importlib.import_module, "
                                                      "package=__package__), ['.backends.' + kind]))[0]"),
    # session 46: map over a second iterable, the package repeated
    "map_two": ("import importlib", "list(map(importlib.import_module, ['.backends.' + kind], [__package__] * 1))[0]"),
}


def _kept(tmp_path, files) -> set[str]:
    root = write_project(tmp_path, files, 'source = "."\nroots = ["pkg.app"]\n\n[symbols]\npublic_api = "roots"\n'
                                          'package_api = false\n')
    return {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}


@pytest.mark.parametrize("shape", sorted(CALLS))
def test_an_import_through_another_name_keeps_what_it_may_load(tmp_path, shape):
    header, call = CALLS[shape]
    app = f"import json\n{header}\n\n\ndef main():\n    kind = json.loads('\"slow\"')\n    return {call}.N\n"
    kept = _kept(tmp_path, {**BACKENDS, "pkg/app.py": app})
    assert {"pkg/backends/fast.py", "pkg/backends/slow.py"} <= kept


def test_a_computed_dunder_import_keeps_the_submodules_of_its_fromlist(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/x.py": "N = 1\n", "pkg/sub/y.py": "N = 2\n",
             "pkg/app.py": "def main():\n    return __import__(f'{__package__}.sub', fromlist=['x']).x.N\n"}
    kept = _kept(tmp_path, files)
    assert "pkg/sub/x.py" in kept and "pkg/sub/y.py" not in kept
