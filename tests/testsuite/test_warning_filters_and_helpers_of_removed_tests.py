"""Two things that kept code the spec leaves out, found on fontTools 4.68.0 sliced to ``pyftsubset``:

- ``filterwarnings = ignore:some_function:DeprecationWarning:fontTools.ufoLib.utils``: the fourth field is a regular
  expression for the module a warning comes from, never imported; only a dotted *category* (the third field) is
  imported by pytest. The module field kept ``ufoLib`` as test support.
- ``Tests/ufoLib/testSupport.py``, a helper with no tests that only ufoLib's own tests import: a file with no tests
  counted as a user of kept code, so the test code of the library it imports (``pkg.testing.fakes``) stayed as
  support. Now a helper counts where a test file that
  counts imports it (or where no test file imports it: pytest may load it another way).

Each: the module leaves the fork, and the fork's tests pass; a category the configuration names still stays."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

SPEC = 'source = "."\nroots = ["pkg.core"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _fork(tmp_path, files):
    result = shrink(write_project(tmp_path, files, SPEC) / "slimfork.toml", tmp_path / "fork", verify=False)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True, env={"PYTHONPATH": ".", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0 and "failed" not in run.stdout, run.stdout[-2000:] + run.stderr[-2000:]
    return result.out, run.stdout


def test_a_warning_filters_module_field_keeps_nothing(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/ufo/__init__.py": "",
        "pkg/ufo/utils.py": "def old():\n    return 2\n",
        "pkg/warns.py": "class OldWarning(DeprecationWarning):\n    pass\n",
        "setup.cfg": "[tool:pytest]\nfilterwarnings =\n    ignore:old:DeprecationWarning:pkg.ufo.utils\n"
                     "    ignore::pkg.warns.OldWarning\n",
        "tests/test_core.py": "from pkg.core import f\n\n\ndef test_f():\n    assert f() == 1\n",
    }
    out, stdout = _fork(tmp_path, files)
    assert not (out / "pkg/ufo/utils.py").exists() and (out / "pkg/warns.py").exists()
    assert "1 passed" in stdout


def test_a_helper_only_tests_of_removed_code_import_leaves(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/core.py": "def f():\n    return 1\n",
        "pkg/ufo/__init__.py": "from pkg.ufo.reader import read\n",
        "pkg/ufo/reader.py": "def read():\n    return 'glyph'\n",
        "tests/__init__.py": "",
        "tests/ufo/__init__.py": "",
        "pkg/testing/__init__.py": "",
        "pkg/testing/fakes.py": "def fake():\n    return 'glyph'\n",
        "tests/ufo/testSupport.py": "from pkg.testing.fakes import fake\n\nGLYPH = fake()\n",
        "tests/ufo/reader_test.py": "from pkg.ufo import read\nfrom .testSupport import GLYPH\n\n\n"
                                    "def test_read():\n    assert read() == GLYPH\n",
        "tests/test_core.py": "from pkg.core import f\n\n\ndef test_f():\n    assert f() == 1\n",
        "setup.cfg": "[tool:pytest]\npython_files = *_test.py test_*.py\n",
    }
    out, stdout = _fork(tmp_path, files)
    assert not (out / "pkg/ufo/reader.py").exists() and not (out / "pkg/testing/fakes.py").exists()
    assert not (out / "tests/ufo/testSupport.py").exists() and not (out / "tests/ufo/reader_test.py").exists()
    assert "1 passed" in stdout
