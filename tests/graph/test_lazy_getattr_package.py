"""A module ``__getattr__`` (PEP 562) that imports a name computed entirely at run time (``_NAMES[name][::-1]``)
answers a lazy attribute of its package: any module of the package may be the one it loads. Before, only the loose
modules (those nothing in the original imports) stayed for it: a target another module imports (``legacy.py``, which
only a test imports) left the fork with that module, and ``from pkg import Heavy`` raised ModuleNotFoundError with
exit 0, in checked mode too (session 39's known gap). Now every module of the package stays (uncertain, with the
reason), unless the spec's ``outside_imports`` names the module."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from slimfork.api import analyse, shrink, why
from slimfork.index.dynamic_imports import lazy_getattr_calls
from tests.mapping.registrykit import write_project

HEAVY = {
    "pkg/_heavy.py": "class Heavy:\n    v = 'heavy'\n",
    "pkg/legacy.py": "from ._heavy import Heavy\nOLD = Heavy\n",  # imports _heavy: not loose
    "pkg/app.py": "def main():\n    from pkg import Heavy\n    return Heavy.v\n",
    "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_old():\n    assert legacy.OLD.v == 'heavy'\n",
}
TABLE = "import importlib\n_NAMES = {'Heavy': 'yvaeh_.gkp'}\n"
INITS = {
    "function": TABLE + "def __getattr__(name):\n    if name in _NAMES:\n"
                        "        return getattr(importlib.import_module(_NAMES[name][::-1]), name)\n"
                        "    raise AttributeError(name)\n",
    "helper": TABLE + "def _load(name):\n    return importlib.import_module(_NAMES[name][::-1])\n\n\n"
                      "def __getattr__(name):\n    return getattr(_load(name), name)\n",
    "module_class": TABLE + "import sys, types\n\n\nclass _Lazy(types.ModuleType):\n"
                            "    def __getattr__(self, name):\n"
                            "        return getattr(importlib.import_module(_NAMES[name][::-1]), name)\n\n\n"
                            "sys.modules[__name__].__class__ = _Lazy\n",
}


def _spec(mode: str, extra: str = "") -> str:
    symbols = '[symbols]\npublic_api = "roots"\npackage_api = false\n' if mode == "roots" else "[symbols]\n"
    return f'source = "."\nroots = ["pkg.app:main"]\n{extra}\n{symbols}'


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("shape", sorted(INITS))
def test_lazy_getattr_keeps_its_package(tmp_path, shape, mode):
    root = write_project(tmp_path, {**HEAVY, "pkg/__init__.py": INITS[shape]}, _spec(mode))
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "heavy", done.stderr[-2000:]


def test_the_reason_names_the_lazy_attribute(tmp_path):
    root = write_project(tmp_path, {**HEAVY, "pkg/__init__.py": INITS["function"]}, _spec("default"))
    analysis = analyse(root / "slimfork.toml", jobs=1)
    place = next(u for u in analysis.plan.uncertain if u.path == "pkg/__init__.py")
    assert "module __getattr__" in place.why and "pkg._heavy" in place.kept, place
    answer = why(root / "slimfork.toml", "pkg._heavy")
    assert answer.kept and "lazy attribute of pkg" in str(answer.chain), answer


def test_outside_imports_lets_the_package_go(tmp_path):
    """The user's lever: the module's run-time names load code outside the fork."""
    root = write_project(tmp_path, {**HEAVY, "pkg/__init__.py": INITS["function"]},
                         _spec("default", 'outside_imports = ["pkg"]'))
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert "pkg/_heavy.py" not in kept


def test_an_import_outside_getattr_keeps_only_loose_modules(tmp_path):
    """``import_module(name)`` in a plain function is no lazy attribute: a module another imports may go."""
    init = TABLE + "def load(name):\n    return importlib.import_module(_NAMES[name][::-1])\n"
    files = {**HEAVY, "pkg/__init__.py": init, "pkg/app.py": "def main():\n    return 1\n"}
    kept = {k.path for k in analyse(write_project(tmp_path, files, _spec("default")) / "slimfork.toml",
                                    jobs=1).plan.kept}
    assert "pkg/_heavy.py" not in kept


def test_lazy_getattr_calls():
    tree = ast.parse(INITS["helper"] + "def other(n):\n    return importlib.import_module(n)\n")
    calls = lazy_getattr_calls(tree)
    imports = {node.lineno: id(node) in calls for node in ast.walk(tree) if isinstance(node, ast.Call)
               and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"}
    assert sorted(imports.values()) == [False, True]


MAPPED = {
    "pkg/__init__.py": "",
    "pkg/lexers/_mapping.py": "LEXERS = {'PyLexer': ('pkg.lexers.py', 'PyLexer'), "
                              "'RbLexer': ('pkg.lexers.rb', 'RbLexer')}\n",
    "pkg/lexers/__init__.py": "import importlib\nfrom pkg.lexers._mapping import LEXERS\n\n\n"
                              "def __getattr__(name):\n    info = LEXERS[name]\n"
                              "    return getattr(importlib.import_module(info[0]), info[1])\n",
    "pkg/lexers/py.py": "class PyLexer:\n    v = 'py'\n",
    "pkg/lexers/rb.py": "class RbLexer:\n    v = 'rb'\n",
    "pkg/app.py": "def main():\n    from pkg.lexers import PyLexer\n    return PyLexer.v\n",
}


def test_a_registry_declared_in_the_package_decides_what_the_lazy_attributes_keep(tmp_path):
    """pygments' shape: the lazy attributes load the modules a mapping names, and the spec declares that mapping a
    registry: its `keep` decides (the Ruby lexer goes), not the lazy-attribute rule (which kept every lexer)."""
    spec = _spec("default", '[[registries]]\nkind = "mapping"\npackage = "pkg.lexers._mapping"\n'
                            'variable = "LEXERS"\nkeep = ["pkg.lexers.py"]\nreason = "Python only"\n')
    root = write_project(tmp_path, MAPPED, spec)
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    assert not (fork / "pkg/lexers/rb.py").exists() and (fork / "pkg/lexers/py.py").exists()
    done = subprocess.run([sys.executable, "-c", "from pkg.app import main; print(main())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "py", done.stderr[-2000:]
