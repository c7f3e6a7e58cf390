"""A module that reaches its own namespace through the import machinery, `importlib.import_module(__name__)` or
`pkgutil.resolve_name(f"{__name__}:_impl_{kind}")`, looks its names up at run time: every name stays (those of
the literal prefix after the colon, when there is one), and the place is listed as uncertain (session 29's
adversarial round, N1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "npkg"\nversion = "1.0"\n',
    "src/npkg/__init__.py": "",
    "src/npkg/app.py": """
        from npkg import ops, selfimp, joined


        def main(kind, name):
            return ops.run(kind, 1), selfimp.run(name, 2), joined.run(name, 3)
    """,
    "src/npkg/ops.py": """
        import pkgutil


        def _impl_fast(x):
            return x * 10


        def _impl_slow(x):
            return x + 1


        def _other(x):
            return x


        def run(kind, x):
            return pkgutil.resolve_name(f"{__name__}:_impl_{kind}")(x)
    """,
    "src/npkg/selfimp.py": """
        import importlib


        def _via_self_import(x):
            return -x


        def run(name, x):
            return getattr(importlib.import_module(__name__), name)(x)
    """,
    "src/npkg/joined.py": """
        from pkgutil import resolve_name


        def _any(x):
            return x


        def run(name, x):
            return resolve_name(__name__ + ":" + name)(x)
    """,
}
SPEC = 'source = "."\npackages = ["npkg"]\nroots = ["npkg.app"]\n\n[symbols]\n'


def test_a_module_that_imports_itself_by_name_keeps_its_names(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    gone = {(p.module, n) for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {("npkg.ops", "_impl_fast"), ("npkg.ops", "_impl_slow"), ("npkg.selfimp", "_via_self_import"),
                       ("npkg.joined", "_any")}
    assert ("npkg.ops", "_other") in gone
    places = {u.path for u in analysis.plan.uncertain if u.what.startswith("symbols of")}
    assert {"src/npkg/ops.py", "src/npkg/selfimp.py", "src/npkg/joined.py"} <= places
