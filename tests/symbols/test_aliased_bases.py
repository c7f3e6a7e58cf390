"""A base class named through a plain alias (deepdiff 9.1.0: ``dict_ = dict`` and ``RemapDict = dict_`` in
``helper.py``, ``class ResultDict(RemapDict)`` in ``model.py``) is the class the alias names: ``builtins.dict``
registers nothing, so a class deriving from it goes when unused. Before, the base did not resolve, "may register its
subclasses" kept ``DeepDiff`` as a guess, which made ``from deepdiff import DeepDiff`` in ``tests/test_cache.py`` a
re-export of kept code, whose import kept ``diff.py`` loaded: 7,000 lines of a ``DeepHash`` fork. An alias of an
unknown base still keeps the class."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "ali"\nversion = "1.0"\n',
    "ali/__init__.py": "from ali.hash import Hasher\nfrom ali.diff import Differ\n",
    "ali/helper.py": "dict_ = dict\nRemapDict = dict_\n",
    "ali/hash.py": "class Hasher:\n    def run(self, x):\n        return hash(x)\n\n\n"
                   "def hash_diff(a, b):\n    from ali.diff import Differ\n    return Differ()\n",
    "ali/model.py": "from ali.helper import RemapDict\n\n\nclass ResultDict(RemapDict):\n    pass\n",
    "ali/diff.py": "from ali.model import ResultDict\n\n\nclass Differ(ResultDict):\n    pass\n",
    "tests/test_cache.py": "from ali import Differ, Hasher\n\n\ndef test_differ():\n    assert Differ() == {}\n\n\n"
                           "def test_hasher():\n    assert Hasher().run(1) == 1\n",
}
SPEC = ('source = "."\npackages = ["ali"]\nroots = ["ali:Hasher"]\ntests = ["tests"]\n\n[symbols]\n'
        'public_api = "roots"\npackage_api = false\n')


def test_a_base_named_through_an_alias_of_a_builtin_registers_nothing(tmp_path):
    stages = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert ("ali", "Differ") in gone
    assert "ali.diff" in {r.module for r in stages.plan.removals}


def test_an_alias_of_an_unknown_base_still_may_register(tmp_path):
    files = {**FILES, "ali/__init__.py": "from ali.hash import Hasher\nfrom ali.model import ResultDict, Row\n",
             "ali/made.py": "Made = type('Made', (), {})\nUnknown = Made\n",
             "ali/model.py": FILES["ali/model.py"] + "\n\nfrom ali.made import Unknown\n\n\n"
                             "class Row(Unknown):\n    pass\n"}
    stages = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert ("ali.model", "Row") not in gone
