"""Class 2 of issue 25: directory scans of another package (`pkgutil.iter_modules(models.__path__, ...)`,
`walk_packages`, `os.listdir`/`Path.glob` over its folder) keep every module they may find; one whose package is
computed at run time keeps the candidates (a module object passed in: the whole project) and is listed as uncertain
with them."""

from __future__ import annotations

from slimfork.api import analyse
from tests.soundness.soundkit import shrink_and_compare, shrink_and_run_main, uncertain_not_kept


def test_the_fork_finds_every_plugin_the_original_finds(copy_fixture, tmp_path):
    project = copy_fixture("soundness", "scans")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    # finder.names_in scans a module object passed in: the package is known only at run time, so nothing goes
    assert (tmp_path / "fork/src/plugapp/unused.py").exists()


def test_resolved_scans_are_edges_and_the_unresolved_one_keeps_its_package(copy_fixture):
    analysis = analyse(copy_fixture("soundness", "scans") / "slimfork.toml", jobs=1)
    reached = analysis.graph.reached
    for name in ("models.a", "models.b", "handlers.h1", "handlers.sub.h2", "formats.json", "formats.yaml",
                 "exporters.csv", "exporters.html", "components.c1", "components.c2"):
        assert reached[f"plugapp.{name}"].edge.kind == "scan", name
    places = {u.line: u for u in analysis.plan.uncertain}
    assert [u.path for u in analysis.plan.uncertain] == ["src/plugapp/loader/finder.py"] * 2
    # a parameter: the packages its callers pass (probe.py's "plugapp.loader.extra")
    assert places[7].kept == ("plugapp.loader.extra.x",) and "[[registries]]" in places[7].declare
    # a module object passed in: any package of the project may be the one scanned, so every module stays
    assert set(places[11].kept) == {m for m in analysis.graph.modules if m.startswith("plugapp")} >= {"plugapp.unused", "plugapp.models.b"}
    assert "whole project" in places[11].why
    assert uncertain_not_kept(analysis) == []


def test_a_registry_still_filters_a_scanned_package(copy_fixture):
    project = copy_fixture("soundness", "scans")
    spec = project / "slimfork.toml"
    spec.write_text(spec.read_text() + '\n[[registries]]\npackage = "plugapp.models"\nkeep = ["a"]\n')
    reached = analyse(spec, jobs=1).graph.reached
    assert "plugapp.models.a" in reached and "plugapp.models.b" not in reached


def test_a_loader_that_scans_module_objects_keeps_every_plugin(copy_fixture, tmp_path):
    """Found on faker 40.63.0: `list_module(module)` scans the folder of a module object its callers pass (the
    providers, then each provider's locales), which are imported by computed names. That scan used to keep only
    the loader's own package, so every provider and locale was removed."""
    project = copy_fixture("soundness", "locales")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.returncode == 0, original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    analysis = analyse(project / "slimfork.toml", jobs=1)
    [scan] = [u for u in analysis.plan.uncertain if "iter_modules" in u.what]
    assert "fakery.providers.address.fr_FR" in scan.kept and "whole project" in scan.why
    assert uncertain_not_kept(analysis) == []


def test_a_package_folder_handed_to_a_loader_keeps_its_modules(copy_fixture, tmp_path):
    """Found on pylint 4.0.4 (root pylint.lint): `register_plugins(linter, __path__[0])` hands the checkers' folder
    to a function that loads every file in it by path, so no import names them and all 60 checkers were removed.
    A call handed a package's folder whole (`__path__[0]`, `dirname(__file__)`) is a scan of that package."""
    project = copy_fixture("soundness", "folderplugins")
    _, original, fork = shrink_and_compare(project, tmp_path / "fork")
    assert original.stdout.strip() == "['deep', 'format', 'spelling']", original.stderr
    assert (fork.returncode, fork.stdout) == (0, original.stdout), fork.stderr[-2000:]
    reached = analyse(project / "slimfork.toml", jobs=1).graph.reached
    assert reached["lintapp.checkers.spelling"].edge.kind == "scan"


SCANNER = '''import importlib
import pkgutil


def _load_all(package_name):
    package = importlib.import_module(package_name)
    return sorted(m.name for m in pkgutil.iter_modules(package.__path__))
'''


def test_a_default_inside_a_scanning_call_is_a_package_it_scans(tmp_path):
    """``_load_all("pkg.a")`` and ``_load_all(os.environ.get("PKG_EXTRA", "pkg.b"))``: the default inside the
    second call's argument is a package it scans; ``pkg.b.two`` went and ``main()`` found nothing in ``pkg.b`` (exit
    0). (A variable with no string in it is taken to name a package outside the project, a user's plugins: keeping
    the whole project for it kept sglang's 1.27 million lines for ``import_processors(mm_process_pkg)``.)"""
    files = {"pkg/__init__.py": "", "pkg/scan.py": SCANNER, "pkg/a/__init__.py": "", "pkg/a/one.py": "",
             "pkg/b/__init__.py": "", "pkg/b/two.py": "",
             "pkg/app.py": 'import os\nfrom pkg.scan import _load_all\nA = _load_all("pkg.a")\n\n\n'
                           'def main():\n    return A + _load_all(os.environ.get("PKG_EXTRA", "pkg.b"))\n'}
    for mode in ("default", "roots"):
        fork, done = shrink_and_run_main(tmp_path / mode, files, mode, 'outside_imports = ["pkg.scan"]')
        assert done.stdout.split() == ["['one',", "'two']"], (mode, done.stderr[-2000:])
    literal = {**files, "pkg/app.py": files["pkg/app.py"].replace('os.environ.get("PKG_EXTRA", "pkg.b")', '"pkg.a"')}
    fork, done = shrink_and_run_main(tmp_path / "literal", literal, "roots", 'outside_imports = ["pkg.scan"]')
    assert done.stdout.split() == ["['one',", "'one']"] and not (fork / "pkg/b/two.py").exists(), done.stderr
