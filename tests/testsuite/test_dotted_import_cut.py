"""A test file that imports a module the fork removes by its dotted name (``import pkg.gone``) next to modules it
keeps (``import pkg.kept``) loses that one statement, not every import binding ``pkg``: dnspython's
``tests/test_svcb.py`` (``import dns.rdata``, ``import dns.rrset``) lost all three and its kept tests failed with
``NameError: name 'dns' is not defined`` (session 30's adversarial round 2)."""

from __future__ import annotations

from slimfork.api import analyse
from slimfork.testsuite.cut import cut_units
from tests.mapping.registrykit import write_project

TESTS = """
    import qpkg.core
    import qpkg.legacy


    def test_core():
        assert qpkg.core.add(1, 2) == 3


    def test_legacy():
        assert qpkg.legacy.legacy_add(1, 2) == 3
"""


def test_only_the_import_of_the_removed_module_goes(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/legacy.py": "def legacy_add(a, b):\n    return a + b\n",
        "tests/__init__.py": "",
        "tests/test_mixed.py": TESTS,
        "tests/test_other.py": "from tests.test_mixed import test_core\n",  # other tests import the file
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_mixed.py", "import qpkg.legacy") in gone
    assert ("tests/test_mixed.py", "test_legacy") in gone
    assert ("tests/test_mixed.py", None) not in gone and ("tests/test_mixed.py", "import qpkg") not in gone


def test_the_cut_keeps_the_other_imports_of_the_same_package():
    source = b"import qpkg.core\nimport qpkg.legacy\nimport qpkg.legacy as lg\nfrom qpkg import legacy\n"
    assert cut_units(source, {"import qpkg.legacy"}) == b"import qpkg.core\nimport qpkg.legacy as lg\n"
    assert cut_units(b"import qpkg\nimport qpkg.core\n", {"import qpkg"}).strip() == b""  # the name qpkg goes
    assert cut_units(b"from x import x\nimport x.y\n", {"import x.x"}) == b"import x.y\n"
