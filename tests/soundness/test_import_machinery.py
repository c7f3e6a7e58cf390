"""Modules loaded by the import machinery's less common doors (session 28's adversarial round, group C and I):
``__import__(pkg, fromlist=[...])`` of a submodule, ``runpy.run_module`` over a loop of literals (a package runs
its ``__main__``), ``[sys.executable, "-m", f"pkg.jobs.{job}"]``, names built from ``__name__.rpartition(".")[0]``
and ``__spec__.parent``, and a module that swaps its own class in ``sys.modules`` (its names are looked up)."""

from __future__ import annotations

import subprocess
import sys

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project

FILES = {
    "pyproject.toml": '[project]\nname = "imp"\nversion = "1.0"\n',
    "src/imp/__init__.py": "",
    "src/imp/app.py": """
        import runpy
        import subprocess
        import sys

        from imp.backends import native


        def plug():
            return __import__("imp.plug", fromlist=["leaf"]).leaf.f()


        def tasks():
            for name in ("clean", "build"):
                runpy.run_module(f"imp.tasks.{name}")


        def job(name):
            return subprocess.run([sys.executable, "-m", f"imp.jobs.{name}"], check=False)


        def backend():
            return native.pick()
    """,
    "src/imp/plug/__init__.py": "",
    "src/imp/plug/leaf.py": "def f():\n    return 'leaf'\n",
    "src/imp/plug/other.py": "",
    "src/imp/tasks/__init__.py": "",
    "src/imp/tasks/clean.py": "print('clean')\n",
    "src/imp/tasks/build/__init__.py": "",
    "src/imp/tasks/build/__main__.py": "print('build')\n",
    "src/imp/tasks/deploy.py": "",
    "src/imp/jobs/__init__.py": "",
    "src/imp/jobs/nightly.py": "",
    "src/imp/backends/__init__.py": "",
    "src/imp/backends/native.py": """
        import importlib


        def pick():
            return (importlib.import_module(__name__.rpartition(".")[0] + ".pure"),
                    importlib.import_module(__spec__.parent + ".fallback"))
    """,
    "src/imp/backends/pure.py": "",
    "src/imp/backends/fallback.py": "",
    "src/imp/backends/unused.py": "",
}


def test_the_import_machinery_keeps_what_it_loads(tmp_path):
    project = write_project(tmp_path, FILES, 'source = "."\nroots = ["imp.app"]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    removed = {r.path for r in analysis.plan.removals}
    kept = {"src/imp/plug/leaf.py", "src/imp/tasks/clean.py", "src/imp/tasks/build/__main__.py",
            "src/imp/jobs/nightly.py", "src/imp/backends/pure.py", "src/imp/backends/fallback.py"}
    assert not removed & kept
    assert {"src/imp/plug/other.py", "src/imp/tasks/deploy.py", "src/imp/backends/unused.py"} <= removed
    assert any("prefix 'imp.jobs.'" in u.why for u in analysis.plan.uncertain)


SPEED = {
    "pyproject.toml": '[project]\nname = "sp"\nversion = "1.0"\n',
    "src/sp/__init__.py": "",
    "src/sp/app.py": "from sp import speed\n\n\ndef main():\n    return speed.fast()\n",
    "src/sp/speed.py": """
        import sys
        import types


        def impl_fast():
            return "fast"


        class _SpeedModule(types.ModuleType):
            def __getattr__(self, name):
                return object.__getattribute__(self, "impl_" + name)


        sys.modules[__name__].__class__ = _SpeedModule
    """,
}


def test_a_module_that_swaps_its_class_keeps_its_names(tmp_path):
    project = write_project(tmp_path, SPEED, 'source = "."\nroots = ["sp.app"]\n\n[symbols]\nprune = true\n')
    result = shrink(project / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "def impl_fast" in (result.out / "src/sp/speed.py").read_text()
    run = subprocess.run([sys.executable, "-c", "from sp.app import main; print(main())"], capture_output=True,
                         text=True, cwd=result.out / "src")
    assert run.stdout == "fast\n", run.stderr


DATA = {
    "pyproject.toml": '[project]\nname = "meta"\nversion = "1.0"\n',
    "src/meta/__init__.py": "",
    "src/meta/app.py": """
        import pkgutil
        import runpy
        from importlib import resources


        def snippets():
            folder = resources.files(__package__).joinpath("snippets")
            return [runpy.run_path(str(f)) for f in folder.iterdir() if f.name.endswith(".py")]


        def tool(name):
            exec(pkgutil.get_data(__package__, f"tools/{name}.py"))
    """,
    "src/meta/snippets/alpha.py": "A = 1\n",
    "src/meta/tools/gen.py": "from meta import tools_helpers\n",
    "src/meta/tools_helpers.py": "",
    "src/meta/spare/x.py": "",
}


def test_python_files_read_as_package_resources_stay(tmp_path):
    """``resources.files(__package__).joinpath("snippets")`` and ``get_data(__package__, f"tools/{name}.py")``
    name folders whose ``.py`` files are run as data, like ``Path(__file__).parent / "snippets"``."""
    project = write_project(tmp_path, DATA, 'source = "."\nroots = ["meta.app"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert not removed & {"src/meta/snippets/alpha.py", "src/meta/tools/gen.py", "src/meta/tools_helpers.py"}
    assert "src/meta/spare/x.py" in removed


SCANNER = {
    "pyproject.toml": '[project]\nname = "util"\nversion = "1.0"\n',
    "src/util/__init__.py": "",
    "src/util/app.py": "from util.tools import import_string\n\n\ndef main():\n    return import_string('util.x')\n",
    "src/util/tools.py": """
        import importlib
        import pkgutil


        def import_string(name):
            return importlib.import_module(name)


        def find_modules(import_path):
            module = import_string(import_path)
            path = getattr(module, "__path__", None)
            for _importer, modname, _ispkg in pkgutil.iter_modules(path):
                yield f"{module.__name__}.{modname}"
    """,
    "src/util/x.py": "",
    "src/util/plugins/__init__.py": "",
    "src/util/plugins/a.py": "",
}


def test_a_scan_of_a_package_its_caller_names_keeps_what_callers_pass(tmp_path):
    """``find_modules(import_path)`` stays as the public API of a kept module. No code of the project calls it, so
    the package it scans is its outside caller's: it keeps no module (listed as uncertain). A caller that passes
    ``"util.plugins"`` keeps that package's modules."""
    project = write_project(tmp_path, SCANNER, 'source = "."\nroots = ["util.app"]\n\n[symbols]\n')
    analysis = analyse(project / "slimfork.toml", jobs=1)
    assert "src/util/plugins/a.py" in {r.path for r in analysis.plan.removals}
    assert any("which no code of the project calls" in u.why for u in analysis.plan.uncertain)
    called = {**SCANNER, "src/util/app.py": SCANNER["src/util/app.py"] + "\n\ndef plugins():\n"
              "    from util.tools import find_modules\n\n    return list(find_modules('util.plugins'))\n"}
    project = write_project(tmp_path / "b", called, 'source = "."\nroots = ["util.app"]\n\n[symbols]\n')
    assert "src/util/plugins/a.py" not in {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}


LAZY = {
    "pyproject.toml": '[project]\nname = "lz"\nversion = "1.0"\n',
    "src/lz/__init__.py": """
        import sys
        from typing import TYPE_CHECKING

        _import_structure = {"stats": ["mean"]}
        _import_structure["models.linear"] = ["Linear"]

        if TYPE_CHECKING:
            from lz.models.linear import Linear
            from lz.stats import mean
        else:
            from lz.utils.lazy import LazyModule

            sys.modules[__name__] = LazyModule(__name__, globals()["__file__"], _import_structure)
    """,
    "src/lz/cli.py": "import lz\n\n\ndef main():\n    return lz.mean([1, 2])\n",
    "src/lz/utils/__init__.py": "",
    "src/lz/utils/lazy.py": "import types\n\n\nclass LazyModule(types.ModuleType):\n    pass\n",
    "src/lz/stats.py": "def mean(xs):\n    return sum(xs) / len(xs)\n",
    "src/lz/models/__init__.py": "",
    "src/lz/models/linear.py": "class Linear:\n    pass\n",
    "src/lz/models/unused.py": "",
}


def test_the_keys_of_a_lazy_modules_table_name_its_submodules(tmp_path):
    """transformers' ``_LazyModule(__name__, ..., _import_structure)``: with ``type_checking_imports = "ignore"``
    the TYPE_CHECKING imports do not keep ``stats`` and ``models.linear``, the table's keys do."""
    spec = 'source = "."\nroots = ["lz.cli"]\ntype_checking_imports = "ignore"\n'
    removed = {r.path for r in analyse(write_project(tmp_path, LAZY, spec) / "slimfork.toml", jobs=1).plan.removals}
    assert not removed & {"src/lz/stats.py", "src/lz/models/linear.py"}
    assert "src/lz/models/unused.py" in removed


def test_python_files_of_a_package_read_as_resources_stay(tmp_path):
    """``resources.files("meta.templates").joinpath("manage.py")``: a regular package whose files are data."""
    files = {**DATA, "src/meta/app.py": "from importlib import resources\n\n\ndef manage():\n"
             "    return resources.files('meta.templates').joinpath('manage.py').read_text()\n",
             "src/meta/templates/__init__.py": "", "src/meta/templates/manage.py": "print('scaffold')\n"}
    project = write_project(tmp_path, files, 'source = "."\nroots = ["meta.app"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "src/meta/templates/manage.py" not in removed and "src/meta/spare/x.py" in removed


ENGINES = {
    "pyproject.toml": '[project]\nname = "eng"\nversion = "1.0"\n',
    "src/eng/__init__.py": "",
    "src/eng/app.py": """
        import importlib
        import os


        def engine():
            spec = os.environ.get("ENG_ENGINE", "eng.engines.basic:Engine")
            modname, _, attr = spec.partition(":")
            return getattr(importlib.import_module(modname), attr)
    """,
    "src/eng/engines/__init__.py": "",
    "src/eng/engines/basic.py": "class Engine:\n    pass\n",
    "src/eng/engines/accel.py": "class Engine:\n    pass\n",
    "src/eng/other.py": "",
}


def test_a_name_derived_from_an_env_default_keeps_the_defaults_siblings(tmp_path):
    """``partition(":")`` of ``os.environ.get("X", "eng.engines.basic:Engine")``: a deployment picks a sibling
    of the default, so every module of its package stays (session 29's adversarial round, E2 and M1)."""
    project = write_project(tmp_path, ENGINES, 'source = "."\nroots = ["eng.app"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "src/eng/engines/accel.py" not in removed and "src/eng/other.py" in removed


def test_a_parameter_default_ends_a_computed_name(tmp_path):
    """Celery's ``autodiscover_tasks(packages, related_name="tasks")`` imports ``f"{pkg}.{related_name}"``: every
    module named ``*.tasks`` stays (session 29's adversarial round, E1)."""
    files = {
        "pyproject.toml": '[project]\nname = "cel"\nversion = "1.0"\n',
        "src/cel/__init__.py": "",
        "src/cel/app.py": """
            import importlib


            def autodiscover(packages, related_name="tasks"):
                for pkg in packages:
                    importlib.import_module(f"{pkg}.{related_name}")
        """,
        "src/cel/billing/__init__.py": "",
        "src/cel/billing/tasks.py": "",
        "src/cel/billing/views.py": "",
    }
    project = write_project(tmp_path, files, 'source = "."\nroots = ["cel.app"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "src/cel/billing/tasks.py" not in removed and "src/cel/billing/views.py" in removed


def test_a_loop_of_literals_ends_a_computed_name(tmp_path):
    """Django's autodiscovery, ``for app in APPS: for sub in ("models", "signals"): import_module(f"{app}.{sub}")``:
    every module named ``*.models`` or ``*.signals`` stays. Before, the name counted as computed entirely: the two
    (imported otherwise only by code no root reaches) left the fork with exit 0 (session 42)."""
    files = {
        "pyproject.toml": '[project]\nname = "dj"\nversion = "1.0"\n',
        "src/dj/__init__.py": "",
        "src/dj/conf.py": 'APPS = ("dj.blog",)\n',
        "src/dj/app.py": """
            import importlib
            from dj.conf import APPS


            def discover():
                for app in APPS:
                    for sub in ("models", "signals"):
                        importlib.import_module(f"{app}.{sub}")
        """,
        "src/dj/blog/__init__.py": "",
        "src/dj/blog/models.py": "",
        "src/dj/blog/signals.py": "",
        "src/dj/blog/views.py": "",
        "src/dj/legacy.py": "import dj.blog.models\nimport dj.blog.signals\n",
        "tests/test_legacy.py": "import dj.legacy\n",
    }
    project = write_project(tmp_path, files, 'source = "."\nroots = ["dj.app"]\ntests = ["tests"]\n')
    removed = {r.path for r in analyse(project / "slimfork.toml", jobs=1).plan.removals}
    assert "src/dj/blog/models.py" not in removed and "src/dj/blog/signals.py" not in removed
    assert "src/dj/blog/views.py" in removed
