"""A dict registry in a module that keeps every name (it calls ``exec()`` or ``globals()``): cutting an entry frees
the entry, not the class it names, as ``[symbols]`` keeps every definition of such a module. bottle 0.13.4's
draft promised 291 lines for ``server_names`` (the server classes); the fork with that registry accepted freed 18
(``bottle.py`` calls ``exec()``)."""

from __future__ import annotations

import json
import textwrap

from slimfork.cli import main

SERVERS = """
    class Alpha:
        def run(self):
            x = 1
            return x


    class Beta:
        def run(self):
            return 2


    SERVERS = {
        "alpha": Alpha,
        "beta": Beta,
    }
    """


def _init(tmp_path, capsys, text: str) -> tuple[dict, str]:
    (tmp_path / "p" / "pkg").mkdir(parents=True)
    (tmp_path / "p" / "pkg" / "__init__.py").write_text("")
    (tmp_path / "p" / "pkg" / "servers.py").write_text(textwrap.dedent(text).lstrip())
    assert main(["init", str(tmp_path / "p"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["init", str(tmp_path / "p")]) == 0
    return {r["package"]: r for r in data["registries"]}, capsys.readouterr().out


def test_the_classes_count_where_the_module_keeps_only_what_is_used(tmp_path, capsys):
    regs, _ = _init(tmp_path, capsys, SERVERS)
    assert regs["pkg.servers.SERVERS"]["entries"] == {"alpha": 4, "beta": 3}


def test_exec_keeps_every_name_so_an_entry_frees_its_own_line(tmp_path, capsys):
    regs, text = _init(tmp_path, capsys, textwrap.dedent(SERVERS) + "CODE = 'X = 1'\nexec(CODE)\n")
    assert regs["pkg.servers.SERVERS"]["entries"] == {"alpha": 1, "beta": 1}
    assert regs["pkg.servers.SERVERS"]["keeps_all"] == "uses exec() (line 17)"
    assert "## (its module uses exec() (line 17): every name it defines stays, so a cut frees only the entry)" in text
    assert '#   "alpha",    ## 1 line\n' in text  # not "1 lines"
