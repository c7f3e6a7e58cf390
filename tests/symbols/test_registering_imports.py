"""``from . import handlers  # noqa: F401`` loads a module whose classes register themselves when defined (a base
with a metaclass of its own or ``__init_subclass__`` in another module of the tree): the import's name is unused,
but pruning it made the module unreachable and the fork's registry empty (``KeyError: 'JsonHandler'``, exit 0).
Such a module has an effect like a call at its top level, so the import stays; a module of plain classes still
leaves with its unused import."""

from __future__ import annotations

from tests.symbols.forkrun import shrink_and_run_main

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": """
        from .base import Registry
        from . import handlers, plain  # noqa: F401


        def main():
            print(sorted(Registry.classes), Registry.classes["JsonHandler"]().handle())
        """,
    "pkg/base.py": """
        class Registry(type):
            classes = {}

            def __new__(mcs, name, bases, ns):
                cls = super().__new__(mcs, name, bases, ns)
                mcs.classes[name] = cls
                return cls


        class Handler(metaclass=Registry):
            def handle(self):
                return "base"


        class Hooked:
            seen = []

            def __init_subclass__(cls):
                Hooked.seen.append(cls.__name__)
        """,
    "pkg/handlers.py": """
        from .base import Handler, Hooked


        class JsonHandler(Handler):
            def handle(self):
                return "json"


        class _Audit(Hooked):
            pass
        """,
    "pkg/plain.py": "class Point:\n    pass\n",
}


def test_an_import_that_registers_classes_stays(tmp_path):
    for api in ("kept", "roots"):
        result, fork, run = shrink_and_run_main(tmp_path / api, FILES, api)
        assert (run.returncode, run.stdout) == (0, "['Handler', 'JsonHandler'] json\n"), run.stderr
        assert (fork / "pkg/handlers.py").is_file() and "_Audit" in (fork / "pkg/handlers.py").read_text()
        assert not (fork / "pkg/plain.py").exists()  # plain classes: no effect, the unused import goes
        why = result.analysis.stages.symbols.reach.first_use[("pkg.app", "handlers")]
        assert why == "loads pkg.handlers, whose loading has effects (line 4: class JsonHandler: a subclass of a " \
                      "class with __init_subclass__ or a metaclass)"
