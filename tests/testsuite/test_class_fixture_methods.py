"""A fixture method of a test class that uses removed code goes, and so do the tests of its class (or of a
subclass) that request it (mimesis 22.2.0: ``TestTransport.transport`` returns ``Transport()``; the fork kept
``test_str(self, transport)`` and pytest reported "fixture 'transport' not found")."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": "",
    "pkg/person.py": "class Person:\n    pass\n",
    "pkg/transport.py": "class Transport:\n    pass\n",
    "tests/__init__.py": "",
    "tests/test_things.py": """\
import pytest

from pkg.person import Person
from pkg.transport import Transport


class TestTransport:
    @pytest.fixture
    def transport(self):
        return Transport()

    def test_str(self, transport):
        assert str(transport)


class TestMore(TestTransport):
    def test_repr(self, transport):
        assert repr(transport)


def test_person():
    assert Person()
""",
}
SPEC = 'source = "."\nroots = ["pkg.person:Person"]\ntests = ["tests"]\n\n' \
       '[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_the_tests_requesting_a_removed_fixture_method_go(tmp_path):
    stages = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml").stages
    removed = {(r["path"], r["test"]) for r in stages.data["tests"]["removed"]}
    gone = {test for path, test in removed if path == "tests/test_things.py"}
    assert gone & {"TestTransport", "TestTransport.test_str"} and gone & {"TestMore", "TestMore.test_repr"}, gone
    assert "test_person" not in gone and None not in gone
