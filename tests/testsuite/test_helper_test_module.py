"""A test file other test files import (sqlglot's ``tests/dialects/test_dialect.py``, home of ``Validator``) that
imports removed code at module level: the import's removed names go from it, with its tests that use them; the
file stays, so the tests importing it still run."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project
from tests.mapping.test_subclass_modules import FILES, SPEC

from slimfork.api import shrink

TESTS = {
    "tests/__init__.py": "",
    "tests/test_base.py": """
        import unittest

        from pkg.dialects.base import get
        from pkg.dialects.beta import Beta


        class Validator(unittest.TestCase):
            def check(self, key, greeting):
                self.assertEqual(get(key).greeting, greeting)


        class TestBase(Validator):
            def test_alpha(self):
                self.check("alpha", "hello")

            def test_beta(self):
                self.assertEqual(Beta.greeting, "salut")

            def test_beta_with_options(self):  # a removed key followed by options
                self.assertEqual(get("beta, strict = true, a long list of options".split(",")[0]).greeting, "salut")
        """,
    "tests/test_alpha.py": """
        from pkg.dialects.base import Known
        from tests.test_base import Validator


        class TestAlpha(Validator):
            def test_hello(self):
                self.check("alpha", "hello")

            def test_known_beta(self):  # an enum member the cut removes
                self.assertTrue(Known.Beta.startswith("b"))
        """,
}


def test_a_test_module_other_tests_import_loses_only_its_imports_of_removed_code(tmp_path):
    spec = SPEC.replace('roots = ["pkg.cli"]', 'roots = ["pkg.cli"]\ntests = ["tests"]')
    root = write_project(tmp_path, {**FILES, **TESTS}, spec)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    fork = tmp_path / "fork"
    assert not (fork / "pkg/dialects/beta.py").exists()
    base = (fork / "tests/test_base.py").read_text()
    assert "Beta" not in base and "class Validator" in base and "def test_alpha" in base
    assert "test_beta_with_options" not in base
    alpha = (fork / "tests/test_alpha.py").read_text()
    assert "test_hello" in alpha and "test_known_beta" not in alpha
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    assert "2 passed" in run.stdout
