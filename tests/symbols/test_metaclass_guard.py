"""A metaclass of the tree whose ``__init__`` registers only under a guard on the class body (PyYAML's
``YAMLObjectMetaclass``: ``if 'yaml_tag' in kwds and kwds['yaml_tag'] is not None``) registers nothing for a class
whose body makes the guard false (``YAMLObject`` sets ``yaml_tag = None``): that class, and the dumper its body
names, go when nothing else needs them (session 36's depth round). A body that sets the tag, a guard the check
cannot read, a metaclass with ``__new__``, a class with a base, or a subclass still keep the class."""

from __future__ import annotations

import ast

import pytest

from slimfork.api import analyse
from slimfork.index.metaclass_guard import silent_metaclass_classes
from tests.mapping.registrykit import write_project

META = '''
class Meta(type):
    """Registers tagged classes."""
    def __init__(cls, name, bases, kwds):
        super(Meta, cls).__init__(name, bases, kwds)
        if 'tag' in kwds and kwds['tag'] is not None:
            cls.loader.add(cls.tag, cls)
            cls.dumper.add(cls, cls.tag)
'''

FILES = {
    "pyproject.toml": '[project]\nname = "yl"\nversion = "1.0"\n',
    "src/yl/__init__.py": "from yl.loader import Loader\nfrom yl.dumper import Dumper\n" + META + '''

class Object(metaclass=Meta):
    loader = Loader
    dumper = Dumper
    tag = None
''',
    "src/yl/loader.py": "class Loader:\n    table = {}\n\n    @classmethod\n    def add(cls, tag, c):\n"
                        "        cls.table[tag] = c\n",
    "src/yl/dumper.py": "class Dumper:\n    table = {}\n\n    @classmethod\n    def add(cls, c, tag):\n"
                        "        cls.table[c] = tag\n",
    "src/yl/app.py": "from yl.loader import Loader\n\n\ndef tags():\n    return sorted(Loader.table)\n",
}

SPEC = 'source = "."\npackages = ["yl"]\nroots = ["yl.app"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'


def _gone(tmp_path, files):
    stage = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml").stages.symbols
    return {(p.module, n) for p in stage.pruned for n in p.names}, stage


def test_a_class_whose_body_makes_the_guard_false_goes_with_what_it_names(tmp_path):
    gone, _ = _gone(tmp_path, FILES)
    assert {("yl", "Object"), ("yl", "Meta"), ("yl", "Dumper")} <= gone


def test_a_body_that_sets_the_tag_keeps_the_class(tmp_path):
    files = dict(FILES)
    files["src/yl/__init__.py"] = files["src/yl/__init__.py"].replace("tag = None", "tag = '!obj'")
    gone, stage = _gone(tmp_path, files)
    assert ("yl", "Object") not in gone and ("yl", "Dumper") not in gone
    assert "metaclass Meta may register" in stage.reach.first_use[("yl", "Object")]


def test_a_subclass_without_a_tag_still_counts_as_registering(tmp_path):
    files = dict(FILES)
    files["src/yl/__init__.py"] += "\n\nclass _Point(Object):\n    tag = '!point'\n"
    gone, _ = _gone(tmp_path, files)
    assert ("yl", "_Point") not in gone and ("yl", "Object") not in gone


def _silent(source: str) -> bool:
    tree = ast.parse(source)
    return bool(silent_metaclass_classes(tree))


@pytest.mark.parametrize("body", [
    "tag = None", "tag = None\nloader = 1", "pass",
])
def test_guards_read_false(body):
    assert _silent(META + "\nclass A(metaclass=Meta):\n" + "".join(f"    {x}\n" for x in body.split("\n")))


@pytest.mark.parametrize("case", [
    # the tag set, or set in a way the body does not show as a literal
    "class A(metaclass=Meta):\n    tag = 'x'\n",
    "class A(metaclass=Meta):\n    tag = make()\n",
    "class A(metaclass=Meta):\n    if flag:\n        tag = 'x'\n",
    "class A(metaclass=Meta):\n    tag = None\n    tag = 'x'\n",
    "class A(metaclass=Meta):\n    tag: str\n",
    "class A(metaclass=Meta):\n    locals()['tag'] = 'x'\n",
    # a base may bring another metaclass or a hook; a keyword goes to the metaclass
    "class A(Base, metaclass=Meta):\n    tag = None\n",
    "class A(metaclass=Meta, extra=1):\n    tag = None\n",
])
def test_what_the_check_cannot_read_keeps_the_class(case):
    assert not _silent(META + "\n" + case)


@pytest.mark.parametrize("meta", [
    META.replace("if 'tag' in kwds and kwds['tag'] is not None", "if kwds.get('tag') is not None or name")
    .replace("super(Meta, cls).__init__(name, bases, kwds)", "REG.append(cls)"),
    META + "    def __new__(mcs, name, bases, kwds):\n        return super().__new__(mcs, name, bases, kwds)\n",
    META.replace("class Meta(type)", "class Meta(Base)"),
    META.replace("if 'tag' in kwds and kwds['tag'] is not None", "if hasattr(cls, 'tag')"),
    META + "\nMeta = other\n",
])
def test_a_metaclass_the_check_cannot_read_keeps_its_classes(meta):
    assert not _silent(meta + "\nclass A(metaclass=Meta):\n    tag = None\n")
