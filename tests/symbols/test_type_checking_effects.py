"""An import under ``if TYPE_CHECKING:`` never runs, so it is no import-time effect (session 41: cachelib 0.17.0
kept ``cachelib.dynamodb``, 303 lines, for the roots ``SimpleCache`` and ``FileSystemCache``: "loading it has
effects (it imports mypy_boto3_dynamodb)", an import under ``if _t.TYPE_CHECKING:`` after ``import typing as
_t``). The alias counts as ``typing`` where the module binds it once; an eager third-party import is still an
effect (prune/inputs.py ``effect_violations``)."""

from __future__ import annotations

import ast

import pytest

from slimfork.api import analyse
from slimfork.index.symbols import symbol_summary
from tests.mapping.registrykit import write_project

DYN = """
import typing as _t

if _t.TYPE_CHECKING:
    from boto_stubs.defs import ItemDef


class Dyn:
    def get(self) -> "ItemDef":
        return None
"""


@pytest.mark.parametrize("module", [DYN, DYN.replace("import typing as _t", "from typing import TYPE_CHECKING")
                                    .replace("_t.TYPE_CHECKING", "TYPE_CHECKING")])
def test_a_module_only_a_type_checker_imports_a_third_party_from_leaves(tmp_path, module):
    files = {"pyproject.toml": '[project]\nname = "pk"\nversion = "1.0"\n',
             "pk/__init__.py": "from pk.core import add\nfrom pk.dyn import Dyn\n",
             "pk/core.py": "def add(a, b):\n    return a + b\n",
             "pk/dyn.py": module}
    spec = 'source = "."\nroots = ["pk.core:add"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    removed = {r.path for r in analyse(write_project(tmp_path, files, spec) / "slimfork.toml").plan.removals}
    assert "pk/dyn.py" in removed


def test_an_eager_import_or_a_rebound_alias_is_still_an_effect():
    assert symbol_summary(ast.parse(DYN.replace("if _t.TYPE_CHECKING:\n    from", "if True:\n    from"))) \
        .external_imports == {"boto_stubs"}
    rebound = DYN + "\n_t = None\n"
    assert symbol_summary(ast.parse(rebound)).external_imports == {"boto_stubs"}
    assert not symbol_summary(ast.parse(DYN)).external_imports
