"""A decorator of the project that only tags what it decorates (workalendar 17.0.0's ``iso_register``: a factory
whose wrapper sets ``cls.__iso_code`` and returns ``cls``) registers nothing: a calendar class it decorates leaves
when no kept code uses it. Before, every ``@iso_register('AT')`` class "may register" and a fork of France and
Germany kept all 113 calendar modules unless the spec declared ``pure_decorators``. A decorator that stores the class
elsewhere, or any second decorator that may, still keeps the class."""

from __future__ import annotations

import ast

from slimfork.api import analyse
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "tag"\nversion = "1.0"\n',
    "tag/__init__.py": "",
    "tag/tools.py": """
        REGISTRY = []


        def iso_register(code):
            \"\"\"Tags the class with its code.\"\"\"
            def wrapper(cls):
                cls.code = (code, cls.__name__)
                return cls
            return wrapper


        def register(cls):
            REGISTRY.append(cls)
            return cls
    """,
    "tag/cal.py": """
        from tag import tools
        from tag.tools import iso_register, register


        @iso_register('FR')
        class France:
            pass


        @iso_register('AT')
        class Austria:
            pass


        @register
        class Belgium:
            pass


        @iso_register('DE')
        @tools.register
        class Germany:
            pass
    """,
}
SPEC = 'source = "."\nroots = ["tag.cal:France"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def test_a_class_only_tagged_goes_and_a_registered_one_stays(tmp_path):
    stages = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert ("tag.cal", "Austria") in gone
    assert not {("tag.cal", "France"), ("tag.cal", "Belgium"), ("tag.cal", "Germany")} & gone


def test_what_tags_only():
    from slimfork.index.tagging_decorators import tags_only

    def first(text: str) -> ast.stmt:
        return ast.parse(text).body[0]

    assert tags_only(first("def mark(cls):\n    cls.marked = True\n    return cls\n"))
    assert not tags_only(first("def mark(cls):\n    cls.marked = make()\n    return cls\n"))  # a call
    assert not tags_only(first("def mark(cls):\n    OTHER.x = cls\n    return cls\n"))
    assert not tags_only(first("def mark(cls):\n    cls.marked = True\n    return wrap(cls)\n"))
    assert not tags_only(first("def f(code):\n    def w(cls):\n        SEEN[code] = cls\n        return cls\n"
                               "    return w\n"))


def test_a_table_of_dates_runs_nothing_at_import(tmp_path):
    """workalendar's ``cayman_islands.py``: ``QUEENS_BIRTHDAY_EXCEPTIONS = {2013: date(2013, 6, 17), ...}`` "ran code
    at import" and kept the Cayman Islands' calendar in a fork of France; ``date``, ``timedelta``, ``Decimal`` and
    ``Fraction`` of the standard library construct a value and run nothing else."""
    files = {**FILES, "tag/cal.py": FILES["tag/cal.py"].replace(
        "from tag import tools\n", "from datetime import date, timedelta\n        from tag import tools\n"
        "        EXCEPTIONS = {2013: date(2013, 6, 17), 'gap': timedelta(days=1)}\n")
        .replace("class Austria:\n            pass", "class Austria:\n            days = EXCEPTIONS")}
    stages = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml").stages
    gone = {(p.module, n) for p in stages.symbols.pruned for n in p.names}
    assert {("tag.cal", "Austria"), ("tag.cal", "EXCEPTIONS")} <= gone
