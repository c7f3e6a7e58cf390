"""An import of a name computed entirely at run time (``load(sys.argv[1])`` with ``def load(name):
return importlib.import_module(name)``) may load any module of the project that nothing imports or names: a plugin
run by its name. Such a plugin was removed with exit 0 although the report listed the import as uncertain (lead's
round, session 38); the loose modules now stay with it, and ``outside_imports`` says when the names come from
outside the project."""

from __future__ import annotations

import subprocess
import sys

import pytest

from slimfork.api import analyse, shrink
from tests.mapping.registrykit import write_project
from tests.soundness.soundkit import uncertain_not_kept

FILES = {
    "pkg/__init__.py": "",
    "pkg/plugins/__init__.py": "",
    "pkg/plugins/alpha.py": "from pkg.plugins.shared import greet\n\n\ndef run():\n    return greet('alpha')\n",
    "pkg/plugins/shared.py": "def greet(who):\n    return 'hello ' + who\n",
    "pkg/legacy.py": "def old():\n    return 1\n",
    "tests/test_legacy.py": "from pkg.legacy import old\n\n\ndef test_old():\n    assert old() == 1\n",
    "pkg/main.py": """
        import importlib
        import sys


        def load(name):
            return importlib.import_module(name)


        if __name__ == "__main__":
            print(load(sys.argv[1]).run())
        """,
    "tests/test_main.py": "def test_nothing():\n    pass\n",
}
SPEC = 'source = "."\nroots = ["pkg.main"]\n'
ROOTS_API = '[symbols]\npublic_api = "roots"\npackage_api = false\n'


@pytest.mark.parametrize("symbols", ["", ROOTS_API])
def test_a_plugin_run_by_its_name_stays_with_what_it_imports(tmp_path, symbols):
    project = write_project(tmp_path, FILES, SPEC + symbols)
    shrink(project / "slimfork.toml", tmp_path / "fork", jobs=1, verify=False)
    run = subprocess.run([sys.executable, "-m", "pkg.main", "pkg.plugins.alpha"], cwd=tmp_path / "fork",
                         capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (0, "hello alpha\n"), run.stderr
    # a module that code of the original imports (a test here) is no plugin: it goes with that code
    assert not (tmp_path / "fork/pkg/legacy.py").exists()


def test_the_place_lists_the_loose_modules_it_keeps(tmp_path):
    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    [place] = [u for u in analysis.plan.uncertain if u.path == "pkg/main.py"]
    assert place.kept == ("pkg.plugins", "pkg.plugins.alpha")
    assert "nothing in the original imports or names" in place.why
    assert "outside_imports" in place.declare
    assert uncertain_not_kept(analysis) == []
    assert analysis.graph.reached["pkg.plugins.shared"].via == "pkg.plugins.alpha"


def test_outside_imports_keeps_only_what_strings_name(tmp_path):
    spec = SPEC + 'outside_imports = ["pkg.main"]\n'
    analysis = analyse(write_project(tmp_path, FILES, spec) / "slimfork.toml", jobs=1)
    [place] = [u for u in analysis.plan.uncertain if u.path == "pkg/main.py"]
    assert place.kept == () and "outside_imports says" in place.why
    assert "pkg.plugins.alpha" not in analysis.graph.reached


def test_an_audit_keeps_no_loose_module(tmp_path):
    from slimfork.graph.graph import build_graph
    from slimfork.spec.model import Root

    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    graph = build_graph(analysis.tree, analysis.index, [Root("module", "pkg.main")])
    assert "pkg.plugins.alpha" not in graph.reached


def test_the_module_of_a_loaded_object_keeps_no_loose_module(tmp_path):
    files = {"pkg/__init__.py": "", "pkg/orphan.py": "X = 1\n",
             "pkg/main.py": "import importlib\n\n\ndef home(obj):\n    return importlib.import_module(obj.__module__)\n"}
    analysis = analyse(write_project(tmp_path, files, SPEC) / "slimfork.toml", jobs=1)
    [place] = [u for u in analysis.plan.uncertain if u.path == "pkg/main.py"]
    assert place.kept == () and "loaded already" in place.why
    assert "pkg.orphan" not in analysis.graph.reached


def test_weigh_names_what_only_such_imports_keep_and_the_line_that_lets_it_go(tmp_path):
    from slimfork.api import open_imports_hold

    analysis = analyse(write_project(tmp_path, FILES, SPEC) / "slimfork.toml", jobs=1)
    hold = open_imports_hold(analysis)
    assert hold is not None and hold.modules == ["pkg.plugins", "pkg.plugins.alpha", "pkg.plugins.shared"]
    assert hold.inits == ["pkg.main"] and hold.lines > 0
    spec = SPEC + 'outside_imports = ["pkg.main"]\n'
    assert open_imports_hold(analyse(write_project(tmp_path / "b", FILES, spec) / "slimfork.toml", jobs=1)) is None
