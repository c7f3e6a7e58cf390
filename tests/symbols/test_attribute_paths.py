"""A literal dotted path applied to a module object, `operator.attrgetter("inner.fns._fn_c")(pkg)` or
`functools.reduce(getattr, "inner.fns._fn_b".split("."), pkg)`, names `pkg.inner.fns:_fn_b` (session 29's
adversarial round, L1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "lpkg"\nversion = "1.0"\n',
    "src/lpkg/__init__.py": "",
    "src/lpkg/inner/__init__.py": "",
    "src/lpkg/inner/fns.py": """
        def _fn_b(x):
            return x


        def _fn_c(x):
            return x


        def _fn_d(x):
            return x


        def _fn_e(x):
            return x
    """,
    "src/lpkg/app.py": """
        import functools
        import operator
        from functools import reduce

        import lpkg
        import lpkg.inner.fns
        from lpkg import inner as sub


        def paths():
            return (functools.reduce(getattr, "inner.fns._fn_b".split("."), lpkg)(2),
                    operator.attrgetter("inner.fns._fn_c")(lpkg)(3),
                    reduce(getattr, ["fns", "_fn_d"], sub)(4))
    """,
}
SPEC = 'source = "."\npackages = ["lpkg"]\nroots = ["lpkg.app"]\n\n[symbols]\n'


def test_a_dotted_path_applied_to_a_module_names_its_symbol(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    gone = {(p.module, n) for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {("lpkg.inner.fns", n) for n in ("_fn_b", "_fn_c", "_fn_d")}
    assert ("lpkg.inner.fns", "_fn_e") in gone
