"""A meta-path finder that loads an alias by a replaced name (six.moves style): ``import_module(spec.name.replace(
".moves.", "._real_"))`` for ``from pkg.moves import fast``. Before (session 44) the name counted as computed
entirely (loose modules only): ``_real_fast.py``, imported otherwise only by code no root reaches, left the fork,
exit 0. Now every module whose name holds the literal put in stays; ``"-"`` to ``"_"`` names nothing."""

from __future__ import annotations

import textwrap

import pytest

from slimfork.index.parse import summarize
from tests.soundness.soundkit import shrink_and_run_main

FINDER = '''
import importlib, importlib.abc, importlib.util, sys


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        return importlib.import_module(spec.name.replace(".moves.", "._real_"))

    def exec_module(self, module):
        pass


class _Moves(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname.startswith(__name__ + ".moves."):
            return importlib.util.spec_from_loader(fullname, _Loader())
        return None


sys.meta_path.insert(0, _Moves())
'''


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_the_aliased_module_stays(tmp_path, mode):
    files = {"pkg/__init__.py": FINDER, "pkg/moves/__init__.py": "", "pkg/_real_fast.py": "NAME = 'fast'\n",
             "pkg/app.py": "from pkg.moves import fast\n\n\ndef main():\n    return fast.NAME\n",
             "pkg/legacy.py": "import pkg._real_fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]


def test_a_replaced_separator_names_no_pattern():
    code = "import importlib\n\ndef load(name):\n    return importlib.import_module(name.replace('-', '_'))\n"
    assert [(d.target, d.prefix) for d in summarize(textwrap.dedent(code).encode()).dynamic_imports] == [(None, True)]
