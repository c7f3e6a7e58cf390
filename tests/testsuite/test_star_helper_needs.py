"""A test file star-imports a helper of the tests (``from .helpers import *``), which star-imports the library
(``from pkg.core import *`` and ``from pkg.extra import *``); its tests read bare names. The helper went with
``pkg.extra``, which no root reaches, and the test file with it: the test of kept code ``f`` was removed and the
fork ran no test (the lead's adversarial round, session 36). Names bound through the star chain now make the file
a test of kept code, and what the helper imports stays as test support."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/core.py": "def f():\n    return 1\n",
    "pkg/extra.py": "def g():\n    return 2\n",
    "tests/__init__.py": "",
    "tests/helpers.py": "from pkg.extra import *\nfrom pkg.core import *\n\nONE = 1\n",
    "tests/test_star.py": "from .helpers import *\n\n\ndef test_f():\n    assert f() == ONE\n\n\n"
                          "def test_g():\n    assert g() == 2\n",
}


@pytest.mark.parametrize("symbols", ["", '[symbols]\npublic_api = "roots"\npackage_api = false\n'])
def test_a_test_of_kept_code_through_star_imported_helpers_stays(tmp_path, symbols):
    spec = f'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n\n{symbols}'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "def test_f" in (result.out / "tests/test_star.py").read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "passed" in run.stdout, run.stdout[-2000:]
