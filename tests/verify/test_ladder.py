"""From a spec to a verdict: build_checks reads [checks]/[verify], baselines run once, the ladder stops early."""

from __future__ import annotations

from slimfork.source.layout import open_tree
from slimfork.spec import load_spec
from slimfork.verify.build import build_checks
from tests.verify.verify_helpers import copy_project, edit, run_baselines, run_ladder

SPEC = """
source = "original"
roots = ["pkg.cli"]

[checks.import_modules]
modules = ["pkg.cli", "pkg.plugins", "pkg.legacy_py2"]

[[checks.command]]
name = "cli"
argv = ["python", "-m", "pkg.cli", "you"]
match = "stdout"

[[checks.command]]
name = "broken on the original"
argv = ["python", "-m", "pkg.no_such_module"]

[checks.pytest]
args = ["-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:xdist"]
"""


def _setup(tmp_path):
    original, fork = copy_project(tmp_path)
    (tmp_path / "slimfork.toml").write_text(SPEC)
    spec = load_spec(tmp_path / "slimfork.toml")
    checks = build_checks(spec, open_tree(original))
    return original, fork, checks


def test_checks_come_from_the_spec_cheapest_first_and_unusable_ones_are_reported(tmp_path):
    original, fork, checks = _setup(tmp_path)
    assert [c.name for c in checks] == ["parse", "imports", "pyflakes", "import-modules", "command:cli",
                                        "command:broken on the original", "pytest"]
    baselines = run_baselines(checks, original)
    unusable = {b.check: b.note for b in baselines if not b.usable}
    assert list(unusable) == ["command:broken on the original"]
    assert "No module named pkg.no_such_module" in unusable["command:broken on the original"]
    report = run_ladder(checks, baselines, fork)
    assert report.ok and [r.check for r in report.results] == [c.name for c in checks if c.name in
                                                                {b.check for b in baselines if b.usable}]


def test_the_ladder_stops_at_the_first_failing_check(tmp_path):
    original, fork, checks = _setup(tmp_path)
    baselines = run_baselines(checks, original)
    edit(fork, {"pkg/util.py": None})
    report = run_ladder(checks, baselines, fork)
    assert not report.ok
    assert [(r.check, r.ok) for r in report.results] == [("parse", True), ("imports", False)]
    assert report.results[-1].paths == ("pkg/core.py", "pkg/util.py")
    full = run_ladder(checks, baselines, fork, stop_at_first=False)  # every usable check has its say
    assert [r.check for r in full.results if not r.ok] == ["imports", "import-modules", "command:cli", "pytest"]
