"""Three shapes of the tests of a module the fork removes (session 41: twine 7.0.0, huey 3.5.4).

- A test whose setup builds an object of a removed module that its file or class names (twine's
  ``tests/test_check.py``: ``TestWarningStream.setup_method`` builds ``check._WarningStream()``) tests that module:
  it goes with it, and the module is no test support. Setup using a module the test does not name stays setup
  (tests/testsuite/test_called_helpers_of_removed_code.py: asn1crypto's ``pem``).
- A test package's ``__init__.py`` that star-imports every test module (``huey/tests/__init__.py``, for ``python -m
  huey.tests``) loses the star import of a test file that goes whole; it stayed, and every test failed to collect.
- A unittest aggregator ``tests/__init__.py`` that imports each test class by name (phonenumbers 9.0.43: ``from
  .geocodertest import PhoneNumberGeocoderTest``, then ``unittest.main()``) loses the imports of test files that go
  whole; it stayed, kept those files, and with them every module they test (the whole geocoding data).
- ``try: from pkg.gone import X`` / ``except ImportError: if HAVE_DB: raise`` is no optional import: where the
  handler may raise again the file fails without the module, so its import counts (huey's ``test_sql_huey.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

from slimfork.api import shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
    "qpkg/__init__.py": "",
    "qpkg/core.py": "def add(a, b):\n    return a + b\n",
    "qpkg/check.py": "class Stream:\n    def write(self, text):\n        return text.upper()\n",
    "qpkg/armor.py": "def unarmor(text):\n    return text.strip('-')\n",
    "qpkg/extra.py": "def mul(a, b):\n    return a * b\n",
    "qpkg/sqlx.py": "class Store:\n    pass\n",
    "tests/__init__.py": """
        from tests.test_core import *
        from tests.test_check import *
        from tests.test_extra import *
        from tests.test_sqlx import *
    """,
    "tests/test_core.py": """
        from qpkg import armor, core


        class TestAdd:
            def setup_method(self):
                self.text = armor.unarmor("-3-")

            def test_add(self):
                assert core.add(1, int(self.text)) == 4
    """,
    "tests/test_check.py": """
        from qpkg import check, core


        class TestStream:
            def setup_method(self):
                self.stream = check.Stream()

            def test_write(self):
                assert self.stream.write("a") == "A" and core.add(1, 1) == 2
    """,
    "tests/test_extra.py": """
        from qpkg.extra import mul


        def test_mul():
            assert mul(2, 3) == 6
    """,
    "tests/test_sqlx.py": """
        HAVE_DB = True
        try:
            from qpkg.sqlx import Store
        except ImportError:
            if HAVE_DB:
                raise

        from qpkg.core import add


        def test_store():
            assert Store() is not None


        def test_add():
            assert add(1, 2) == 3
    """,
}
SPEC = ('source = "."\nroots = ["qpkg.core:add"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'
        'package_api = false\n')


def test_the_tests_of_removed_modules_go_and_the_kept_ones_still_collect(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    for gone in ("qpkg/check.py", "qpkg/extra.py", "qpkg/sqlx.py", "tests/test_check.py", "tests/test_extra.py",
                 "tests/test_sqlx.py"):
        assert not (fork / gone).exists(), gone
    assert (fork / "qpkg/armor.py").is_file()  # setup of a test of kept code that does not name it
    init = (fork / "tests/__init__.py").read_text()
    assert "tests.test_core import *" in init and "test_extra" not in init and "test_check" not in init, init
    report = json.loads((tmp_path / "fork.report/report.json").read_text())
    why = {k["module"]: k["reason"] for k in report["kept"] if isinstance(k, dict) and k.get("kind") == "test-support"}
    assert set(why) == {"qpkg.armor"}, why
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "passed" in done.stdout, done.stdout[-2000:]


def test_a_unittest_aggregator_loses_its_named_imports_of_removed_tests(tmp_path):
    files = {**FILES, "tests/__init__.py": """
        import unittest

        from .test_core import TestAdd
        from .test_extra import test_mul

        if __name__ == '__main__':
            unittest.main()
    """}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "qpkg/extra.py").exists() and not (fork / "tests/test_extra.py").exists()
    init = (fork / "tests/__init__.py").read_text()
    assert "from .test_core import TestAdd" in init and "test_extra" not in init, init
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "passed" in done.stdout, done.stdout[-2000:]


def test_an_aggregator_that_reads_an_imported_test_keeps_it(tmp_path):
    files = {**FILES, "tests/__init__.py": """
        import unittest

        from .test_extra import test_mul

        SUITE = unittest.FunctionTestCase(test_mul)
    """}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert "from .test_extra import test_mul" in (fork / "tests/__init__.py").read_text()
    # what the test it reads needs stays as test support (it went, and the fork's tests failed to import)
    assert (fork / "tests/test_extra.py").exists() and (fork / "qpkg/extra.py").exists()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "passed" in done.stdout, done.stdout[-2000:]
