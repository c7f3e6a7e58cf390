"""A module ``__getattr__`` whose answers are names it writes out (jsonschema's deprecated names: ``if name ==
"ErrorTree": ... return ErrorTree``) keeps what it names and no other name of its module; one that may look any
name up (``globals()``, ``getattr``, ``sys.modules``, ``import_module``, ``__spec__``) keeps every name, as do
``__dir__`` and a star import of the module (pitfall 16, narrowed in session 36's depth round)."""

from __future__ import annotations

import ast

import pytest

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

LAZY = '''
import warnings


def __getattr__(name):
    if name == "Old":
        warnings.warn("Old is deprecated", DeprecationWarning, stacklevel=2)
        from lz.impl import New
        return New
    elif name == "table":
        return _TABLE
    raise AttributeError(f"module {__name__} has no attribute {name}")


_TABLE = {"a": 1}


def used():
    return 1


def _unused_private():
    return 2


def unused_public():
    return 3
'''

FILES = {
    "pyproject.toml": '[project]\nname = "lz"\nversion = "1.0"\n',
    "src/lz/__init__.py": "",
    "src/lz/api.py": LAZY,
    "src/lz/impl.py": "class New:\n    pass\n",
    "src/lz/app.py": "from lz import api\n\n\ndef main():\n    return api.used()\n",
}


def _defs(tmp_path, files, mode="roots"):
    spec = f'source = "."\npackages = ["lz"]\nroots = ["lz.app"]\n\n[symbols]\npublic_api = "{mode}"\n'
    stage = analyse(write_project(tmp_path, files, spec) / "slimfork.toml").stages.symbols
    return {n for p in stage.pruned if p.module == "lz.api" for n in p.names}


def test_a_getattr_that_answers_written_names_keeps_only_those(tmp_path):
    gone = _defs(tmp_path, FILES)
    assert {"_unused_private", "unused_public"} <= gone
    assert not gone & {"__getattr__", "_TABLE", "used", "warnings"}


@pytest.mark.parametrize("body", [
    "    return globals()['_' + name]\n",
    "    return getattr(_impl, name)\n",
    "    import sys\n    return sys.modules[__name__].__dict__[name]\n",
    "    import importlib\n    return importlib.import_module('.' + name, __package__)\n",
    "    from importlib import import_module\n    return import_module(name)\n",
    "    return vars()[name]\n",
    "    return __spec__.loader.load_module(name)\n",
    "    global _cache\n    return _cache\n",
])
def test_a_getattr_that_may_look_any_name_up_keeps_every_name(body):
    tree = ast.parse("def __getattr__(name):\n" + body + "\n\ndef _other():\n    pass\n")
    assert any("__getattr__" in why for why in symbol_summary(tree).keep_all)


def test_dir_still_keeps_every_name():
    tree = ast.parse("def __dir__():\n    return ['a']\n\n\ndef _other():\n    pass\n")
    assert any("__dir__" in why for why in symbol_summary(tree).keep_all)


def test_written_names_read_no_namespace():
    tree = ast.parse(LAZY)
    assert not symbol_summary(tree).keep_all


def test_the_names_it_answers_are_its_literals():
    from slimfork.index.module_getattr import getattr_answers
    node = ast.parse(LAZY).body[1]
    assert getattr_answers(node) == {"Old", "table"}
    node = ast.parse("def __getattr__(name):\n    t = {'a': 1, 'b': 2}\n    v = t.get(name)\n    if v is None:\n"
                     "        raise AttributeError(f'no {name}')\n    return v\n").body[0]
    assert getattr_answers(node) == {"a", "b"}
    node = ast.parse("def __getattr__(name):\n    if name == 'a':\n        return 1\n    raise AttributeError(name)\n").body[0]
    assert getattr_answers(node) == {"a"}
    for body in ("    return _TABLE[name]\n", "    return load(name)\n", "    name = 'x'\n    return name\n",
                 "    if name.startswith('x'):\n        return 1\n"):
        assert getattr_answers(ast.parse("def __getattr__(name):\n" + body).body[0]) is None


def test_a_test_of_a_pruned_name_goes_with_it(tmp_path):
    """jsonschema's test_types.py imports `extend` from jsonschema.validators, whose __getattr__ answers only
    deprecated names: once symbol pruning removes `extend`, the test goes too (a module __getattr__ that may
    answer any name keeps the test, and every name, as before)."""
    files = dict(FILES)
    files["tests/test_api.py"] = "from lz.api import unused_public, used\n\n\ndef test_unused():\n" \
                                 "    assert unused_public() == 3\n\n\ndef test_used():\n    assert used() == 1\n"
    files["tests/test_old.py"] = "from lz.api import Old\n\n\ndef test_old():\n    assert Old\n"
    spec = 'source = "."\npackages = ["lz"]\nroots = ["lz.app"]\n\n[symbols]\npublic_api = "roots"\n'
    stages = analyse(write_project(tmp_path, files, spec) / "slimfork.toml").stages
    gone = {(r.path, r.symbol) for r in stages.test_removals}
    assert ("tests/test_api.py", "test_unused") in gone and ("tests/test_api.py", "test_used") not in gone
    assert not any(path == "tests/test_old.py" for path, _ in gone)


MODULE_TABLE = '''
def __getattr__(name):
    importer = _importers.get(name)
    if importer is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importer()


def import_fast():
    from lz.impl import New
    return New


def import_slow():
    from lz.slow import Slow
    return Slow


_importers = {"Fast": import_fast}
'''


def test_a_module_level_table_only_looked_up_answers_its_keys(tmp_path):
    """dramatiq's ``results/backends/__init__.py``: ``_module_importers = {"RedisBackend": import_redis, ...}`` at
    module level, read only by ``__getattr__``'s ``.get(name)``: the function answers its keys, so a function the
    table no longer names (a registry cut its entry) goes, with the module only it imported."""
    files = {**FILES, "src/lz/api.py": MODULE_TABLE, "src/lz/slow.py": "class Slow:\n    pass\n",
             "src/lz/app.py": "from lz import api\n\n\ndef main():\n    return api.Fast\n"}
    assert not symbol_summary(ast.parse(MODULE_TABLE)).keep_all
    assert _defs(tmp_path, files) == {"import_slow"}


@pytest.mark.parametrize("also", ["_importers['Slow'] = import_slow\n", "_importers.update(x=import_slow)\n",
                                  "ALL = list(_importers)\n", "def f():\n    global _importers\n",
                                  "_importers = {}\n", "del _importers\n", "register(_importers)\n"])
def test_a_module_table_read_or_changed_otherwise_answers_anything(also):
    tree = ast.parse(MODULE_TABLE + also)
    assert any("__getattr__" in why for why in symbol_summary(tree).keep_all)
