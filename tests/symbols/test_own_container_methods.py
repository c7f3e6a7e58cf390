"""A module-level call of an in-place method on the module's own new container (python-barcode 0.16.1:
``PROVIDED_BARCODES = list(__BARCODE_MAP)`` then ``PROVIDED_BARCODES.sort()``) changes only that container: the call
stays or goes with the name, as ``TABLE[k] = v`` does. Before, it "ran at import" and kept the list, and the list
the map of every barcode class. A call on a name bound otherwise (an imported list, a call's result), or with an
argument that calls code, still stays."""

from __future__ import annotations

from slimfork.api import analyse
from slimfork.index.build import summary_of
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "own"\nversion = "1.0"\n',
    "own/__init__.py": "from own.ean import EAN\nfrom own.codex import Code39\n\n"
                       "_MAP = {'ean': EAN, 'code39': Code39}\n"
                       "PROVIDED = list(_MAP)\nPROVIDED.sort()\nNAMES = list(_MAP)\nNAMES.append('x')\n",
    "own/ean.py": "class EAN:\n    pass\n",
    "own/codex.py": "class Code39:\n    pass\n",
}
SPEC = 'source = "."\nroots = ["own.ean:EAN"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_an_in_place_method_of_an_own_list_goes_with_it(tmp_path):
    stages = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert {("own", "PROVIDED"), ("own", "_MAP"), ("own", "NAMES"), ("own", "Code39")} <= gone
    assert "own.codex" in {r.module for r in stages.plan.removals}


def test_a_call_on_another_object_or_with_a_call_still_runs_at_import():
    text = (b"import other\nfrom other import TABLE\nLOCAL = list(TABLE)\nTABLE.sort()\nLOCAL.append(other.f())\n"
            b"MADE = make()\nMADE.sort()\nLOCAL.sort(key=len)\n")  # make(): its value may be shared elsewhere
    statements = summary_of(text).symbols.statements
    kept = [st.keep for st in statements[3:]]
    assert kept[0] and kept[1] and kept[3], kept  # TABLE.sort(), LOCAL.append(f()), MADE.sort()
    assert statements[-1].keep is None and statements[-1].binds == ("LOCAL",)  # sort(key=len): pure
