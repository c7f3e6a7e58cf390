"""Session 47 (nanotron ``a5da0d37^``, "clean up"): ``tests/test_x.py`` held one fixture, its tests commented out;
the clean-up deleted it. A test module whose top level is only imports, constants and functions that are no test
(no ``test*`` function, ``Test*`` class, hook or class with bases), imported by no file, holds no test (60); a test
helper other tests import, a module with a test, or one running statements at its top level is not reported."""

from __future__ import annotations

from slimfork.audit.run import run_audit
from slimfork.source.layout import open_tree
from tests.mapping.registrykit import write_project

FIXTURE = "import pytest\n\n\n@pytest.fixture\ndef dataset():\n    return [1]\n\n\n" \
          "# def test_len(dataset):\n#     pass\n"
FILES = {
    "setup.py": "from setuptools import setup\nsetup(name='pk', packages=['pk'])\n",
    "pk/__init__.py": "def f():\n    return 1\n",
    "tests/test_x.py": FIXTURE,
    "tests/test_utils.py": "def make():\n    return 1\n",
    "tests/test_f.py": "from pk import f\nfrom tests.test_utils import make\n\n\n"
                       "def test_f():\n    assert f() == make()\n",
    "tests/test_gen.py": "def helper():\n    return 1\n\n\ndef pytest_generate_tests(metafunc):\n    pass\n",
    "tests/test_smoke.py": "import pk\n\n\ndef helper():\n    return 1\n\n\nassert helper() == pk.f()\n",
    "tests/test_cases.py": "import unittest\n\n\nclass Cases(unittest.TestCase):\n    def check(self):\n        pass\n",
}


def test_a_test_module_of_helpers_only_holds_no_test(tmp_path):
    result, _table = run_audit(open_tree(write_project(tmp_path, FILES, "")))
    found = {f.subject: f for f in result.findings if f.kind == "orphaned-test"}
    assert found["tests/test_x.py"].confidence == 60
    assert "defines only dataset" in found["tests/test_x.py"].reason
    assert found["tests/test_x.py"].path == "tests/test_x.py"
    assert not {"tests/test_utils.py", "tests/test_f.py", "tests/test_gen.py", "tests/test_smoke.py",
                "tests/test_cases.py"} & set(found), found
