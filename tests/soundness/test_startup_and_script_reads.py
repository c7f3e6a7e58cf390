"""Code that runs without any module of the project importing it. ``sitecustomize.py`` on a folder of
``sys.path`` is imported by ``site`` at startup (``PYTHONPATH=src``): before (session 44) it left the fork with what
it imports, exit 0. A script the build installs without a ``.py`` suffix (``bin/demotool``: ``from pkg.tools import
gen; print(gen.RESULT)``) is no module, so its reads were not seen: with ``public_api = "roots"`` the module stayed
and ``RESULT`` was pruned; now every name of what it imports stays."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.soundness.soundkit import shrink_and_run_main

PYPROJECT = ('[project]\nname = "pkg"\nversion = "1.0"\n\n[tool.setuptools]\npackages = ["pkg", "pkg.tools"]\n'
             'script-files = ["bin/demotool"]\n')


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_sitecustomize_stays_with_what_it_imports(tmp_path, mode):
    files = {"pkg/__init__.py": "", "sitecustomize.py": "import pkg.boot\n",
             "pkg/boot.py": "import os\n\nos.environ['PKG_BOOTED'] = 'yes'\n",
             "pkg/app.py": "import os\n\n\ndef main():\n    return os.environ.get('PKG_BOOTED')\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "yes", done.stderr[-2000:]


@pytest.mark.parametrize("mode", ["default", "roots"])
def test_what_a_suffixless_installed_script_reads_stays(tmp_path, mode):
    files = {"pyproject.toml": PYPROJECT, "pkg/__init__.py": "", "pkg/app.py": "def main():\n    return 1\n",
             "pkg/tools/__init__.py": "", "pkg/tools/gen.py": "RESULT = 'generated'\n",
             "bin/demotool": "#!/usr/bin/env python\nfrom pkg.tools import gen\n\nprint(gen.RESULT)\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "1", done.stderr[-2000:]
    ran = subprocess.run([sys.executable, "bin/demotool"], cwd=fork, capture_output=True, text=True,
                         env={"PYTHONPATH": str(fork), "PATH": "/usr/bin:/bin"})
    assert ran.stdout.strip() == "generated", ran.stderr[-2000:]
