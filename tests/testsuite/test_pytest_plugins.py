"""Pitfall 5 (docs/pitfalls.md) through `shrink`: a test-support module that only a conftest's `pytest_plugins`
names, whose fixtures tests request by parameter name only, stays with the kept tests; the fork's tests pass."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def run():\n    return 'engine'\n",
    "pkg/testing/__init__.py": "",
    "pkg/testing/fixtures.py": """
        import pytest


        @pytest.fixture
        def engine():
            return "engine"
        """,
    "pkg/testing/plugin.py": "from pkg.testing.fixtures import engine\n",
    "pkg/testing/unused_plugin.py": "VALUE = 1\n",
    "tests/conftest.py": 'pytest_plugins = ["pkg.testing.plugin"]\n',
    "tests/test_core.py": """
        from pkg.core import run


        def test_engine(engine):
            assert run() == engine
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.core"]
tests = ["tests"]

[symbols]
"""


def test_pitfall_05_a_plugin_named_by_pytest_plugins_stays_with_its_tests(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    result = shrink(root / "slimfork.toml", out=fork, jobs=1)
    assert result.apply.restored == []
    assert (fork / "pkg/testing/plugin.py").read_text() == FILES["pkg/testing/plugin.py"]
    assert (fork / "pkg/testing/fixtures.py").is_file()
    assert not (fork / "pkg/testing/unused_plugin.py").exists()  # what nothing names still goes
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_computed_pytest_plugins_name_each_module():
    from slimfork.testsuite.scan import scan_test_file

    source = b'pytest_plugins = ["pkg.testing.fixtures"] + [f"pkg.testing.{n}" for n in ("db", "net")]\n'
    uses = scan_test_file("tests/conftest.py", source, {"pkg"}).units["<module>"].uses
    assert {u.dotted for u in uses} == {"pkg.testing.fixtures", "pkg.testing.db", "pkg.testing.net"}
