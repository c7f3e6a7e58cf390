"""A registry that walks a base's ``__subclasses__()`` finds private subclasses no code names: they stay, with the
subclasses of those (the walk recurses), while a class of another hierarchy may go; a walk over a computed base
(``cls`` of a helper, ``type(self)``) keeps every subclass (session 30's adversarial round, B1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

READERS = """
    class Reader:
        kind = None


    class _Csv(Reader):
        kind = "csv"


    class _Pipe(_Csv):
        kind = "pipe"


    class _Other:
        pass


    class _OtherChild(_Other):
        pass


    def reader_for(kind):
        for c in {walk}:
            if c.kind == kind:
                return c()
"""
HELPER = """

    def _all(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from _all(sub)
"""


def _pruned(tmp_path, walk: str, extra: str = "") -> set[tuple[str, str]]:
    files = {
        "pyproject.toml": '[project]\nname = "wpkg"\nversion = "1.0"\n',
        "src/wpkg/__init__.py": "",
        "src/wpkg/readers.py": READERS.replace("{walk}", walk) + extra,
        "src/wpkg/app.py": "from wpkg.readers import reader_for\n\n\ndef main(k):\n    return reader_for(k)\n",
    }
    spec = 'source = "."\npackages = ["wpkg"]\nroots = ["wpkg.app"]\n\n[symbols]\n'
    analysis = analyse(write_project(tmp_path, files, spec) / "slimfork.toml")
    return {(p.module, n) for p in analysis.stages.symbols.pruned for n in p.names}


def test_the_subclasses_of_a_walked_base_stay(tmp_path):
    gone = _pruned(tmp_path, "Reader.__subclasses__() + _Csv.__subclasses__()")
    assert not gone & {("wpkg.readers", "_Csv"), ("wpkg.readers", "_Pipe")}
    assert {("wpkg.readers", "_Other"), ("wpkg.readers", "_OtherChild")} <= gone


def test_a_walk_over_a_computed_base_keeps_every_subclass(tmp_path):
    gone = _pruned(tmp_path, "_all(Reader)", HELPER)
    assert not gone & {("wpkg.readers", n) for n in ("_Csv", "_Pipe", "_OtherChild")}


def test_without_a_walk_the_private_subclasses_go(tmp_path):
    gone = _pruned(tmp_path, "[Reader]")
    assert {("wpkg.readers", "_Csv"), ("wpkg.readers", "_Pipe")} <= gone
