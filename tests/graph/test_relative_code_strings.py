"""Code held as text and run in its package, ``exec(code, {"__name__": ..., "__package__": __package__})``,
imports relative to that package: a string constant of kept code, or a data file of a package folder
(``boot.txt``). ``from .plugins import alpha`` there keeps ``pkg.plugins.alpha`` with every name it defines. Before,
only absolute imports in code strings were read: the plugin (imported otherwise only by code no root reaches, so
not loose) left the fork and the exec raised ModuleNotFoundError, exit 0 (session 42, both `[symbols]` modes). So
do ``f"from .plugins import {name}"`` (every module under ``pkg.plugins``) and ``from ..plugins import alpha``."""

from __future__ import annotations

import pytest

from slimfork.index.own_names import relative_code_imports
from tests.soundness.soundkit import shrink_and_run_main

EXEC = ('    ns = {"__name__": __name__, "__package__": __package__}\n    exec(%s, ns)\n    return ns["RESULT"]\n')
RUNNER = {"pkg/a/__init__.py": "", "pkg/a/b/__init__.py": ""}
READERS = {
    "constant": {"pkg/app.py": 'CODE = "from .plugins import alpha\\nRESULT = alpha.run()"\n\n\ndef main():\n'
                               + EXEC % "CODE"},
    "data_file": {"pkg/app.py": "from importlib import resources\n\n\ndef main():\n"
                                + EXEC % 'resources.files(__package__).joinpath("boot.txt").read_text()',
                  "pkg/boot.txt": "from .plugins import alpha\nRESULT = alpha.run()\n"},
    "template": {"pkg/app.py": "import os\n\n\ndef main():\n" + EXEC % (
        'f"from .plugins import {os.environ.get(\'PLUG\', \'alpha\')} as p\\nRESULT = p.run()"')},
    "package_up": {"pkg/app.py": "from pkg.sub.runner import main\n", "pkg/sub/__init__.py": "",
                   "pkg/sub/runner.py": 'CODE = "from ..plugins import alpha\\nRESULT = alpha.run()"\n\n\ndef main():\n'
                                        + EXEC % "CODE"},
    # session 43: more dots than the holder's package has parts, or a package up that names nothing there: the
    # code runs under a deeper package (exec with the runner's __package__); every module so named stays
    "deeper_data_file": {"pkg/app.py": "from pkg.a.b.runner import main\n", **RUNNER,
                         "pkg/boot.txt": "from ...plugins import alpha\nRESULT = alpha.run()\n",
                         "pkg/a/b/runner.py": "import os\n\n\ndef main():\n" + EXEC % (
                             'open(os.path.join(os.path.dirname(__file__), "..", "..", "boot.txt")).read()')},
    "deeper_constant": {"pkg/app.py": 'from pkg.a.b.runner import run\nCODE = "from ...plugins import alpha\\n'
                                      'RESULT = alpha.run()"\n\n\ndef main():\n    return run(CODE)\n', **RUNNER,
                        "pkg/a/b/runner.py": "def run(code):\n" + EXEC % "code"},
    "up_names_nothing": {"pkg/app.py": "from pkg.a.b.runner import run\nfrom pkg.x.y.z.held import CODE\n\n\n"
                                       "def main():\n    return run(CODE)\n", **RUNNER,
                         "pkg/x/__init__.py": "", "pkg/x/y/__init__.py": "", "pkg/x/y/z/__init__.py": "",
                         "pkg/x/y/z/held.py": 'CODE = "from ...plugins import alpha\\nRESULT = alpha.run()"\n',
                         "pkg/a/b/runner.py": "def run(code):\n" + EXEC % "code"},
    "deeper_template": {"pkg/app.py": "import os\nfrom pkg.a.b.runner import run\n\n\ndef main():\n    return run("
                                      "f\"from ...plugins import {os.environ.get('PLUG', 'alpha')} as p\\n"
                                      "RESULT = p.run()\")\n", **RUNNER,
                        "pkg/a/b/runner.py": "def run(code):\n" + EXEC % "code"},
    # session 46: a name imported from the module, not the module: every name stays in the roots mode too (the
    # module stayed, its function was pruned: ImportError)
    "from_name": {"pkg/app.py": 'CODE = "from .plugins.alpha import run\\nRESULT = run()"\n\n\ndef main():\n'
                                + EXEC % "CODE"},
    # a .py file of a folder without __init__.py read as data: its relative import names nothing beside it
    "py_snippet": {"pkg/app.py": "import pkgutil\n\n\ndef main():\n" + EXEC % (
        'pkgutil.get_data(__package__, "snippets/boot.py").decode()'),
                   "pkg/snippets/boot.py": "from .plugins import alpha\nRESULT = alpha.run()\n"},
}


@pytest.mark.parametrize("mode", ["default", "roots"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_relative_imports_of_code_run_in_the_package_keep_their_modules(tmp_path, reader, mode):
    files = {"pkg/__init__.py": "", **READERS[reader], "pkg/plugins/__init__.py": "",
             "pkg/plugins/alpha.py": "def run():\n    return 'alpha-run'\n",
             "pkg/legacy.py": "import pkg.plugins.alpha\nALL = True\n",
             "tests/test_legacy.py": "from pkg import legacy\n\n\ndef test_legacy():\n    assert legacy.ALL\n"}
    fork, done = shrink_and_run_main(tmp_path, files, mode)
    assert done.stdout.strip() == "alpha-run", done.stderr[-2000:]
    assert not (fork / "pkg/legacy.py").exists()


def test_relative_code_imports():
    assert relative_code_imports("from .plugins import alpha") == ["{__package__}.plugins",
                                                                  "{__package__}.plugins.alpha"]
    assert relative_code_imports("x = 1; from . import a, b as c") == ["{__package__}.a", "{__package__}.b"]
    assert relative_code_imports("from ..up import y") == ["{__package__}..up", "{__package__}..up.y"]
    assert relative_code_imports("from ...up import y") == ["{__package__}...up", "{__package__}...up.y"]
    assert relative_code_imports("from .x import *") == ["{__package__}.x"]  # a star import: names, no submodule
    assert relative_code_imports("from .plugins import *", built=True) == ["{__package__}.plugins",
                                                                          "{__package__}.plugins.*"]


def test_a_relative_code_import_with_too_many_dots_keeps_every_module_so_named():
    from slimfork.graph.modules import ModuleInfo, ModuleMap
    mm = ModuleMap()
    for name in ("pkg", "pkg.plugins", "pkg.plugins.alpha", "pkg.a", "pkg.a.b"):
        mm.modules[name] = ModuleInfo(name, None, True)
    assert ModuleInfo("pkg.a.b", None, True).fill_own("{__package__}...plugins.alpha") == "pkg.plugins.alpha"
    assert ModuleInfo("pkg", None, True).fill_own("{__package__}...plugins.alpha") == "*.plugins.alpha"
    assert ModuleInfo("pkg", None, True).fill_own("{__package__}...plugins.") == "*.plugins.*"  # a template's start
    assert mm.matching("*.plugins.*") == ["pkg.plugins.alpha"]
    assert mm.code_import_targets(ModuleInfo("pkg", None, True), "{__package__}...plugins.alpha") == [
        "pkg.plugins.alpha"]
    assert mm.code_import_targets(ModuleInfo("pkg.a", None, True), "{__package__}..plugins") == ["pkg.plugins"]
