"""An ``__all__`` entry no statement binds is no pruned name when the module answers it lazily (a module
``__getattr__``: ``from pkg.lazy import *`` asks it for ``Heavy``) or it names a submodule (``from pkg import *``
imports it). Before, under ``public_api = "roots"`` + ``package_api = false`` the entry left ``__all__`` and the
star import bound nothing: NameError with exit 0 (session 41)."""

from __future__ import annotations

import pytest

from tests.soundness.soundkit import shrink_and_run_main

SHAPES = {
    "lazy": {"pkg/lazy.py": "__all__ = ['Heavy']\n\n\ndef __getattr__(name):\n    if name == 'Heavy':\n"
                            "        from ._heavy import Heavy\n        return Heavy\n    raise AttributeError(name)\n",
             "pkg/_heavy.py": "class Heavy:\n    v = 'heavy'\n",
             "pkg/app.py": "from pkg.lazy import *\n\n\ndef main():\n    return Heavy.v  # noqa: F405\n"},
    "submodule": {"pkg/tools/__init__.py": "__all__ = ['heavy']\n",
                  "pkg/tools/heavy.py": "class Heavy:\n    v = 'heavy'\n",
                  "pkg/app.py": "from pkg.tools import *\n\n\ndef main():\n    return heavy.Heavy.v  # noqa: F405\n"},
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_an_all_entry_answered_lazily_stays(tmp_path, shape, mode):
    _fork, done = shrink_and_run_main(tmp_path, {"pkg/__init__.py": "", **SHAPES[shape]}, mode)
    assert done.stdout.strip() == "heavy", done.stderr[-2000:]
