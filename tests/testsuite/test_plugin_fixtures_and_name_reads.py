"""Session 34's adversarial project ``qd``: ways a kept test used what the fork removes that the tests stage did not
see, each a failing test in a fork that exited 0.

- a fixture of a test module a conftest names in ``pytest_plugins`` (``tests/plugin.py``) went with the module it
  uses, and the tests requesting it stayed (``fixture 'extra_x' not found``): such a file's fixtures serve every
  test, as a root conftest's do;
- under ``public_api = "roots"``: ``getattr(util, "pruned_" + kind)`` (any name of the module), ``hasattr(util,
  "has_only")`` (that name) and a bare ``star_only()`` bound by ``from qd.util import *`` read names symbol pruning
  removed: those tests go now, the others of the file stay and pass."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "qd"\nversion = "1.0"\n',
    "qd/__init__.py": "",
    "qd/core.py": "from qd import util\n\n\ndef run():\n    return util.kept()\n",
    "qd/util.py": "".join(f"def {n}():\n    return {n!r}\n\n\n" for n in
                          ("kept", "pruned_a", "pruned_b", "star_only", "has_only", "lit_only")),
    "qd/extra.py": "X = 1\n",
    "tests/__init__.py": "",
    "tests/conftest.py": 'pytest_plugins = ["tests.plugin"]\n',
    "tests/plugin.py": "import pytest\nfrom qd import extra\n\n\n@pytest.fixture\ndef extra_x():\n"
                       "    return extra.X\n\n\n@pytest.fixture\ndef one():\n    return 1\n",
    "tests/test_extra.py": "def test_extra(extra_x):\n    assert extra_x == 1\n\n\n"
                           "def test_one(one):\n    assert one == 1\n",
    "tests/test_core.py": """
        import pytest
        import qd.util
        from qd import core, util
        from qd.util import *


        def test_run():
            assert core.run() == "kept" and kept() == "kept"


        @pytest.mark.parametrize("kind", ["a", "b"])
        def test_getattr(kind):
            assert getattr(util, "pruned_" + kind)() == "pruned_" + kind


        def test_star():
            assert star_only() == "star_only"


        def test_hasattr():
            assert hasattr(qd.util, "has_only")


        def test_getattr_literal():
            assert getattr(util, "lit_only")() == "lit_only"
    """,
}


def _shrink(tmp_path, symbols: str):
    spec = f'source = "."\nroots = ["qd.core"]\ntests = ["tests"]\n\n[symbols]\n{symbols}'
    result = shrink(write_project(tmp_path, FILES, spec) / "slimfork.toml", tmp_path / "fork", verify=False)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=result.out,
                         capture_output=True, text=True)
    return result, run


def test_plugin_fixtures_follow_the_module_they_use(tmp_path):
    result, run = _shrink(tmp_path, "")
    assert not (result.out / "qd/extra.py").exists()
    assert "def test_extra" not in (result.out / "tests/test_extra.py").read_text()
    assert run.returncode == 0 and "7 passed" in run.stdout, run.stdout[-2000:]


def test_names_read_by_getattr_hasattr_and_star_imports(tmp_path):
    result, run = _shrink(tmp_path, 'public_api = "roots"\npackage_api = false\n')
    util = (result.out / "qd/util.py").read_text()
    assert "def star_only" not in util and "def has_only" not in util and "def kept" in util
    text = (result.out / "tests/test_core.py").read_text()
    for gone in ("test_getattr(", "test_star", "test_hasattr", "test_getattr_literal"):
        assert gone not in text
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-2000:]
