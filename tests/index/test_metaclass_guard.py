"""A class whose own metaclass registers only under a guard on the class body, and whose body makes the guard false,
registers nothing when created (PyYAML's ``YAMLObjectMetaclass``: ``if 'yaml_tag' in kwds and kwds['yaml_tag'] is
not None``, ``YAMLObject`` sets ``yaml_tag = None``): it no longer stays for its metaclass, and what its body names
(PyYAML's ``yaml_dumper = Dumper``: the whole dumper) can go with it. Its subclasses still count as registering.
Anything the evaluation does not know keeps the old rule."""

from __future__ import annotations

import ast
import subprocess
import sys

from slimfork.index.metaclass_guard import silent_metaclass_classes

META = (
    "class Meta(type):\n"
    "    '''Registers tagged classes.'''\n"
    "    def __init__(cls, name, bases, kwds):\n"
    "        super(Meta, cls).__init__(name, bases, kwds)\n"
    "        if {guard}:\n"
    "            REGISTRY[kwds['tag']] = cls\n"
    "\n"
    "REGISTRY = {{}}\n"
    "\n"
)


def _silent(body: str, guard: str = "'tag' in kwds and kwds['tag'] is not None", meta: str = META,
            header: str = "class Base(metaclass=Meta):") -> bool:
    tree = ast.parse(meta.format(guard=guard) + header + "\n" + body)
    return len(tree.body) - 1 in silent_metaclass_classes(tree)


def test_a_false_guard_registers_nothing():
    assert _silent("    tag = None\n    dumper = object\n")
    assert _silent("    other = 1\n")  # 'tag' not in kwds
    assert _silent("    tag = None\n", guard="kwds.get('tag') is not None")
    assert _silent("    pass\n", guard="kwds.get('tag')")
    assert _silent("    tag = ''\n", guard="kwds.get('tag', 'x')")
    assert _silent("    tag = None\n", guard="not ('tag' not in kwds or kwds['tag'] is None)")


def test_what_is_not_known_may_register():
    assert not _silent("    tag = '!point'\n")  # the guard is true
    assert not _silent("    if FLAG:\n        tag = None\n")  # bound conditionally
    assert not _silent("    tag = None\n    tag = make()\n")  # bound twice
    assert not _silent("    tag = compute()\n")  # not a literal
    assert not _silent("    tag = None\n    locals()['tag'] = 'x'\n")  # the namespace written otherwise
    assert not _silent("    tag = None\n", guard="kwds['other']")  # would raise: not known
    assert not _silent("    tag = None\n", guard="check(kwds)")  # a call
    assert not _silent("    tag = None\n", guard="'tag' in kwds and kwds['tag'] is not None or name")
    assert not _silent("    tag = None\n", header="class Base(Parent, metaclass=Meta):")  # a base: its metaclass
    assert not _silent("    tag = None\n", header="class Base(metaclass=Meta, flag=True):")
    # the metaclass does more than the guarded block, or creates the class itself
    more = META.replace("        super(Meta, cls)", "        LOG.append(name)\n        super(Meta, cls)")
    assert not _silent("    tag = None\n", meta=more)
    new = META.replace("    def __init__", "    def __new__(mcs, *a):\n        return super().__new__(mcs, *a)\n"
                                           "    def __init__")
    assert not _silent("    tag = None\n", meta=new)
    prepare = META.replace("    def __init__", "    @classmethod\n    def __prepare__(mcs, *a):\n"
                                               "        return {{'tag': 'x'}}\n    def __init__")
    assert not _silent("    tag = None\n", meta=prepare)
    other_base = META.replace("class Meta(type)", "class Meta(Registering)")
    assert not _silent("    tag = None\n", meta=other_base)
    rebound = META + "Meta = make_meta()\n"
    assert not _silent("    tag = None\n", meta=rebound)


def test_the_class_goes_with_what_its_body_names(tmp_path):
    from slimfork.api import shrink
    from tests.mapping.registrykit import write_project

    files = {
        "pyproject.toml": '[project]\nname = "ypkg"\nversion = "1.0"\n',
        "ypkg/__init__.py": "",
        "ypkg/dumper.py": "class Dumper:\n    registry = {}\n",
        "ypkg/loader.py": "class Loader:\n    registry = {}\n\n\ndef load(tag):\n    return Loader.registry[tag]\n",
        "ypkg/objects.py": """
            from ypkg.dumper import Dumper
            from ypkg.loader import Loader


            class ObjectMeta(type):
                def __init__(cls, name, bases, kwds):
                    super(ObjectMeta, cls).__init__(name, bases, kwds)
                    if 'tag' in kwds and kwds['tag'] is not None:
                        cls.loader.registry[cls.tag] = cls
                        cls.dumper.registry[cls] = cls.tag


            class Object(metaclass=ObjectMeta):
                loader = Loader
                dumper = Dumper
                tag = None


            class Point(Object):
                tag = '!point'


            def helper():
                return 1
        """,
        "ypkg/cli.py": """
            import ypkg.objects
            from ypkg.loader import load


            def main():
                return load('!point').__name__
        """,
    }
    spec = 'source = "."\nroots = ["ypkg.cli"]\n\n[symbols]\npublic_api = "roots"\npackage_api = false\n'
    root = write_project(tmp_path, files, spec)
    shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    text = (tmp_path / "fork/ypkg/objects.py").read_text()
    # the subclass registers (its tag is set): it stays, and with it its base and the metaclass
    assert "class Point" in text and "class Object" in text and "def helper" not in text
    run = subprocess.run([sys.executable, "-c", "from ypkg import cli; print(cli.main())"], cwd=tmp_path / "fork",
                         capture_output=True, text=True)
    assert run.stdout.strip() == "Point", run.stderr

    # without the tagged subclass, the base registers nothing: it goes, and the dumper its body names with it
    files["ypkg/objects.py"] = files["ypkg/objects.py"].replace("class Point(Object):\n                tag = '!point'",
                                                                "POINT = 1")
    files["ypkg/cli.py"] = "import ypkg.objects\nfrom ypkg.loader import Loader\n\n\ndef main():\n    " \
                           "return sorted(Loader.registry)\n"
    root = write_project(tmp_path / "b", files, spec)
    shrink(root / "slimfork.toml", tmp_path / "fork-b", verify=False)
    text = (tmp_path / "fork-b/ypkg/objects.py").read_text()
    assert "class Object" not in text and "ObjectMeta" not in text, text
    assert not (tmp_path / "fork-b/ypkg/dumper.py").exists()
    run = subprocess.run([sys.executable, "-c", "from ypkg import cli; print(cli.main())"], cwd=tmp_path / "fork-b",
                         capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stderr
