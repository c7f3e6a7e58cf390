"""A test helper that leaves the fork (``both()`` of ``tests/helpers/qhelpers.py`` used removed code) takes the
tests of other files that import it, whether by its package path (``from tests.helpers.qhelpers import both``) or
by a bare name a folder on ``sys.path`` gives (pytest's ``pythonpath = ["tests/helpers"]``: ``from qhelpers import
both``); the helper file's other functions and their tests stay (session 30's adversarial round, Q1: the fork's
suite failed to collect)."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from slimfork.testsuite.decide import importable_names
from tests.mapping.registrykit import write_project

HELPERS = """
    from qpkg.core import add
    from qpkg.legacy import legacy_add


    def both(a, b):
        return add(a, b), legacy_add(a, b)


    def only_core(a, b):
        return add(a, b)
"""


@pytest.mark.parametrize("bare", [True, False])
def test_a_test_importing_a_removed_helper_goes_with_it(tmp_path, bare):
    module = "qhelpers" if bare else "tests.helpers.qhelpers"
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n\n[tool.pytest.ini_options]\n'
                          'pythonpath = ["src", "tests/helpers"]\n',
        "src/qpkg/__init__.py": "",
        "src/qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "src/qpkg/legacy.py": "def legacy_add(a, b):\n    return a + b\n",
        "tests/helpers/qhelpers.py": HELPERS,
        "tests/test_core.py": f"from {module} import only_core\n\n\ndef test_core():\n    assert only_core(1, 2) == 3\n",
        "tests/test_legacy.py": f"from {module} import both\n\n\ndef test_both():\n    assert both(1, 2) == (3, 3)\n",
    }
    if not bare:
        files.update({"tests/__init__.py": "", "tests/helpers/__init__.py": ""})
    spec = 'source = "."\npackages = ["qpkg"]\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_legacy.py", None) in gone
    assert f"{module}.both, which goes from the tests" in gone[("tests/test_legacy.py", None)]
    assert ("tests/helpers/qhelpers.py", "both") in gone
    assert not any(path == "tests/test_core.py" for path, _ in gone)


def test_a_test_file_is_importable_from_each_folder_above_it():
    assert importable_names("tests/helpers/qhelpers.py") == ["tests.helpers.qhelpers", "helpers.qhelpers", "qhelpers"]
    assert importable_names("tests/__init__.py") == ["tests"]
