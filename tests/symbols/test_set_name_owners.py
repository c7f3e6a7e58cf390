"""A class whose body creates a descriptor of the project whose `__set_name__` may register the owner
(`when = Field()`) runs that code when it is defined: it stays, like a decorated class, also when the
descriptor's `__set_name__` is inherited or the call is nested; a class body calling anything else may still go
(session 29's adversarial round, C1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "clsreg"\nversion = "1.0"\n',
    "src/clsreg/__init__.py": "",
    "src/clsreg/fields.py": """
        REGISTRY = {}


        class Field:
            def __set_name__(self, owner, name):
                REGISTRY.setdefault(owner.__name__, []).append(name)


        class IntField(Field):
            pass


        def wrap(field):
            return field


        def registered():
            return sorted(REGISTRY)
    """,
    "src/clsreg/models.py": """
        from clsreg import fields
        from clsreg.fields import Field, IntField


        class _AuditRow:
            when = Field()


        class _Counter:
            n = IntField()


        class _Wrapped:
            y = fields.wrap(fields.Field())


        class _Plain:
            x = int("3")
    """,
    "src/clsreg/app.py": """
        from clsreg import fields, models  # noqa: F401


        def owners():
            return fields.registered()
    """,
}
SPEC = 'source = "."\npackages = ["clsreg"]\nroots = ["clsreg.app"]\n\n[symbols]\n'


def test_a_class_whose_body_creates_a_set_name_descriptor_stays(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml")
    gone = {(p.module, n) for p in analysis.stages.symbols.pruned for n in p.names}
    assert not gone & {("clsreg.models", n) for n in ("_AuditRow", "_Counter", "_Wrapped")}
    assert ("clsreg.models", "_Plain") in gone
    assert "__set_name__" in analysis.stages.symbols.reach.first_use[("clsreg.models", "_Counter")]
