"""A module that hands itself to a call (``inspect.getmembers(sys.modules[__name__])``, ``dir(...)``) or binds
itself to a name (``_me = sys.modules[__name__]``, then ``getattr(_me, "cmd_" + kind)``) may reach any of its names,
so every one stays (the fork raised ``KeyError: 'b'`` when ``cmd_b`` was pruned). So does reading one named
attribute of it (``sys.modules[__name__].cmd_b``: the fork raised ``AttributeError``)."""

from __future__ import annotations

import pytest

from tests.symbols.forkrun import shrink_and_run_main

TABLE = "def table():\n    return {n[4:]: f for n, f in inspect.getmembers(sys.modules[__name__], inspect.isfunction)" \
        " if n.startswith('cmd_')}\n"
ALIAS = "_me = sys.modules[__name__]\n\n\ndef table():\n    return {k: getattr(_me, 'cmd_' + k) for k in 'ab'}\n"
NAMED = "def table():\n    return {'b': sys.modules[__name__].cmd_b}\n"


def _files(lookup: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": "",
        "pkg/cmds.py": "import inspect\nimport sys\n\n\ndef cmd_a():\n    return 'A'\n\n\ndef cmd_b():\n"
                       "    return 'B'\n\n\ndef other():\n    return 0\n\n\n" + lookup,
        "pkg/app.py": "from . import cmds\n\n\ndef main():\n    print(cmds.table()['b']())\n",
    }


@pytest.mark.parametrize("lookup", [TABLE, ALIAS, NAMED], ids=["getmembers", "alias", "named"])
def test_a_module_handing_itself_out_keeps_every_name(tmp_path, lookup):
    _, fork, run = shrink_and_run_main(tmp_path, _files(lookup), "roots")
    assert (run.returncode, run.stdout) == (0, "B\n"), run.stderr
    text = (fork / "pkg/cmds.py").read_text()
    assert "def cmd_a" in text and "def other" in text

