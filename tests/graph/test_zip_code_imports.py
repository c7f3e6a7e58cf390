"""Code in a zip of the package, put on ``sys.path`` (``sys.path.insert(0, join(dirname(__file__), "bundle.zip"));
import bundled``) or loaded by ``zipimport``, imports ``from pkg.plugins import alpha`` and reads ``alpha.VALUE``.
Before (session 44) the zip's text named only ``pkg.plugins``: ``alpha.py``, imported otherwise only by code no
root reaches, left the fork, exit 0; once kept, its names were pruned under ``public_api = "roots"``."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project
from tests.soundness.soundkit import SYMBOLS

APP = ("import os, sys\n\n\ndef main():\n"
       "    sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'bundle.zip'))\n"
       "    import bundled\n    return bundled.VALUE\n")


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_what_code_in_a_zip_imports_stays_whole(tmp_path, mode):
    files = {"pkg/__init__.py": "", "pkg/app.py": APP, "pkg/plugins/__init__.py": "",
             "pkg/plugins/alpha.py": "VALUE = 'alpha'\n", "pkg/legacy.py": "import pkg.plugins.alpha\n"}
    root = write_project(tmp_path, files, f'source = "."\nroots = ["pkg.app:main"]\n{SYMBOLS[mode]}')
    with zipfile.ZipFile(root / "pkg/bundle.zip", "w") as z:
        z.writestr("bundled.py", "from pkg.plugins import alpha\nVALUE = alpha.VALUE\n")
    shrink(root / "slimfork.toml", out=tmp_path / "fork", jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=tmp_path / "fork",
                          capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "fork")})
    assert done.stdout.strip() == "alpha", done.stderr[-2000:]
