"""A lazy loader that builds each name from a dotted start and computed pieces (``f"pkg.{kind}.{module}.{entity}"``
in a loop over a module-level table's items, ``kind`` a parameter the package's ``__init__`` passes literals):
the names are spelled out piece by piece (``graph.built_names``), so only the modules they may be stay, not every
module under ``pkg.`` (session 43: a US-only fork of a holiday library kept 10 calendar modules and 10 holiday
groups, about 10,000 lines, through such a loader). A piece nothing spells (a parameter some call passes a variable)
still keeps everything from there on, and so does a parameter of a function that is public API (code outside the
project may pass it anything): every public function under ``public_api = "kept"``, a root's under "roots"."""

from __future__ import annotations

import ast
import subprocess
import sys

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

REGISTRY = '''import importlib
TABLE = {"alpha": ("Alpha",)}
OTHER: dict = {}


class Loader:
    def __init__(self, path):
        self.module_name, _, self.attr = path.rpartition(".")

    def __call__(self):
        return getattr(importlib.import_module(self.module_name), self.attr)()

    @staticmethod
    def load(kind, scope):
        table = TABLE if kind == "plugins" else OTHER
        for module, names in table.items():
            scope.update({name: Loader(f"pkg.{kind}.{module}.{name}") for name in names})
'''


def _files(second_call: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": f'from pkg.registry import Loader\nLoader.load("plugins", globals())\n{second_call}\n',
        "pkg/main.py": "import pkg\n",
        "pkg/registry.py": REGISTRY,
        "pkg/plugins/__init__.py": "",
        "pkg/plugins/alpha.py": "def Alpha():\n    return 'alpha'\n",
        "pkg/plugins/beta.py": "def Beta():\n    return 'beta'\n",
        "pkg/calendars/__init__.py": "",
        "pkg/calendars/lunar.py": "from pkg.plugins.beta import Beta\n",
        "tests/test_lunar.py": "import pkg.calendars.lunar\n",  # named by a test: not a loose module
    }


SPEC = ('source = "."\nroots = ["pkg.main"]\ntests = []\noutside_imports = ["pkg.registry"]\n'
        '[symbols]\npublic_api = "roots"\n')  # pkg.registry's names are no API: only the project calls Loader.load


def test_pieces_are_read_from_loops_over_tables_and_parameters():
    from slimfork.index.built_names import Slot, built_names
    found = built_names(ast.parse(REGISTRY))
    kind = Slot(function="load", position=0, param="kind", owner="Loader", public=True)
    module = Slot(("alpha",), ("TABLE", "OTHER"))  # the keys of either table the loop may walk
    assert [(b.start, b.rest) for b in found] == [("pkg.", (kind, ".", module, ".", Slot()))]  # ``name``: unknown


def test_spelled_names_keep_only_what_they_may_be(tmp_path):
    root = write_project(tmp_path, _files('Loader.load("other", globals())'), SPEC)
    analysis = analyse(root / "slimfork.toml", jobs=1)
    kept = {k.path for k in analysis.plan.kept}
    assert "pkg/plugins/alpha.py" in kept
    assert not {"pkg/calendars/lunar.py", "pkg/plugins/beta.py"} & kept
    place = next(u for u in analysis.plan.uncertain if u.path == "pkg/registry.py" and u.kept)
    assert "'pkg.plugins.alpha.…', 'pkg.other.alpha.…'" in place.why
    fork = tmp_path / "fork"
    shrink(root / "slimfork.toml", out=fork, jobs=1, verify=False)
    done = subprocess.run([sys.executable, "-c", "import pkg; print(pkg.Alpha())"], cwd=fork,
                          capture_output=True, text=True)
    assert done.stdout.strip() == "alpha", done.stderr[-2000:]


def test_a_parameter_some_call_passes_a_variable_keeps_everything_after_the_start(tmp_path):
    root = write_project(tmp_path, _files('import os\nLoader.load(os.environ.get("KIND", "x"), globals())'), SPEC)
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert {"pkg/plugins/alpha.py", "pkg/plugins/beta.py", "pkg/calendars/lunar.py"} <= kept


def test_a_table_the_module_changes_is_not_read(tmp_path):
    files = _files("")
    files["pkg/registry.py"] = REGISTRY.replace('OTHER: dict = {}\n', 'OTHER: dict = {}\nTABLE["beta"] = ("Beta",)\n')
    root = write_project(tmp_path, files, SPEC)
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert {"pkg/plugins/alpha.py", "pkg/plugins/beta.py"} <= kept


def test_a_table_another_module_changes_is_not_read(tmp_path):
    files = _files("")
    files["pkg/extend.py"] = 'from pkg import registry\nregistry.TABLE.update(beta=("Beta",))\n'
    files["pkg/__init__.py"] = "import pkg.extend\n" + files["pkg/__init__.py"]
    root = write_project(tmp_path, files, SPEC)
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert {"pkg/plugins/alpha.py", "pkg/plugins/beta.py"} <= kept


def test_a_parameter_of_a_public_api_function_is_anything(tmp_path):
    """``Loader.load`` is public API where every public name of a kept module is (the default), or where its
    module is a root: a user's ``Loader.load("calendars", ...)`` may name any module under ``pkg.``."""
    for spec in (SPEC.replace('"pkg.main"', '"pkg.registry"'), SPEC.replace('public_api = "roots"', "")):
        root = write_project(tmp_path / str(len(spec)), _files(""), spec)
        kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
        assert {"pkg/plugins/alpha.py", "pkg/plugins/beta.py", "pkg/calendars/lunar.py"} <= kept, spec


def test_a_private_function_s_parameter_is_what_the_project_passes(tmp_path):
    """The same loader as a private function (``_load``) of a public module: only the project calls it."""
    files = _files("")
    files["pkg/registry.py"] = REGISTRY.replace("def load(", "def _load(")
    files["pkg/__init__.py"] = files["pkg/__init__.py"].replace("Loader.load(", "Loader._load(")
    root = write_project(tmp_path, files, SPEC.replace('public_api = "roots"', ""))
    kept = {k.path for k in analyse(root / "slimfork.toml", jobs=1).plan.kept}
    assert "pkg/plugins/alpha.py" in kept
    assert not {"pkg/calendars/lunar.py", "pkg/plugins/beta.py"} & kept
