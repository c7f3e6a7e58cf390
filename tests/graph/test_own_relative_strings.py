"""Relative module names handed to a call beside the module's own name: ``__getattr__ = make_getattr(__name__,
{"Heavy": "._heavy"})``, a lazy-attribute factory of another module that imports ``table[name]`` against the
package it is given. The names resolve against the caller's module. Before, the factory's import was of a name
computed entirely at run time, and ``_heavy`` (imported otherwise only by code no root reaches, so not loose) left
the fork with exit 0: ``from pkg import Heavy`` raised ImportError (session 41, both `[symbols]` modes)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

LAZY = ("import importlib\n\n\ndef make_getattr(package, table):\n    def __getattr__(name):\n"
        "        if name not in table:\n            raise AttributeError(name)\n"
        "        return getattr(importlib.import_module(table[name], package), name)\n    return __getattr__\n")
INITS = {
    "inline": "from ._lazy import make_getattr\n\n__getattr__ = make_getattr(__name__, {'Heavy': '._heavy'})\n",
    "table": "from ._lazy import make_getattr\n\n_TABLE = {'Heavy': '._heavy'}\n"
             "__getattr__ = make_getattr(package=__package__, table=_TABLE)\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("init", sorted(INITS))
def test_relative_names_beside_the_own_name_are_modules(tmp_path, init, mode):
    files = {"pkg/__init__.py": INITS[init], "pkg/_lazy.py": LAZY, "pkg/_heavy.py": "class Heavy:\n    v = 'heavy'\n",
             "pkg/legacy.py": "from pkg._heavy import Heavy\nALL = Heavy\n",
             "pkg/app.py": "def main():\n    from pkg import Heavy\n    return Heavy.v\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "heavy", done.stderr[-2000:]
    assert not (fork / "pkg/legacy.py").exists()


RUNNERS = {
    "pool_apply": "import importlib\nfrom concurrent.futures import ThreadPoolExecutor\n\n\n"
                  "def _value(name, package):\n    return importlib.import_module(name, package).Heavy.v\n\n\n"
                  "def main():\n    with ThreadPoolExecutor(1) as ex:\n"
                  "        return ex.submit(lambda a: _value(*a), ('._heavy', __package__)).result()\n",
    "initargs": "import importlib, sys\nimport threading\n\n\ndef main():\n"
                "    t = threading.Thread(target=importlib.import_module, kwargs={}, args=['._heavy', __package__])\n"
                "    t.start(); t.join()\n    return sys.modules[__package__ + '._heavy'].Heavy.v\n",
    "starmap": "import importlib, itertools\n\n\ndef main():\n    return [m.Heavy.v for m in itertools.starmap("
               "importlib.import_module, [('._heavy', __package__)])][0]\n",
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("runner", sorted(RUNNERS))
def test_relative_names_beside_the_own_name_in_a_tuple_argument(tmp_path, runner, mode):
    """Session 43: ``pool.apply(_value, (".plugins.alpha", __package__))`` (a spawn pool's arguments) kept nothing:
    the tuple's items were not read as the call's arguments."""
    files = {"pkg/__init__.py": "", "pkg/_heavy.py": "class Heavy:\n    v = 'heavy'\n",
             "pkg/legacy.py": "from pkg._heavy import Heavy\nALL = Heavy\n", "pkg/app.py": RUNNERS[runner],
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "heavy", done.stderr[-2000:]
