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
