"""Session 35's adversarial project ``re``: a root conftest's autouse fixture puts a module no root reaches into
``doctest_namespace`` (``doctest_namespace["ext"] = ext``, as numpy-style projects do for ``np``), and a
docstring of kept code (run by ``--doctest-modules``) reads ``ext.twice(...)`` with no import. The tests stage let
the fixture go with the module ("the tests below run without it") and the doctest failed with a NameError in a
fork that exited 0 (both modes). A conftest's autouse fixtures are now requested by every test below its folder,
so what they use stays as test support."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "rx"\nversion = "1.0"\n',
    "pytest.ini": "[pytest]\naddopts = --doctest-modules\ntestpaths = tests rx\n",
    "rx/__init__.py": "",
    "rx/ext.py": "def twice(x):\n    return 2 * x\n",
    "rx/core.py": 'def make():\n    """A kind.\n\n    >>> ext.twice(make())\n    \'ww\'\n    """\n    return "w"\n',
    "conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _add_ext(doctest_namespace):\n"
                   "    from rx import ext\n    doctest_namespace['ext'] = ext\n",
    "tests/test_core.py": "from rx import core\n\n\ndef test_make():\n    assert core.make() == 'w'\n",
}


@pytest.mark.parametrize("symbols", ["", 'public_api = "roots"\npackage_api = false\n'])
def test_an_autouse_fixture_keeps_the_module_it_hands_the_doctests(tmp_path, symbols):
    spec = f'source = "."\nroots = ["rx.core"]\ntests = ["tests", "conftest.py"]\n\n[symbols]\n{symbols}'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    assert (result.out / "rx/ext.py").exists()
    assert "def _add_ext" in (result.out / "conftest.py").read_text()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=result.out,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-2000:]
