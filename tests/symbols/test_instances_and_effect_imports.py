"""Module-level instances of plain classes whose bases come from another module (textdistance 4.6.3: ``mra =
MRA()`` where ``MRA`` derives from ``BaseSimilarity`` of ``algorithms/base.py``, each algorithm module star-imported
by the package): the instance is no effect when the imported base is a plain class of its own module too, so a
module none of whose names the roots use leaves the fork with its star import. A base whose ``__init__`` registers
the instance, or one the tree does not define, keeps the instance and its module."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

BASE = """
class Base:
    def __init__(self, qval=1):
        self.qval = qval

    def distance(self, a, b):
        return self(a, b)


class BaseSimilarity(Base):
    def similarity(self, a, b):
        return 1 - self.distance(a, b)
"""
FILES = {
    "pkg/__init__.py": "from .algorithms import *\n",
    "pkg/algorithms/__init__.py": "from .edit import *\nfrom .phonetic import *\n",
    "pkg/algorithms/base.py": BASE,
    "pkg/algorithms/edit.py": """
        from .base import Base as _Base

        __all__ = ["Hamming", "hamming"]


        class Hamming(_Base):
            def __call__(self, a, b):
                return sum(x != y for x, y in zip(a, b))


        hamming = Hamming()
        """,
    "pkg/algorithms/phonetic.py": """
        from .base import BaseSimilarity as _BaseSimilarity

        __all__ = ["MRA", "mra"]


        class MRA(_BaseSimilarity):
            def __init__(self, qval=2):
                super().__init__(qval=qval)

            def __call__(self, a, b):
                return abs(len(a) - len(b))


        mra = MRA()
        """,
    "pkg/cli.py": "import sys\n\nfrom pkg import hamming\n\nprint(hamming(sys.argv[1], sys.argv[2]))\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg:hamming", "pkg.cli"]

[symbols]
public_api = "roots"
package_api = false
"""


def test_instances_of_classes_with_plain_imported_bases_are_no_effects(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/algorithms/phonetic.py" in {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/algorithms/phonetic.py").exists()
    assert "phonetic" not in (result.out / "pkg/algorithms/__init__.py").read_text()
    run = [sys.executable, "-m", "pkg.cli", "abc", "abd"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "1\n"


def test_a_registering_or_unknown_base_keeps_the_instance(tmp_path):
    registering = BASE.replace("        self.qval = qval\n", "        self.qval = qval\n        REGISTRY.append(self)\n")
    for base in ("REGISTRY = []\n" + registering, "from collections import Counter as Base\n\n\n"
                 "class BaseSimilarity(Base):\n    pass\n"):
        files = {**FILES, "pkg/algorithms/base.py": base}
        project = tmp_path / str(len(base))
        root = write_project(project, files, SPEC)
        analysis = analyse(root / "slimfork.toml")
        assert "pkg/algorithms/phonetic.py" not in {r.path for r in analysis.plan.removals}


def test_module_aliases_of_known_pure_calls_and_a_lookup_proxy(tmp_path):
    """pydash 8.1.0 writes ``import typing as t``, ``T = t.TypeVar("T")`` and ``@t.overload``: the alias spells the
    known pure call and decorator, so neither keeps its definitions (every overloaded function of pydash stayed,
    "decorated by @t.overload, which may register it"). Its package ``__init__`` binds ``py_ = _Dash()``, a class of
    another module with only a ``__getattr__`` (no ``__init__`` runs, so no lookup does): no effect either."""
    files = {
        "pkg/__init__.py": "from .chain import _Dash\nfrom .strings import camel, kebab\n\npy_ = _Dash()\n",
        "pkg/chain.py": "class _Dash(object):\n    def __getattr__(self, attr):\n        return attr.upper()\n",
        "pkg/strings.py": """
            import typing as t

            T = t.TypeVar("T")


            def camel(text: str) -> str:
                return text.title().replace("_", "")


            @t.overload
            def kebab(text: str) -> str: ...


            @t.overload
            def kebab(text: bytes) -> bytes: ...


            def kebab(text):
                return text.replace("_", "-")
            """,
        "pkg/cli.py": "import sys\n\nfrom pkg import camel\n\nprint(camel(sys.argv[1]))\n",
    }
    root = write_project(tmp_path, files, SPEC.replace('"pkg:hamming", ', '"pkg:camel", '))
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    strings = (result.out / "pkg/strings.py").read_text()
    assert "def camel" in strings and "kebab" not in strings and "TypeVar" not in strings
    init = (result.out / "pkg/__init__.py").read_text()
    assert "py_" not in init and not (result.out / "pkg/chain.py").exists()
    run = [sys.executable, "-m", "pkg.cli", "a_b"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "AB\n"


def test_a_lookup_hook_with_an_init_or_as_a_base_keeps_the_instance(tmp_path):
    """A ``__getattr__`` runs where an ``__init__`` reads a missing attribute of ``self``: an instance of such a
    class, or of a subclass of a class with that hook, stays."""
    hooked = "class _Dash(object):\n    def __getattr__(self, attr):\n        return attr\n\n\n"
    for chain in (hooked.replace("object", "Proxy").replace("class _Dash", "class Proxy(object):\n    pass\n\n\n"
                                                                         "class _Dash")
                  + "    def __init__(self, x=1):\n        self.x = self.y\n",
                  hooked + "class Sub(_Dash):\n    def __init__(self):\n        self.x = self.y\n"):
        made = "_Dash" if "Sub" not in chain else "Sub"
        files = {"pkg/__init__.py": f"from .chain import {made}\nfrom .strings import camel\n\npy_ = {made}()\n",
                 "pkg/chain.py": chain,
                 "pkg/strings.py": "def camel(text):\n    return text.title()\n"}
        project = tmp_path / str(len(chain))
        root = write_project(project, files, SPEC.replace('"pkg:hamming", "pkg.cli"', '"pkg:camel"'))
        analysis = analyse(root / "slimfork.toml")
        assert "pkg/chain.py" not in {r.path for r in analysis.plan.removals}


def test_one_name_of_an_import_loads_a_module_with_effects(tmp_path):
    """pydash 8.1.0's ``from .strings import (camel_case, ..., kebab_case)`` loads a module whose import runs code
    (``JS_RE_WORDS = JSRegExp(...)``): the statement stays for that, but one of its names is enough, so the others
    (and what only they use) go; an attribute set on one of the module's own plain functions
    (``round_._argcount = 1``, after ``@overload`` stubs) is no effect either: it stays with the function."""
    files = {
        "pkg/__init__.py": "from .strings import camel, kebab, snake\nfrom .numbers import add, round_\n",
        "pkg/strings.py": """
            import re


            class Pattern:
                def __init__(self, text):
                    self.pattern = re.compile(text.strip("/"))


            WORDS = Pattern("/[a-z]+/")


            def camel(text):
                return "".join(w.title() for w in WORDS.pattern.findall(text))


            def kebab(text):
                return "-".join(WORDS.pattern.findall(text))


            def snake(text):
                return "_".join(WORDS.pattern.findall(text))
            """,
        "pkg/numbers.py": """
            import typing as t


            def add(a, b):
                return a + b


            @t.overload
            def round_(x: int) -> int: ...


            @t.overload
            def round_(x: float) -> float: ...


            def round_(x):
                return round(x)


            round_._argcount = 1
            """,
        "pkg/cli.py": "import sys\n\nfrom pkg import camel\n\nprint(camel(sys.argv[1]))\n",
    }
    root = write_project(tmp_path, files, SPEC.replace('"pkg:hamming", ', '"pkg:camel", '))
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    strings = (result.out / "pkg/strings.py").read_text()
    assert "def camel" in strings and "WORDS = Pattern" in strings and "kebab" not in strings
    assert "kebab" not in (result.out / "pkg/__init__.py").read_text()
    assert not (result.out / "pkg/numbers.py").exists()
    run = [sys.executable, "-m", "pkg.cli", "ab cd"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "AbCd\n"


RULE = """
class Rule(dict[int, int]):
    def __add__(self, other):
        return Rule({**self, **other})
"""


@pytest.mark.parametrize("rule, removed", [(RULE, True), ("dict = list\n" + RULE, False),
                                           (RULE.replace("    def __add__", "    def __init_subclass__"), False)],
                         ids=["builtin-base", "rebound-builtin", "hooked"])
def test_instances_of_builtin_container_subclasses(tmp_path, rule, removed):
    """holidays 0.109: ``NATIONAL_DAY_RULE = ObservedRule({MON: +1, ...})`` in each country module, where
    ``ObservedRule(dict[int, int | None])`` defines no ``__init__``: building it copies a literal, no effect, so
    the country module none of whose names the roots use leaves with its import."""
    files = {
        "pkg/__init__.py": "from .one import One\nfrom .two import Two\n",
        "pkg/rules.py": rule,
        "pkg/one.py": "class One:\n    pass\n",
        "pkg/two.py": "from .rules import Rule\n\nSHIFT = Rule({0: 1, 6: -1})\n\n\nclass Two:\n    pass\n",
        "pkg/cli.py": "from pkg import One\n\nprint(One.__name__)\n",
    }
    root = write_project(tmp_path, files, SPEC.replace('"pkg:hamming", ', '"pkg:One", '))
    analysis = analyse(root / "slimfork.toml")
    assert ("pkg/two.py" in {r.path for r in analysis.plan.removals}) is removed


def test_builtin_calls_on_literals_are_no_effects(tmp_path):
    """holidays' ``calendars/germany_school.py``: ``(AUTUMN_BREAK, ..., SUMMER_BREAK) = range(6)`` then a table: a
    builtin that only computes (``range``, ``sorted``, ``max``, ``len``...) runs no code worth keeping, so a module
    none of whose names the roots use leaves with its import of such a module."""
    files = {
        "pkg/__init__.py": "from .one import One\nfrom .two import Two\n",
        "pkg/data.py": "(LOW, HIGH) = range(2)\nNAMES = sorted({'b': 1, 'a': 2})\nWIDEST = max(len(NAMES), 2)\n",
        "pkg/one.py": "class One:\n    pass\n",
        "pkg/two.py": "from .data import LOW\n\n\nclass Two:\n    level = LOW\n",
        "pkg/cli.py": "from pkg import One\n\nprint(One.__name__)\n",
    }
    root = write_project(tmp_path, files, SPEC.replace('"pkg:hamming", ', '"pkg:One", '))
    removed = {r.path for r in analyse(root / "slimfork.toml").plan.removals}
    assert {"pkg/two.py", "pkg/data.py"} <= removed
