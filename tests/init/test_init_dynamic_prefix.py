"""A package that loads plugins by a computed relative name with a constant prefix (pyserial's
``import_module('.protocol_{}'.format(protocol), package)``) can load only modules named that way: its other
platform-only modules are still suggested as drops (before, any computed relative import made them all live)."""

from __future__ import annotations

import json
import textwrap


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


FILES = {
    "ser/__init__.py": """
        import importlib
        import os
        if os.name == "nt":
            from ser.win import Serial
        else:
            from ser.posix import Serial

        def for_url(url):
            module_name = ".protocol_{}".format(url.split("://")[0])
            return importlib.import_module(module_name, "ser.handlers")
        """,
    "ser/win.py": "class Serial:\n    pass\n",
    "ser/posix.py": "class Serial:\n    pass\n",
    "ser/handlers/__init__.py": "",
    "ser/handlers/protocol_loop.py": "X = 1\n",
    "tests/test_ser.py": "import ser\n",
}


def test_platform_only_module_is_suggested_beside_a_prefixed_plugin_import(tmp_path, capsys):
    from slimfork.cli import main

    _write(tmp_path / "proj", FILES)
    assert main(["init", str(tmp_path / "proj"), "--out", str(tmp_path / "d.toml"), "--json"]) == 0
    draft = json.loads(capsys.readouterr().out)
    assert [(d["path"], d["imports"]) for d in draft["drop"]] == [("ser/win.py", ["ser/__init__.py:5"])]
