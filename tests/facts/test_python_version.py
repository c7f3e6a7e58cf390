"""sys.version_info folds where every Python from the floor on agrees: the floor is [facts] python, else the
distribution's requires-python (a project never runs below it, so branches for older Pythons are dead code)."""

from __future__ import annotations

import libcst as cst
import pytest

from slimfork.api import shrink
from slimfork.errors import SpecError
from slimfork.facts import UNKNOWN, parse_facts
from slimfork.facts.bindings import ModuleScope, Resolver
from slimfork.facts.evaluate import Evaluator
from slimfork.facts.literals import to_literal
from slimfork.facts.python import PythonVersions, python_floor
from slimfork.facts.table import build_table


@pytest.fixture(scope="module")
def evaluator(tmp_path_factory):
    root = tmp_path_factory.mktemp("proj")
    (root / "pkg").mkdir()
    (root / "pkg/__init__.py").write_text("import sys\nfrom sys import version_info as V\n")
    resolver = Resolver(root, {"pkg/__init__.py": "pkg"})
    table = build_table(parse_facts({"python": ">=3.9,<4"}, "facts"), resolver)
    return Evaluator(table, ModuleScope(resolver, resolver.bindings("pkg"), frozenset()))


@pytest.mark.parametrize("code, value", [
    ("sys.version_info >= (3, 8)", True), ("sys.version_info >= (3, 9)", True), ("sys.version_info < (3, 9)", False),
    ("sys.version_info >= (3, 10)", UNKNOWN), ("sys.version_info < (3, 12)", UNKNOWN),
    ("sys.version_info[0] == 2", False), ("sys.version_info[0] >= 3", True), ("sys.version_info.major == 3", True),
    ("sys.version_info[:2] >= (3, 9)", True), ("sys.version_info[:2] == (3, 9)", UNKNOWN),
    ("(3, 8) <= sys.version_info", True), ("sys.version_info.minor < 9", False), ("sys.version_info.minor > 9", UNKNOWN),
    ("V < (3, 0)", False), ("sys.version_info >= (4,)", False), ("sys.version_info is None", UNKNOWN),
])
def test_comparisons_fold_only_where_every_version_agrees(evaluator, code, value):
    assert evaluator.value(cst.parse_expression(code)) is value


def test_the_version_itself_has_no_literal(evaluator):
    versions = evaluator.value(cst.parse_expression("sys.version_info[:2]"))
    assert isinstance(versions, PythonVersions) and to_literal(versions) is None


def test_floors_and_bad_specifiers():
    assert python_floor(">=3.9") == (3, 9) and python_floor("~=3.10") == (3, 10) and python_floor(">3.8,<4") == (3, 8)
    assert python_floor("<3.13") is None and python_floor("not a specifier") is None
    with pytest.raises(SpecError) as exc:
        parse_facts({"python": "<3.13"}, "facts")
    assert exc.value.key == "facts.python"


def test_requires_python_removes_the_branches_for_older_pythons(tmp_path):
    project = tmp_path / "proj"
    (project / "src/pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "1"\nrequires-python = ">=3.9"\n')
    (project / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\n[checks]\nskip = ["import-modules"]\n')
    (project / "src/pkg/__init__.py").write_text(
        "import sys\n\nif sys.version_info >= (3, 8):\n    from importlib import metadata\nelse:\n"
        "    from pkg import _backport as metadata\n\nif sys.version_info < (3, 11):\n    from pkg import _tomli\n")
    (project / "src/pkg/_backport.py").write_text("NAME = 1\n")
    (project / "src/pkg/_tomli.py").write_text("NAME = 2\n")
    shrink(project / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    init = (tmp_path / "fork/src/pkg/__init__.py").read_text()
    assert "from importlib import metadata\n" in init and "_backport" not in init
    assert not (tmp_path / "fork/src/pkg/_backport.py").exists()
    assert (tmp_path / "fork/src/pkg/_tomli.py").exists()  # 3.9 and 3.10 still need it
