"""A package whose modules a name computed at run time imports (SQLAlchemy's dialect loader,
``__import__("sqlalchemy.dialects.%s" % (dialect,))``) is a registry `init` drafts as a `scan` (before, only
directory scans were drafted, so a user had no suggestion for the dialects a SQLite fork does not need); a
decorator whose keys are messages or versions (``@deprecated("1.4", "use x")``, ``@moved("The f() function is now
available as g()")``) registers nothing, so no draft names it."""

from __future__ import annotations

import json

from tests.mapping.registrykit import write_project


FILES = {
    "db/__init__.py": "from db.dialects import load\n",
    "db/dialects/__init__.py": """
        def load(name):
            module = __import__("db.dialects.%s" % (name,)).dialects
            return getattr(module, name).dialect
        """,
    "db/dialects/lite.py": "dialect = 'lite'\n",
    "db/dialects/pg.py": "dialect = 'pg'\n" + "X = 1\n" * 9,
    "db/dialects/my.py": "dialect = 'my'\n",
    "db/util.py": """
        import warnings

        def deprecated(version, message):
            def decorate(fn):
                return _warned(fn, version, message)
            return decorate

        def moved(message):
            return deprecated("2.0", message)

        def _warned(fn, version, message):
            def inner(*a, **k):
                warnings.warn(message)
                return fn(*a, **k)
            return inner
        """,
    "db/api.py": """
        from db.util import deprecated

        @deprecated("1.4", "use new_a")
        def old_a():
            pass

        @deprecated("2.1", "use new_b")
        def old_b():
            pass

        @deprecated("2.1", "use new_c")
        def old_c():
            pass
        """,
    "db/moved.py": """
        from db.util import moved

        @moved("The ``a()`` function is now available as ``db.a``")
        def a():
            pass

        @moved("The ``b()`` function is now available as ``db.b``")
        def b():
            pass
        """,
    "tests/test_db.py": "import db\n",
}


def test_computed_import_under_a_package_is_a_scan_registry(tmp_path, capsys):
    from slimfork.cli import main

    root = write_project(tmp_path, FILES, "")
    (root / "slimfork.toml").unlink()
    assert main(["init", str(root), "--out", str(tmp_path / "d.toml"), "--json"]) == 0
    draft = json.loads(capsys.readouterr().out)
    regs = {(r["kind"], r["package"]): r for r in draft["registries"]}
    assert sorted(regs[("scan", "db.dialects")]["entries"]) == ["lite", "my", "pg"]
    assert regs[("scan", "db.dialects")]["entries"]["pg"] == 10
    assert not [r for r in draft["registries"] if r["kind"] == "decorator"]
