"""A test file that star-imports the other test files (PyYAML's ``tests/legacy_tests/test_yaml.py``: ``from
test_mark import *`` for each, and its conftest collects the tests from there): when one of those files leaves the
fork whole, only its star import goes from the aggregator, and the tests of kept code still run (before, the
aggregator left with it and the fork ran none of PyYAML's 1,283 tests)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import shrink
from slimfork.testsuite.cut import cut_units
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "apkg"\nversion = "1.0"\n',
    "apkg/__init__.py": "",
    "apkg/core.py": "def add(a, b):\n    return a + b\n",
    "apkg/extra.py": "def mul(a, b):\n    return a * b\n",
    "tests/conftest.py": """
        import os
        import sys

        sys.path.insert(0, os.path.dirname(__file__))
        collect_ignore = ["test_core.py", "test_extra.py", "test_helper_reader.py"]
    """,
    "tests/test_core.py": """
        from apkg.core import add


        def test_add():
            assert add(1, 2) == 3
    """,
    "tests/test_extra.py": """
        from apkg.extra import mul


        def test_mul():
            assert mul(2, 3) == 6


        def shared_helper():
            return 1
    """,
    "tests/test_all.py": """
        from test_core import *
        from test_extra import *
    """,
}
SPEC = 'source = "."\nroots = ["apkg.core"]\ntests = ["tests"]\n'


def test_the_aggregator_loses_only_the_star_import_of_a_test_file_that_goes(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", fork, verify=False)
    assert not (fork / "apkg/extra.py").exists()
    assert not (fork / "tests/test_extra.py").exists()
    assert (fork / "tests/test_all.py").read_text().split() == ["from", "test_core", "import", "*"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


def test_a_name_the_gone_file_binds_read_by_the_aggregator_takes_it_whole(tmp_path):
    files = {**FILES, "tests/test_all.py": """
        from test_core import *
        from test_extra import *


        def test_uses_helper():
            assert shared_helper() == 1
    """}
    root = write_project(tmp_path, files, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", fork, verify=False)
    assert not (fork / "tests/test_all.py").exists()


def test_cut_removes_a_named_star_import_only():
    source = b"from a import *\nfrom b import *\nimport c\n"
    assert cut_units(source, {"import b"}) == b"from a import *\nimport c\n"


TAGGED = {
    "tests/test_tagged.py": """
        from apkg.core import add
        from apkg.extra import mul


        def test_add(data):
            assert add(1, 2) == 3

        test_add.unittest = [".data"]


        def test_mul(data):
            assert mul(2, 3) == 6

        test_mul.unittest = [".data"]
    """,
    "tests/helper.py": """
        from apkg.extra import mul


        class Doubler:
            def run(self, x):
                return mul(x, 2)

        REGISTRY = {"double": Doubler}
    """,
    "tests/test_helper_user.py": """
        import helper


        def test_registry():
            assert "double" in helper.REGISTRY
    """,
}


def test_a_module_level_attribute_of_a_removed_test_goes_with_it_and_a_read_of_a_removed_class_takes_the_file(
        tmp_path):
    root = write_project(tmp_path, {**FILES, **TAGGED}, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", fork, verify=False)
    tagged = (fork / "tests/test_tagged.py").read_text()
    assert "test_add.unittest" in tagged and "test_mul" not in tagged and "apkg.extra" not in tagged
    compile(tagged, "test_tagged.py", "exec")
    # the helper's module level reads Doubler, which goes (it uses apkg.extra): the helper goes whole, and so does
    # the test importing it (before, Doubler went alone and `REGISTRY = {"double": Doubler}` failed at import)
    assert not (fork / "tests/helper.py").exists()
    assert not (fork / "tests/test_helper_user.py").exists()


PATCHED = {
    "tests/patcher.py": """
        import apkg.core
        from apkg.extra import mul


        def double(x):
            return mul(x, 2)

        apkg.core.double = double
    """,
    "tests/test_patched.py": """
        import apkg.core, patcher


        def test_double():
            assert apkg.core.double(2) == 4


        def test_add():
            assert apkg.core.add(2, 2) == 4
    """,
    "tests/test_all.py": """
        from test_core import *
        from test_patched import *
    """,
}


def test_an_import_of_a_removed_test_module_that_sets_library_names_takes_the_importer(tmp_path):
    """PyYAML's ``canonical.py`` sets ``yaml.canonical_scan``, which ``test_canonical.py`` calls: when the helper
    goes, its importer goes whole (before, only ``import canonical`` went, and its tests failed)."""
    root = write_project(tmp_path, {**FILES, **PATCHED}, SPEC)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", fork, verify=False)
    assert not (fork / "tests/patcher.py").exists()
    assert not (fork / "tests/test_patched.py").exists()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=fork,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
