"""Issue 25, class 3: the public API of kept modules is kept. A fact that folds every call of a root module's public
predicate (`detect_legacy_windows`) must not license deleting it: code outside the fork imports it. Private
helpers only folded code used still go, and `[symbols] drop` lets a named public name go."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.mapping.registrykit import write_project

from slimfork.api import analyse, shrink
from slimfork.graph.modules import ModuleInfo, ModuleMap
from slimfork.graph.public_api import api_modules
from slimfork.spec.model import Root

CONSOLE = {
    "pkg/__init__.py": "",
    "pkg/console.py": """
        import sys


        def detect_legacy_windows():
            return sys.platform == "win32"


        def _strip_escapes(text):
            return text.replace("\\x1b", "")


        def render(text):
            if detect_legacy_windows():
                text = _strip_escapes(text)
            return text
        """,
}
SPEC = """
source = "."
packages = ["pkg"]
roots = ["pkg.console"]

[facts.functions]
"pkg.console.detect_legacy_windows" = false

[symbols]
prune = true
"""
OUTSIDE = "from pkg.console import detect_legacy_windows, render\nprint(detect_legacy_windows(), render('a'))\n"


def _outside(tree):
    return subprocess.run([sys.executable, "-c", OUTSIDE], cwd=tree, capture_output=True, text=True)


def test_a_fact_keeps_the_public_predicate_of_a_root_module(tmp_path):
    root = write_project(tmp_path, CONSOLE, SPEC)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    text = (result.out / "pkg/console.py").read_text()
    assert "def detect_legacy_windows():" in text and "import sys" in text
    assert "_strip_escapes" not in text and "if detect_legacy_windows()" not in text  # the fold still happened
    assert _outside(result.out).stdout == _outside(root).stdout == "False a\n"
    fold = result.analysis.stages.fold_report
    kept = [(f.path, name, why) for f in fold.files for name, why in f.public_kept]
    assert kept == [("pkg/console.py", "detect_legacy_windows",
                     "public API: root module 'pkg.console': its public names are its API")]
    assert "## Public API kept" in (result.report_dir / "report.md").read_text()


def test_symbols_drop_lets_a_public_name_go(tmp_path):
    console = textwrap.dedent(CONSOLE["pkg/console.py"]) + "\n\ndef unused_public():\n    return 1\n"
    files = {**CONSOLE, "pkg/console.py": console}
    spec = SPEC + 'drop = ["pkg.console:detect_legacy_windows", "pkg.console:unused_public"]\n'
    root = write_project(tmp_path, files, spec)
    result = shrink(root / "slimfork.toml", tmp_path / "fork")
    text = (result.out / "pkg/console.py").read_text()
    assert "detect_legacy_windows" not in text and "unused_public" not in text and "def render" in text
    removed = result.analysis.stages.symbols.removed_symbol("pkg.console", "unused_public")
    assert removed is not None and "[symbols] drop" in removed.reason
    assert all(c.ok for b in result.apply.batches for c in b.checks)


PACKAGE = {
    "pkg/__init__.py": "from pkg.api import run\n",
    "pkg/api.py": """
        from pkg import _impl
        from pkg._impl import Token


        def run():
            return _impl.work()


        def extra():
            return "extra"


        def _unused_private():
            return 0
        """,
    "pkg/_impl.py": "class Token:\n    pass\n\n\ndef work():\n    return 1\n\n\ndef spare():\n    return 2\n",
}


def test_a_package_root_keeps_the_public_names_of_its_public_modules(tmp_path):
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg"]\n\n[symbols]\nprune = true\n'
    root = write_project(tmp_path, PACKAGE, spec)
    analysis = analyse(root / "slimfork.toml")
    stage = analysis.stages.symbols
    gone = {(p.module, n) for p in stage.pruned for n in p.names}
    assert ("pkg.api", "_unused_private") in gone and ("pkg._impl", "spare") in gone  # private: pruned as before
    assert not {("pkg.api", "extra"), ("pkg.api", "Token"), ("pkg._impl", "Token")} & gone
    assert stage.reach.first_use[("pkg.api", "extra")] == \
        "public API: a public module of package root 'pkg' (the package's public API)"

    from slimfork.prune.report import symbols_markdown

    assert "- `pkg.api:extra`: public API: a public module of package root 'pkg'" in symbols_markdown(stage)

    dropped = write_project(tmp_path / "d", PACKAGE, spec + 'drop = ["pkg.api:extra"]\n')
    gone = {(p.module, n) for p in analyse(dropped / "slimfork.toml").stages.symbols.pruned for n in p.names}
    assert ("pkg.api", "extra") in gone


def test_api_modules_follow_module_package_and_glob_roots():
    mm = ModuleMap()
    for name, package in [("pkg", True), ("pkg.api", False), ("pkg._impl", False), ("pkg.sub", True),
                          ("pkg.sub.x", False), ("pkg._priv", True), ("pkg._priv.y", False), ("other", False)]:
        mm.modules[name] = ModuleInfo(name, name.replace(".", "/") + ".py", package)
    assert set(api_modules([Root("module", "pkg")], mm)) == {"pkg", "pkg.api", "pkg.sub", "pkg.sub.x"}
    assert set(api_modules([Root("module", "pkg.**")], mm)) == {"pkg", "pkg.api", "pkg.sub", "pkg.sub.x"}
    assert set(api_modules([Root("module", "pkg._impl"), Root("symbol", "other", "f")], mm)) == {"pkg._impl"}
    assert api_modules([Root("module", "pkg.sub")], mm)["pkg.sub.x"].startswith("a public module of package root")


HELPERS = {
    "pkg/__init__.py": "",
    "pkg/app.py": "from pkg.util import used\n\n\ndef main():\n    return used()\n",
    "pkg/util.py": """
        from pkg import extra


        def used():
            return 1


        def helper():
            return extra.more()


        def _private():
            return 0
        """,
    "pkg/extra.py": "def more():\n    return 2\n",
    "pkg/_impl.py": "",
}
OUTSIDE_UTIL = "from pkg.util import helper, used\nprint(helper(), used())\n"


def test_the_public_names_of_every_kept_module_stay_by_default(tmp_path):
    """The brief's rule: a public name of a kept module is kept. `pkg.util` is kept for `used`; its public
    `helper` stays with the module it needs, so code outside the fork that imports it still runs."""
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.app"]\n\n[symbols]\nprune = true\n'
    root = write_project(tmp_path, HELPERS, spec)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    text = (result.out / "pkg/util.py").read_text()
    assert "def helper" in text and "_private" not in text and (result.out / "pkg/extra.py").is_file()
    run = subprocess.run([sys.executable, "-c", OUTSIDE_UTIL], cwd=result.out, capture_output=True, text=True)
    assert run.stdout == "2 1\n", run.stderr
    stage = result.analysis.stages.symbols
    assert stage.reach.first_use[("pkg.util", "helper")].startswith("public API: a public module the fork keeps")


def test_public_api_roots_prunes_the_public_names_of_other_kept_modules(tmp_path):
    spec = 'source = "."\npackages = ["pkg"]\nroots = ["pkg.app"]\n\n[symbols]\npublic_api = "roots"\n'
    root = write_project(tmp_path, HELPERS, spec)
    result = shrink(root / "slimfork.toml", tmp_path / "fork", verify=False)
    assert "def helper" not in (result.out / "pkg/util.py").read_text()
    assert not (result.out / "pkg/extra.py").exists()  # only the pruned helper imported it
