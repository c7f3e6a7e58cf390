"""A library module no root reaches that tests of kept code need stays as test support: a name of it read at
import time by the test file's module-level statements, or by a helper or base class those tests use (tinycss2
1.4.0, root ``tinycss2.parser``: ``@generic def to_json()`` is called by its decorator at import time and maps
``tinycss2.color3.RGBA``; every test goes through it, so all 8,903 tests left the fork). A test that uses such a
module in its own body still goes with it; a conftest fixture's helper counts too (apispec's ``spec`` fixture
builds every spec with ``apispec.ext.marshmallow``: 13 of its 563 tests stayed) (session 32)."""

from __future__ import annotations

import json
import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "ktn"\nversion = "1.0"\n',
    "ktn/__init__.py": "",
    "ktn/core.py": "def parse(s):\n    return s.strip()\n",
    "ktn/extra.py": "from ktn.extra_dep import NAME\n\n\nclass Extra:\n    name = NAME\n",
    "ktn/extra_dep.py": "NAME = 'extra'\n",
    "ktn/base.py": "class ExtraBase:\n    flag = True\n",
    "ktn/shown.py": "LABEL = 'shown'\n",
    "ktn/direct.py": "def f():\n    return 1\n",
    "ktn/unused.py": "def g():\n    return 2\n",
    "tests/test_core.py": """
        import ktn.shown as shown
        from ktn.base import ExtraBase
        from ktn.core import parse
        from ktn.direct import f
        from ktn.extra import Extra


        def generic(func):
            table = func()
            return lambda value: table[type(value)](value)


        @generic
        def to_json():
            return {str: lambda s: s, Extra: lambda e: e.name}


        LABEL = shown.LABEL + "!"


        def test_parse():
            assert to_json(parse(" a ")) == "a" and LABEL == "shown!"


        def test_direct():
            assert f() == 1 and parse("x") == "x"


        class TestBased(ExtraBase):
            def test_parse_again(self):
                assert self.flag and parse(" b ") == "b"
    """,
    "ktn/dbg.py": "STATE = []\n\n\ndef on():\n    STATE.append(1)\n",
    "tests/base.py": "import unittest\n\nfrom ktn import dbg\n\n\nclass BaseCase(unittest.TestCase):\n"
                     "    def setUp(self):\n        dbg.on()\n",
    "tests/test_via_base.py": "from base import BaseCase\nfrom ktn.core import parse\n\n\nclass TestViaBase(BaseCase):\n"
                              "    def test_it(self):\n        assert parse(' c ') == 'c'\n",
    "ktn/plugin.py": "class Plugin:\n    name = 'plug'\n",
    "tests/conftest.py": "import pytest\n\nfrom ktn.plugin import Plugin\n\n\ndef make():\n    return Plugin().name\n\n\n"
                         "@pytest.fixture\ndef spec():\n    return make()\n",
    "tests/test_spec.py": "from ktn.core import parse\n\n\ndef test_spec(spec):\n    assert parse(spec) == 'plug'\n",
    "tests/test_unused.py": "from ktn.unused import g\n\n\ndef test_g():\n    assert g() == 2\n",
}
SPEC = 'source = "."\nroots = ["ktn.core"]\ntests = ["tests"]\n\n[symbols]\n'


def test_modules_tests_of_kept_code_need_at_import_stay_as_support(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    for kept in ("extra", "extra_dep", "base", "shown", "dbg", "plugin"):
        assert (fork / f"ktn/{kept}.py").is_file(), kept
    assert not (fork / "ktn/direct.py").exists() and not (fork / "ktn/unused.py").exists()
    assert not (fork / "tests/test_unused.py").exists()  # tests only code the spec leaves out
    tests = (fork / "tests/test_core.py").read_text()
    assert "def test_parse" in tests and "def test_parse_again" in tests and "def test_direct" not in tests
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    why = {k["module"]: k["reason"] for k in report["kept"] if isinstance(k, dict) and k.get("kind") == "test-support"}
    assert "import time" in why["ktn.shown"] and "to_json" in why["ktn.extra"], why
    assert "TestBased" in why["ktn.base"], why
    assert "BaseCase" in why["ktn.dbg"] and "tests/base.py" in why["ktn.dbg"], why
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "4 passed" in done.stdout, done.stdout[-2000:]
