"""A class whose own methods enumerate its namespace (`dir(self)`, `vars(type(self))`, `inspect.getmembers(self)`,
`cls.__dict__`) reaches its methods by names no code spells: they stay, in its subclasses and bases too, narrowed
to the prefix of a `startswith("_on_")` filter in the same function, and are listed as uncertain (session 29's
adversarial round, B1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "intro"\nversion = "1.0"\n',
    "src/intro/__init__.py": "",
    "src/intro/app.py": """
        from intro import handlers, more


        def main():
            return (handlers._Widget().handlers, handlers._Panel().fire(), handlers._Table().hooks(),
                    more._Button().handlers, handlers._Plain()._used(), handlers._Registry.names())
    """,
    "src/intro/handlers.py": """
        import inspect


        class _Widget:
            def __init__(self):
                self.handlers = {}
                for name in dir(self):
                    if name.startswith("_on_"):
                        self.handlers[name[4:]] = getattr(self, name)

            def _on_click(self):
                return "click"

            def _helper(self):
                return "never"


        class _Panel:
            def fire(self):
                return sorted(m() for n, m in inspect.getmembers(self, inspect.ismethod))

            def _open(self):
                return "open"


        class _Table:
            def hooks(self):
                return sorted(f(self) for n, f in vars(type(self)).items() if not n.startswith("__"))

            def _hook_a(self):
                return "a"


        class _Registry:
            @classmethod
            def names(cls):
                return [n for n in cls.__dict__ if callable(getattr(cls, n))]

            def _listed(self):
                return 1


        class _Plain:
            def __init__(self):
                self.__dict__.update(vars(self))  # the instance's own attributes: no method

            def _used(self):
                return 1

            def _unused(self):
                return 2
    """,
    "src/intro/more.py": """
        from intro.handlers import _Widget


        class _Button(_Widget):
            def _on_press(self):
                return "press"

            def _draw(self):
                return "draw"
    """,
}
SPEC = 'source = "."\npackages = ["intro"]\nroots = ["intro.app"]\n\n[symbols]\n'


def test_methods_of_a_class_that_enumerates_its_namespace_stay(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    gone = {n for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {"_Widget._on_click", "_Button._on_press", "_Panel._open", "_Table._hook_a",
                       "_Registry._listed"}
    assert {"_Widget._helper", "_Button._draw", "_Plain._unused"} <= gone  # outside the `_on_` filter; no lookup
    why = [u.why for u in analysis.plan.uncertain if u.what == "methods of intro.more"]
    assert any("_Button._on_press" in w and "dir(self)" in w for w in why)


LOOKUP_FILES = {
    "pyproject.toml": '[project]\nname = "look"\nversion = "1.0"\n',
    "src/look/__init__.py": "",
    "src/look/actions.json": '{"save": "_handle_save"}\n',
    "src/look/app.py": """
        from look import docs


        def main(action, name):
            return docs._Document().do(action), docs._Sub().do(action), docs._Short().run(name), \\
                docs._Events().fire(name)
    """,
    "src/look/docs.py": """
        import json
        import pkgutil


        class _Document:
            def __init__(self):
                self.actions = json.loads(pkgutil.get_data("look", "actions.json"))

            def do(self, action):
                return getattr(self, self.actions[action])()

            def _handle_save(self):
                return "saved"


        class _Sub(_Document):
            def _handle_load(self):
                return "loaded"


        class _Short:
            def run(self, name):
                return getattr(self, "_" + name)()

            def _go(self):
                return "go"


        class _Events:
            def fire(self, event):
                handler = f"_on_{event}"
                return getattr(self, handler)()

            def _on_start(self):
                return "start"

            def _stop(self):
                return "stop"
    """,
}
LOOKUP_SPEC = 'source = "."\npackages = ["look"]\nroots = ["look.app"]\n\n[symbols]\n'


def test_a_fully_computed_getattr_of_self_keeps_the_class_methods(tmp_path):
    analysis = analyse(write_project(tmp_path, LOOKUP_FILES, LOOKUP_SPEC) / "slimfork.toml")
    gone = {n for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {"_Document._handle_save", "_Sub._handle_load", "_Short._go", "_Events._on_start"}
    assert "_Events._stop" in gone  # a literal prefix narrows the lookup to `_on_`
    why = [u.why for u in analysis.plan.uncertain if u.what == "methods of look.docs"]
    assert any("_Sub._handle_load" in w and "getattr(self, self.actions[action])" in w for w in why)
