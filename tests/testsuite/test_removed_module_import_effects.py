"""A test file importing a module the fork removes (idna's ``tests/test_idna_codec.py``: ``import idna.codec``,
whose import registers the ``idna2008`` codec) goes whole: its tests that never name the module may still need
what the import did (``codecs.decode(obj, "idna2008")``). Session 30's adversarial round 2: idna's static fork
(root ``idna.core``) kept those tests without the import and failed 8 with ``unknown encoding: idna2008``."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

CODEC = """
    import codecs


    def _search(name):
        if name == "qcodec":
            return codecs.lookup("utf-8")
        return None


    codecs.register(_search)
"""

TESTS = """
    import codecs

    import qpkg.codec
    from qpkg import core


    def test_codec_module():
        assert qpkg.codec._search("other") is None


    def test_by_name():
        assert core.add(1, 2) == 3 and codecs.decode(b"a", "qcodec") == "a"
"""


def test_a_test_file_importing_a_removed_module_goes_whole(tmp_path):
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qpkg/codec.py": CODEC,
        "tests/__init__.py": "",
        "tests/test_codec.py": TESTS,
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]) for r in analysis.stages.data["tests"]["removed"]}
    assert ("tests/test_codec.py", None) in gone


FIXTURE = """
    import pytest

    import qpkg
    import qalias


    @pytest.fixture(name="mod", params=(qpkg, qalias))
    def _mod(request):
        return request.param


    def test_version(mod):
        assert mod.__name__


    def test_plain():
        assert qpkg.__name__ == "qpkg"
"""


def test_a_removed_top_level_module_read_by_its_own_name_is_a_use(tmp_path):
    """attrs' ``tests/test_packaging.py``: ``import attrs`` read only as ``params=(attr, attrs)``; the fork kept the
    fixture without the import (``NameError: name 'attrs' is not defined`` at collection). That holds where the module
    cannot stay (the spec drops it); a module no root reaches that the fixture of a test of kept code needs stays as
    test support instead (session 32, ``test_kept_test_needs.py``)."""
    files = {
        "pyproject.toml": '[project]\nname = "qpkg"\nversion = "1.0"\n',
        "qpkg/__init__.py": "",
        "qpkg/core.py": "def add(a, b):\n    return a + b\n",
        "qalias/__init__.py": "from qpkg.core import add\n",
        "tests/test_packaging.py": FIXTURE,
    }
    spec = 'source = "."\nroots = ["qpkg.core"]\ntests = ["tests"]\ndrop = ["qalias/__init__.py"]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml", jobs=1)
    gone = {(r["path"], r["test"]): r["reason"] for r in analysis.stages.data["tests"]["removed"]}
    assert "module qalias, which the fork removes" in gone[("tests/test_packaging.py", "_mod")]
    assert ("tests/test_packaging.py", "test_version") in gone
    assert ("tests/test_packaging.py", "test_plain") not in gone
