"""An INI value that interpolates another names what configparser reads: ``backend = %(base)s.backends.fast`` with
``base = pkg`` (``${base}`` for extended interpolation). Before (session 44) only the raw text was read:
``backends/fast.py``, imported otherwise only by code no root reaches, left the fork, exit 0."""

from __future__ import annotations

import pytest

from slimfork.graph.tool_configs import runtime_text
from tests.soundness.soundkit import shrink_and_run_main

INIS = {"basic": "[app]\nbase = pkg\nbackend = %(base)s.backends.fast\n",
        "extended": "[paths]\nbase = pkg\n\n[app]\nbackend = ${paths:base}.backends.fast\n"}
APP = ("import configparser, importlib, os\n\n\ndef main():\n    cfg = configparser.ConfigParser(interpolation=I)\n"
       "    cfg.read(os.path.join(os.path.dirname(__file__), 'settings.ini'))\n"
       "    return importlib.import_module(cfg['app']['backend']).NAME\n")


@pytest.mark.parametrize("kind", sorted(INIS))
def test_the_interpolated_value_is_read(kind):
    assert "pkg.backends.fast" in runtime_text("pkg/settings.ini", INIS[kind]).splitlines()


def test_text_without_interpolation_is_read_as_written():
    assert runtime_text("pkg/notes.txt", "50%( off\n") == "50%( off\n"


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("kind", sorted(INIS))
def test_the_module_an_interpolated_value_names_stays(tmp_path, kind, mode):
    interpolation = "configparser.BasicInterpolation()" if kind == "basic" else "configparser.ExtendedInterpolation()"
    files = {"pkg/__init__.py": "", "pkg/backends/__init__.py": "", "pkg/backends/fast.py": "NAME = 'fast'\n",
             "pkg/settings.ini": INIS[kind], "pkg/app.py": APP.replace("=I)", f"={interpolation})"),
             "pkg/legacy.py": "import pkg.backends.fast\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "fast", done.stderr[-2000:]
