"""A test that reaches a private method by a name it spells as a string (cssutils 2.11.1's ``test_property.py``:
``self.do_raise_r(tests, att='_setPriority')``, then ``self.r.__getattribute__(att)(test)``) keeps that method: the
symbol stage pruned ``Property._setPriority`` (no library code calls it) and the kept test failed on the fork, with
main's code too (session 37's depth round)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "pv"\nversion = "1.0"\n',
    "pv/__init__.py": "",
    "pv/prop.py": "class Prop:\n    def __init__(self):\n        self.p = ''\n\n    def _set(self, p):\n"
                  "        self.p = p\n\n    def _unused(self):\n        return 1\n\n    def get(self):\n"
                  "        return self.p\n",
    "tests/test_prop.py": "from pv.prop import Prop\n\n\ndef call(obj, att='_set'):\n"
                          "    obj.__getattribute__(att)('x')\n    return obj\n\n\n"
                          "def test_set():\n    assert call(Prop()).get() == 'x'\n",
}
SPEC = 'source = "."\nroots = ["pv.prop:Prop"]\ntests = ["tests"]\n\n[symbols]\npublic_api = "roots"\n'


def test_a_private_name_a_test_spells_stays(tmp_path):
    stage = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1).stages.symbols
    gone = {n for p in stage.pruned if p.module == "pv.prop" for n in p.names}
    assert "Prop._unused" in gone and "Prop._set" not in gone
