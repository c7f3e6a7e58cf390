"""A decorator of a test of kept code is test setup, as a helper is: the module it comes from stays as test support
when no root reaches it (``@retry.repeat(3)``, ``@pytest.mark.parametrize("a,b", cases.ALL)``); before, the
decorator counted as the test's own use and the test left with the module (session 33). A test whose body uses
such a module still goes with it."""

from __future__ import annotations

import json
import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "dts"\nversion = "1.0"\n',
    "dts/__init__.py": "",
    "dts/core.py": "def inc(x):\n    return x + 1\n",
    "dts/retry.py": "import functools\n\n\ndef repeat(n):\n    def deco(f):\n        @functools.wraps(f)\n"
                    "        def run():\n            for _ in range(n):\n                f()\n        return run\n"
                    "    return deco\n",
    "dts/cases.py": "ALL = [(1, 2), (2, 3)]\n",
    "dts/other.py": "def dec(x):\n    return x - 1\n",
    "tests/test_core.py": """
        import pytest

        from dts import cases, retry
        from dts.core import inc
        from dts.other import dec


        @retry.repeat(3)
        def test_inc():
            assert inc(1) == 2


        @pytest.mark.parametrize("a,b", cases.ALL)
        def test_cases(a, b):
            assert inc(a) == b


        def test_other():
            assert dec(inc(1)) == 1
    """,
}
SPEC = 'source = "."\nroots = ["dts.core"]\ntests = ["tests"]\n\n[symbols]\n'


def test_a_decorators_module_stays_as_support_of_the_test_of_kept_code(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert (fork / "dts/retry.py").is_file() and (fork / "dts/cases.py").is_file()
    assert not (fork / "dts/other.py").exists()
    tests = (fork / "tests/test_core.py").read_text()
    assert "def test_inc" in tests and "def test_cases" in tests and "def test_other" not in tests
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    why = {k["module"]: k["reason"] for k in report["kept"] if isinstance(k, dict) and k.get("kind") == "test-support"}
    assert "decorator" in why["dts.retry"] and "test_inc" in why["dts.retry"], why
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout[-2000:]
