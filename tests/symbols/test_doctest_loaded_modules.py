"""A module's doctests use names once kept code loads the module (python-barcode 0.16.1: ``isxn.py``'s docstring
calls ``barcode.get_barcode``, ``get_barcode`` reads the map of every barcode class, and the map imports
``isxn``: the cycle held every barcode in a one-barcode slice). A module no other module's kept code uses and no
kept import loads leaves with its doctest; one that stays (a kept code's import, a module the plan keeps anyway)
has its doctest's names kept. Table comprehensions over literals (``{c: i for i, c in enumerate(CHARS)}``) run
nothing at import: they no longer hold the module that builds them as one with effects."""

from __future__ import annotations

from slimfork.api import analyse
from slimfork.index.build import summary_of
from tests.mapping.registrykit import write_project

INIT = ("from pkg.ean import EAN\nfrom pkg.isxn import ISBN\n\n_MAP = {'ean': EAN, 'isbn': ISBN}\n\n\n"
        "def get(name):\n    return _MAP[name]\n\n\ndef get_barcode(name):\n    return get(name)\n")
ISXN = ('"""ISBN codes.\n\n    >>> from pkg import get_barcode\n    >>> get_barcode("isbn")().code()\n    \'isbn\'\n"""\n'
        "from pkg.ean import EAN\n\n__docformat__ = 'restructuredtext en'\n\n\nclass ISBN(EAN):\n"
        "    def code(self):\n        return 'isbn'\n")
FILES = {
    "pyproject.toml": '[project]\nname = "pkg"\nversion = "1.0"\n',
    "pkg/__init__.py": INIT,
    "pkg/ean.py": "CHARS = 'abc'\nCODES = {c: i for i, c in enumerate(CHARS)}\n\n\nclass EAN:\n    pass\n",
    "pkg/isxn.py": ISXN,
}
SPEC = 'source = "."\nroots = ["pkg.ean:EAN"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _gone(tmp_path, files: dict[str, str], spec: str = SPEC) -> tuple[set, set[str]]:
    stages = analyse(write_project(tmp_path, files, spec) / "slimfork.toml").stages
    return {(p.module, n) for p in stages.symbols.pruned for n in p.names}, \
        {r.module for r in stages.plan.removals if r.module}


def test_a_doctest_of_a_module_only_its_own_cycle_loads_keeps_nothing(tmp_path):
    gone, removed = _gone(tmp_path, FILES)
    assert {("pkg", "get_barcode"), ("pkg", "get"), ("pkg", "_MAP"), ("pkg", "ISBN")} <= gone
    assert "pkg.isxn" in removed


def test_a_loaded_module_keeps_what_its_doctest_uses(tmp_path):
    roots = 'roots = ["pkg.ean:EAN", "pkg.isxn:ISBN"]'
    gone, removed = _gone(tmp_path, FILES, SPEC.replace('roots = ["pkg.ean:EAN"]', roots))
    assert "pkg.isxn" not in removed
    assert not {("pkg", "get_barcode"), ("pkg", "get"), ("pkg", "_MAP")} & gone


def test_a_module_the_plan_keeps_anyway_keeps_its_doctest_names(tmp_path):
    """``pkg.tools`` imports ``isxn`` as a module inside a function the root calls: no name of ``isxn`` is used,
    but the module stays, so its doctest runs (the stage redoes the round with the doctest counted)."""
    files = dict(FILES, **{"pkg/tools.py": "def main():\n    import pkg.isxn\n    return pkg.isxn\n"})
    roots = 'roots = ["pkg.ean:EAN", "pkg.tools:main"]'
    gone, removed = _gone(tmp_path, files, SPEC.replace('roots = ["pkg.ean:EAN"]', roots))
    assert "pkg.isxn" not in removed
    assert not {("pkg", "get_barcode"), ("pkg", "get"), ("pkg", "_MAP")} & gone


def test_a_comprehension_over_literals_runs_nothing_at_import():
    text = (b"A = {c: i for i, c in enumerate('ab')}\nB = [x for x in 'ab' if x]\nC = [f(x) for x in 'ab']\n"
            b"D = {x for x in make()}\n")
    keep = [st.keep for st in summary_of(text).symbols.statements]
    assert keep[0] is None and keep[1] is None and keep[2] and keep[3], keep
