"""The engine with the project's own checks (slimfork.verify.checks): each check kind catches its culprit, and
bisection restores exactly that file with that check as the reason."""

from __future__ import annotations

import subprocess

from tests.apply.applykit import make_fixture

from slimfork.apply.engine import run_batches

from slimfork.decisions import Batch, Edit
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


def test_restoring_a_module_brings_back_what_it_imports(tmp_path):
    """Deleted modules import each other; a kept one needs c, which needs d. A restored file whose imports are
    still deleted would itself fail the import check, so restorations go dependencies first: exactly c and d."""
    root = tmp_path / "src"
    files = {"pkg/__init__.py": "", "pkg/kept.py": "from pkg import c\n", "pkg/c.py": "from pkg.d import D\n",
             "pkg/d.py": "D = 1\n"}
    for i in range(12):  # a chain of junk: j00 imports j01 imports ... j11
        files[f"pkg/j{i:02}.py"] = f"from pkg import j{i + 1:02}\n" if i < 11 else "J = 1\n"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    layout = TreeLayout("", ("pkg",))
    doomed = sorted(p for p in files if p not in ("pkg/__init__.py", "pkg/kept.py"))
    batch = Batch("unreachable", "", [Edit(p, None, "unreachable", "unreachable") for p in doomed])
    for search in ("prefix", "ddmin"):
        report = run_batches(root, tmp_path / search, [batch], [ImportsCheck(layout)], jobs=2, search=search)
        assert sorted(r.path for r in report.batches[0].restored) == ["pkg/c.py", "pkg/d.py"], search
        assert len(report.batches[0].removed) == 12
