"""A kept test file's import of a removed module that no test of the file reads (convertdate's
``tests/test_general.py``: ``from convertdate import ..., ordinal, ...`` with no test using ``ordinal``) went with the
whole file, the tests of kept code in it included: an unread import was taken as loaded for its effects. Where
importing the module does nothing but bind names (no statement of its own with effects, none in the removed modules
it imports, no third-party module that kept code does not import), only the import goes; an import that may do
something still takes the file (``test_removed_module_import_effects.py``)."""

from __future__ import annotations

import pytest

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

TESTS = """
    from qpkg import core, extra, lunar


    def test_add():
        assert core.add(1, 2) == 3


    def test_lunar():
        assert lunar.phase(3) == 0
"""

PLAIN = "from qpkg import core\n\n\ndef twice(n):\n    return core.add(n, n)\n"
MODULES = {
    "plain": {"qpkg/extra.py": PLAIN},
    "own effect": {"qpkg/extra.py": PLAIN + "\nimport codecs\ncodecs.register(lambda name: None)\n"},
    "effect of a removed module it imports": {"qpkg/extra.py": "from qpkg import hook\n" + PLAIN,
                                              "qpkg/hook.py": "import atexit\natexit.register(print)\n"},
    "third-party import": {"qpkg/extra.py": "import somelib\n" + PLAIN},
}


@pytest.mark.parametrize("case", sorted(MODULES))
def test_an_unread_import_of_an_effect_free_removed_module_goes_alone(tmp_path, case):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/lunar.py": "def phase(n):\n    return n % 3\n",
        "tests/__init__.py": "",
        "tests/test_general.py": TESTS,
        **MODULES[case],
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    if case != "plain":
        assert ("tests/test_general.py", None) in gone
        return
    assert ("tests/test_general.py", None) not in gone
    assert "module qpkg.extra" in gone[("tests/test_general.py", "import extra")]
    assert ("tests/test_general.py", "test_lunar") in gone
    assert ("tests/test_general.py", "test_add") not in gone
