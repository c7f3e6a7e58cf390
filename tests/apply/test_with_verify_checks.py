"""The engine with the project's own checks (slimfork.verify.checks): each check kind catches its culprit, and
bisection restores exactly that file with that check as the reason."""

from __future__ import annotations

import subprocess

from tests.apply.applykit import make_fixture

from slimfork.apply import Batch, Edit, run_batches
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.checks.imports import ImportsCheck
from slimfork.verify.checks.parse import ParseCheck
from slimfork.verify.checks.pyflakes import PyflakesCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec, ImportModulesSpec
from slimfork.verify.tree import TreeLayout


def test_each_verify_check_restores_its_culprit(tmp_path):
    source = make_fixture(tmp_path / "src")
    layout, env = TreeLayout("", ("app",)), current_env()
    checks = [ParseCheck(layout), ImportsCheck(layout), PyflakesCheck(layout),
              ImportModulesCheck(layout, env, ImportModulesSpec(modules=("app.**",))),
              CommandCheck(layout, env, CommandSpec("cli", ("python", "-m", "app")), tmp_path)]
    unused = lambda path: Edit(path, None, "nothing imports it", "unreachable")  # noqa: E731
    batches = [
        Batch("dropped", "Paths the spec drops.", [unused("app/unused.py"), unused("app/plugins/a.py"),
                                                   unused("app/old/legacy.py")]),
        Batch("folded", "Folded files.", [
            Edit("app/util.py", b"def double(:\n", "folded", "folded"),  # does not parse
            Edit("app/core.py", b"def answer():\n    return FORTY_TWO\n", "folded", "folded"),  # undefined name
            Edit("app/crlf.py", b"A = 1\r\n", "folded", "folded"),  # fine
        ]),
        Batch("unreachable", "Modules nothing imports.", [
            unused("app/fast.py"), unused("app/slow.py"), unused("app/__main__.py"), unused("app/old/__init__.py"),
        ]),
    ]
    report = run_batches(source, tmp_path / "fork", batches, checks, jobs=2)

    assert all(b.usable for b in report.baselines), report.baselines
    restored = {b.name: sorted((r.path, r.check) for r in b.restored) for b in report.batches}
    assert restored == {
        "dropped": [("app/plugins/a.py", "imports")],
        "folded": [("app/core.py", "pyflakes"), ("app/util.py", "parse")],
        # the static import check sees both arms of compat's try/except, so both files stay
        "unreachable": [("app/__main__.py", "command:cli"), ("app/fast.py", "imports"), ("app/slow.py", "imports")],
    }
    assert [len(b.removed) for b in report.batches] == [2, 1, 1]
    assert [c.check for c in report.batches[-1].checks] == ["parse", "imports", "pyflakes", "import-modules",
                                                            "command:cli"]
    why = {r.path: r.failures for _, r in report.restored}
    assert any("FORTY_TWO" in f for f in why["app/core.py"])
    assert subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=tmp_path / "fork", check=True,
                          capture_output=True, text=True).stdout == ""
