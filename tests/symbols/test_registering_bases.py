"""A class whose base comes from another distribution may register itself when it is defined (SQLAlchemy's
declarative models, Django's `models.Model`): unknown means keep, even a private class nothing names. Bases of the
standard library and of known plain distributions (torch, pydantic, ...) register nothing, so such a class still
goes when unused (session 28's adversarial round, E1)."""

from __future__ import annotations

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "reg"\nversion = "1.0"\n',
    "vendor/ormlite.py": "REGISTRY = []\n\n\nclass Model:\n    def __init_subclass__(cls):\n"
                         "        REGISTRY.append(cls)\n",
    "src/reg/__init__.py": "",
    "src/reg/app.py": "import ormlite\n\nfrom reg import tables  # noqa: F401\n\n\ndef main():\n"
                      "    return ormlite.REGISTRY\n",
    "src/reg/tables.py": """
        import json

        import ormlite


        class _AuditLog(ormlite.Model):
            pass


        class _Encoder(json.JSONEncoder):
            pass
    """,
}


def test_a_class_of_a_third_party_base_stays_and_a_stdlib_one_goes(tmp_path):
    spec = 'source = "."\npackages = ["reg"]\nroots = ["reg.app"]\n\n[symbols]\n'
    stage = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml").stages.symbols
    gone = {(p.module, n) for p in stage.pruned for n in p.names}
    assert ("reg.tables", "_Encoder") in gone and ("reg.tables", "_AuditLog") not in gone
    assert "its base ormlite.Model" in stage.reach.first_use[("reg.tables", "_AuditLog")]


META_FILES = {
    "pyproject.toml": '[project]\nname = "reg"\nversion = "1.0"\n',
    "src/reg/__init__.py": "",
    "src/reg/meta.py": """
        class Meta(type):
            registry = {}

            def __new__(mcs, name, bases, ns):
                cls = super().__new__(mcs, name, bases, ns)
                if bases:
                    Meta.registry[name] = cls
                return cls


        Base = Meta("Base", (), {})


        def with_metaclass(meta, *bases):
            return meta("_tmp", bases or (object,), {})
    """,
    "src/reg/plugins.py": """
        from reg.meta import Base, Meta, with_metaclass


        class _Csv(Base):
            pass


        class _Mid(Base):
            pass


        class _Leaf(_Mid):
            pass


        class _Xml(with_metaclass(Meta)):
            pass


        class _Plain:
            pass
    """,
    "src/reg/app.py": "from reg import meta, plugins  # noqa: F401\n\n\ndef names():\n"
                      "    return sorted(meta.Meta.registry)\n",
}


def test_a_base_made_by_calling_a_metaclass_keeps_its_subclasses(tmp_path):
    """C2 of session 29: `Base = Meta("Base", (), {})` and `class X(with_metaclass(Meta))` have a metaclass no
    `metaclass=` keyword shows; a base bound to a call (or a call itself) does not resolve, so its subclasses stay."""
    spec = 'source = "."\npackages = ["reg"]\nroots = ["reg.app"]\n\n[symbols]\n'
    stage = analyse(write_project(tmp_path, META_FILES, spec) / "slimfork.toml").stages.symbols
    gone = {(p.module, n) for p in stage.pruned for n in p.names}
    assert not gone & {("reg.plugins", n) for n in ("_Csv", "_Mid", "_Leaf", "_Xml")}
    assert ("reg.plugins", "_Plain") in gone
    assert "cannot resolve" in stage.reach.first_use[("reg.plugins", "_Leaf")]
