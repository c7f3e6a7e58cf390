"""A mapping registry whose keys are the module names of one package and whose values name no module
(``COUNTRIES = {"albania": ("Albania", "AL"), ...}``, loaded lazily through ``f"pkg.{kind}.{module}.{name}"``, as
holidays 0.109 does): its key names the module ``<package>.<key>``. The modules only removed entries named leave
the fork although the lazy loader builds names with a literal prefix, and so do the package ``__init__``'s imports
of them, which a lookup by a computed name of that package could reach only through the removed entries. A metaclass
that only renames the attributes of the class it makes registers nothing, so classes made with it (the entities'
calendars) are no effect of their modules."""

from __future__ import annotations

import subprocess
import sys

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink

REGISTRY = """
import importlib

PLUGINS = {
    "alpha": ("Alpha", "A"),
    "beta": ("Beta", "B"),
}


class Lazy:
    def __init__(self, path):
        self.module_name, _, self.name = path.rpartition(".")

    def __call__(self):
        return getattr(importlib.import_module(self.module_name), self.name)()


def load(kind, scope):
    for module, names in PLUGINS.items():
        scope.update({name: Lazy(f"pkg.{kind}.{module}.{name}") for name in names})
"""
CALENDAR = """
class _RenamingType(type):
    def __new__(cls, name, bases, namespace):
        for attr in (key for key in tuple(namespace.keys()) if key[0] != "_"):
            namespace[f"{attr}_CUSTOM"] = namespace[attr]
            del namespace[attr]
        return super().__new__(cls, name, bases, namespace)


class Custom(metaclass=_RenamingType):
    pass
"""
FILES = {
    "pkg/__init__.py": "from pkg.registry import load\n\nload('plugins', globals())\n",
    "pkg/registry.py": REGISTRY,
    "pkg/calendar.py": CALENDAR,
    "pkg/plugins/__init__.py": "from pkg.plugins.alpha import Alpha, A\nfrom pkg.plugins.beta import Beta, B\n",
    "pkg/plugins/alpha.py": "class Alpha:\n    def greet(self):\n        return 'alpha'\n\n\nA = Alpha\n",
    "pkg/plugins/beta.py": """
        from pkg.calendar import Custom


        class BetaDates(Custom):
            DAYS = (1, 2)


        class Beta:
            def greet(self):
                return 'beta'


        B = Beta
        """,
    "pkg/cli.py": "import sys\n\nimport pkg\n\nprint(getattr(pkg, sys.argv[1])().greet())\n",
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.cli", "pkg.plugins.alpha:Alpha"]
outside_imports = ["pkg.registry"]

[symbols]
public_api = "roots"
package_api = false

[[registries]]
package = "pkg.registry"
kind = "mapping"
variable = "PLUGINS"
keep = ["alpha"]
"""


def test_keys_naming_modules_of_one_package_free_them(tmp_path):
    root = write_project(tmp_path, FILES, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/plugins/beta.py" in {r.path for r in analysis.plan.removals}
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    assert not (result.out / "pkg/plugins/beta.py").exists()
    assert "beta" not in (result.out / "pkg/plugins/__init__.py").read_text()
    assert '"beta"' not in (result.out / "pkg/registry.py").read_text()
    run = [sys.executable, "-m", "pkg.cli", "Alpha"]
    assert subprocess.run(run, cwd=result.out, capture_output=True, text=True).stdout == "alpha\n"


def test_keys_that_are_not_all_modules_of_one_package_keep_them(tmp_path):
    """A key with no module of that name in the package ("gamma"): the keys are not module names, so the modules
    stay as before (the lazy loader's prefix keeps every module under it)."""
    files = {**FILES, "pkg/registry.py": REGISTRY.replace('"beta": ("Beta", "B"),', '"beta": ("Beta", "B"),\n'
                                                          '    "gamma": ("Gamma",),')}
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/plugins/beta.py" not in {r.path for r in analysis.plan.removals}


def test_a_registering_metaclass_keeps_its_classes_modules(tmp_path):
    """The same project whose metaclass also records each class it makes: beta's calendar class registers itself
    when pkg.plugins imports beta, so that import stays."""
    registering = CALENDAR.replace("        return super()", "        CALENDARS.append(name)\n        return super()")
    files = {**FILES, "pkg/calendar.py": "CALENDARS = []\n" + registering}
    root = write_project(tmp_path, files, SPEC)
    analysis = analyse(root / "slimfork.toml")
    assert "pkg/plugins/beta.py" not in {r.path for r in analysis.plan.removals}


def test_a_test_of_a_cut_entry_does_not_hold_what_its_module_uses(tmp_path):
    """holidays: each country's test imports its country module, which the cut removes; the symbol stage took that
    module as test support, so what it used (beta's calendar here; the Chinese, Islamic... holiday groups and their
    calendars there, 6,500 lines) stayed although the module and its test both leave the fork."""
    files = {**FILES, "tests/__init__.py": "", "tests/test_beta.py": "import pkg\nfrom pkg.plugins.beta import Beta\n\n\n"
             "def test_beta():\n    assert Beta().greet() == 'beta'\n"}
    root = write_project(tmp_path, files, SPEC.replace('roots = [', 'tests = ["tests"]\nroots = ['))
    analysis = analyse(root / "slimfork.toml")
    assert {"pkg/plugins/beta.py", "pkg/calendar.py"} <= {r.path for r in analysis.plan.removals}
    assert "tests/test_beta.py" in {t.path for t in analysis.stages.test_removals}
