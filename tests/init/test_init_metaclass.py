"""`slimfork init` on subclass registries a metaclass fills (sqlglot's ``class Dialect(metaclass=_Dialect)``), and
on subclasses of subclasses: the draft lists every class the cut would match, so a draft accepted as written
keeps them all."""

from __future__ import annotations

import json
import re

from tests.mapping.registrykit import write_project

from slimfork.api import shrink
from slimfork.cli import main

FILES = {
    "pkg/__init__.py": "",
    "pkg/base.py": """
        class _Meta(type):
            classes = {}

            def __new__(cls, name, bases, attrs):
                klass = super().__new__(cls, name, bases, attrs)
                cls.classes[name.lower()] = klass
                return klass


        class Dialect(metaclass=_Meta):
            pass


        class Other(metaclass=type):
            pass
        """,
    "pkg/alpha.py": """
        from pkg.base import Dialect


        class Alpha(Dialect):
            pass
        """,
    "pkg/exprs.py": """
        from pkg.base import Dialect


        class Generator(Dialect):
            pass
        """,
    "pkg/gen.py": """
        class Generator:
            pass


        class SqlGenerator(Generator):  # another Generator's subclass
            pass
        """,
    "pkg/beta.py": """
        from pkg.alpha import Alpha


        class Beta(Alpha):
            word = "b"
        """,
}


def test_a_metaclass_registry_is_drafted_with_subclasses_of_subclasses(tmp_path, capsys):
    root = write_project(tmp_path, FILES, 'source = "."\nroots = ["pkg.**"]\n')
    out = tmp_path / "draft.toml"
    assert main(["init", str(root), "--out", str(out), "--json"]) == 0
    regs = {(r["kind"], r["package"]): r for r in json.loads(capsys.readouterr().out)["registries"]}
    reg = regs[("subclass", "pkg.base.Dialect")]
    assert reg["entries"] == {"Alpha": 2, "Beta": 2, "Generator": 2}
    assert "metaclass" in reg["where"]
    assert not any(p == "pkg.base.Other" for _, p in regs)  # a metaclass that registers nothing
    accepted = tmp_path / "accepted.toml"
    accepted.write_text(re.sub(r"^# ", "", out.read_text(), flags=re.M))
    shrink(accepted, tmp_path / "fork", verify=False)
    assert "class Beta" in (tmp_path / "fork/pkg/beta.py").read_text()  # accepted as written: nothing leaves
