"""The batch engine on a real fixture project with real checks: bisection restores exactly the culprits."""

from __future__ import annotations

import os
import subprocess

import pytest
from tests.apply.applykit import (CommandCheck, ImportCheck, ParseCheck, fixture_batches, fixture_checks,
                                  make_fixture, snapshot)

from slimfork.apply.engine import run_batches

from slimfork.decisions import Batch, Edit
from slimfork.errors import SlimforkError


def git(out, *args):
    return subprocess.run(["git", *args], cwd=out, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def source(tmp_path):
    return make_fixture(tmp_path / "src")


def _stat_all(root):
    return {p: (os.lstat(p).st_ino, os.lstat(p).st_mtime_ns, os.lstat(p).st_mode)
            for p in (os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)}


def test_bisection_restores_exactly_the_culprits(source, tmp_path):
    before_snap, before_stat = snapshot(source), _stat_all(source)
    out = tmp_path / "fork"
    report = run_batches(source, out, fixture_batches(), fixture_checks(), jobs=2)

    restored = {b.name: sorted((r.path, r.check) for r in b.restored) for b in report.batches}
    assert restored == {
        "dropped": [("app/plugins/a.py", "imports")],
        "folded": [("app/util.py", "parses")],
        # compat needs fast *or* slow: one is enough; the cli check needs __main__
        "unreachable": [("app/__main__.py", "cli"), ("app/fast.py", "imports")],
    }
    reasons = {r.path: r.failures for _, r in report.restored}
    assert any("app.plugins.b" in f and "ModuleNotFoundError" not in f or "a" in f for f in reasons["app/plugins/a.py"])
    assert any("app/util.py" in f for f in reasons["app/util.py"])
    assert [len(b.removed) for b in report.batches] == [4, 2, 1]

    fork = snapshot(out)
    assert "app/unused.py" not in fork and "app/plugins/a.py" in fork and "app/slow.py" not in fork
    assert not (out / "app/old").exists()  # a folder emptied by deletions goes too
    assert fork["app/util.py"] == before_snap["app/util.py"]  # restored byte for byte
    assert fork["app/core.py"][1].endswith(b"# folded\n")
    assert fork["app/crlf.py"][1] == b"A = 1\r\n"  # the source's .gitattributes converts nothing
    assert fork["data/config.json"] == before_snap["data/config.json"]  # its .gitignore hides nothing
    assert fork["bin/run.sh"][2] is True and fork["core_link.py"] == ("link", "app/core.py")
    assert fork["plugins_link"] == ("link", "app/plugins")

    # the source is never written, and the fork shares no inode with it
    assert snapshot(source) == before_snap and _stat_all(source) == before_stat
    source_inodes = {v[0] for v in before_stat.values()}
    assert not source_inodes & {os.lstat(os.path.join(d, f)).st_ino for d, _, fs in os.walk(out) for f in fs}

    # one commit per batch after the copy; the work tree is exactly the last commit
    log = git(out, "log", "--format=%s").splitlines()
    assert log == ["slimfork unreachable: deleted 1, restored 2", "slimfork folded: folded 2, restored 1",
                   "slimfork dropped: deleted 4, restored 1", "slimfork: copy of src"]
    assert git(out, "status", "--porcelain", "--ignored") == ""
    body = git(out, "log", "-1", "--format=%B", "HEAD~2")
    assert "Deleted (4):\n- app/old/__init__.py [dropped]: spec drops it" in body
    assert "- app/plugins/a.py [dropped] check imports:" in body and "Checks passed: parses, imports, cli" in body
    patch = git(out, "log", "-p", "-1", "HEAD~1")  # the folded batch, as plain git shows it: a text diff
    assert "Binary files" not in patch and "\n+" in patch and "# folded" in patch


def test_reproducible_and_independent_of_cores(source, tmp_path):
    a = run_batches(source, tmp_path / "a", fixture_batches(), fixture_checks(), jobs=1, cache=False)
    b = run_batches(source, tmp_path / "b", fixture_batches(), fixture_checks(), jobs=2, cache=False)
    assert a.head == b.head  # same commits, byte for byte: fixed author, committer and date
    assert [x.commit for x in a.batches] == [x.commit for x in b.batches]
    assert a.to_dict()["batches"][0]["restored"] == b.to_dict()["batches"][0]["restored"]


def test_report_table_and_dict(source, tmp_path):
    report = run_batches(source, tmp_path / "fork", fixture_batches(), fixture_checks(), jobs=2)
    md = report.to_markdown()
    assert "| 1 | dropped | 4 | 1 | dropped 4 |" in md
    assert "- `app/util.py` (folded, rewrite, batch folded): needed by check **parses**" in md
    data = report.to_dict()
    assert [b["name"] for b in data["batches"]] == ["dropped", "folded", "unreachable"]
    assert data["batches"][0]["first_failure"]["check"] == "imports"
    assert all(b["candidates"] > 0 for b in data["batches"])
    assert {b["check"] for b in data["baselines"]} == {"parses", "imports", "cli"}


def test_check_failing_on_the_original_is_reported_and_not_used(source, tmp_path):
    broken = CommandCheck("broken-cli", ["python", "-c", "raise SystemExit(3)"])

    class Crashing(ParseCheck):
        name = "crashing"

        def baseline(self, original):
            raise RuntimeError("no environment")

    crashing = Crashing()
    report = run_batches(source, tmp_path / "fork", fixture_batches()[:1], [ParseCheck(), broken, crashing])
    used = {b.check: (b.usable, b.note) for b in report.baselines}
    assert used["broken-cli"] == (False, "exit code 3")
    assert used["crashing"][0] is False and "RuntimeError: no environment" in used["crashing"][1]
    assert broken.runs == 0 and crashing.runs == 0
    # with only the parse check in use, the plugin deletion is not caught: all four deletions are kept
    assert len(report.batches[0].removed) == 5 and report.batches[0].checks[0].check == "parses"


def test_a_check_that_crashes_on_a_fork_is_a_failure(source, tmp_path):
    class Fragile(ParseCheck):
        name = "fragile"

        def run(self, fork, baseline):
            if not (fork / "app/unused.py").exists():
                raise OSError("cannot read app/unused.py")
            return super().run(fork, baseline)

    report = run_batches(source, tmp_path / "fork", fixture_batches()[:1], [Fragile()], jobs=1)
    [r] = report.batches[0].restored
    assert r.path == "app/unused.py" and r.check == "fragile" and "crashed: OSError" in r.failures[0]


def test_independent_culprits_among_many_edits(tmp_path):
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg/__init__.py").write_text("")
    for i in range(24):
        (src / f"pkg/m{i:02}.py").write_text(f"V = {i}\n")
    (src / "pkg/user.py").write_text("from pkg import m05, m17\n")
    check = ImportCheck(["pkg.user"])
    batch = Batch("many", "", [Edit(f"pkg/m{i:02}.py", None, "unused", "unreachable") for i in range(24)])
    report = run_batches(src, tmp_path / "fork", [batch], [check], jobs=2)
    assert sorted(r.path for r in report.batches[0].restored) == ["pkg/m05.py", "pkg/m17.py"]
    assert len(report.batches[0].removed) == 22
    assert report.batches[0].candidates <= 14  # two binary searches, not one tree per edit


def test_bisection_stops_at_its_limit_and_restores_the_rest_as_a_whole(tmp_path):
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg/__init__.py").write_text("")
    for i in range(24):
        (src / f"pkg/m{i:02}.py").write_text(f"V = {i}\n")
    (src / "pkg/user.py").write_text("from pkg import m05, m17\n")
    batch = Batch("many", "", [Edit(f"pkg/m{i:02}.py", None, "unused", "unreachable") for i in range(24)])
    report = run_batches(src, tmp_path / "fork", [batch], [ImportCheck(["pkg.user"])], jobs=1, bisect_limit=6)
    [result] = report.batches
    restored = {r.path: r for r in result.restored}
    assert "pkg/m05.py" in restored and "pkg/m17.py" in restored
    limited = [p for p, r in restored.items() if r.failures[0].startswith("bisection limit reached (6 trees checked)")]
    assert "pkg/m17.py" not in limited and "pkg/m05.py" in limited  # m17 was found (the last of the prefix)
    assert all(restored[p].check == "imports" for p in limited) and len(limited) < 17
    assert len(result.removed) == 24 - len(restored) >= 7 and all(c.ok for c in result.checks)
    assert result.candidates <= 6 + 1  # the limit, and the tree that names the one culprit found's check


def test_failing_paths_are_the_first_guess(source, tmp_path):
    parse = ParseCheck()
    batch = Batch("folded", "", [Edit(f"app/{n}.py", b"x = (\n" if n == "util" else b"x = 1\n", "r", "folded")
                                 for n in ("core", "util", "fast", "slow", "unused", "crlf")])
    report = run_batches(source, tmp_path / "fork", [batch], [parse], jobs=1)
    assert [r.path for r in report.batches[0].restored] == ["app/util.py"]
    assert report.batches[0].candidates == 1  # the file the parse failure named was the whole answer


def test_cached_results_are_reused_and_resume_skips_done_batches(source, tmp_path):
    checks = fixture_checks()
    first = run_batches(source, tmp_path / "fork", fixture_batches(), checks, jobs=1)
    runs = [c.runs for c in checks]
    again = run_batches(source, tmp_path / "fork", fixture_batches(), checks, jobs=1)
    assert [c.runs for c in checks] == runs and all(b.resumed for b in again.batches)
    assert again.head == first.head

    other = run_batches(source, tmp_path / "other", fixture_batches(), checks, jobs=1)  # a re-run elsewhere
    assert [c.runs for c in checks] == runs  # every tree was checked before: all from the cache
    assert other.head == first.head and all(c.cached for b in other.batches for c in b.checks)
    assert all(b.cached for b in other.baselines)

    changed = fixture_batches()
    changed[1].edits.pop()  # the plan changed in batch 2: batch 1 is kept, 2 and 3 are redone
    third = run_batches(source, tmp_path / "fork", changed, checks, jobs=1)
    assert [b.resumed for b in third.batches] == [True, False, False]
    assert len(git(tmp_path / "fork", "log", "--format=%s").splitlines()) == 4
    assert (tmp_path / "fork/app/core.py").read_text() == "def answer():\n    return 42\n"

    fresh = run_batches(source, tmp_path / "fork", fixture_batches()[:1], checks, jobs=1, resume=False)
    assert not fresh.batches[0].resumed and len(git(tmp_path / "fork", "log", "--oneline").splitlines()) == 2


def test_bad_inputs_are_clear_errors(source, tmp_path):
    checks = [ParseCheck()]
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine/keep.txt").write_text("user data")
    with pytest.raises(SlimforkError, match="was not written by slimfork"):
        run_batches(source, tmp_path / "mine", [], checks)
    assert (tmp_path / "mine/keep.txt").read_text() == "user data"
    with pytest.raises(SlimforkError, match="overlap"):
        run_batches(source, source / "fork", [], checks)
    bad = {
        "not a plain relative path": Edit("../etc/passwd", None, "r", "dropped"),
        "not a file of the source": Edit("app/nope.py", None, "r", "dropped"),
        "is a folder of the source": Edit("app/plugins", b"", "r", "folded"),
        "goes through the symlink": Edit("plugins_link/a.py", None, "r", "dropped"),
    }
    for message, edit in bad.items():
        with pytest.raises(SlimforkError, match=message):
            run_batches(source, tmp_path / "x", [Batch("b", "", [edit])], checks)
    twice = [Batch("a", "", [Edit("app/unused.py", None, "r", "dropped")]),
             Batch("b", "", [Edit("app/unused.py", b"", "r", "folded")])]
    with pytest.raises(SlimforkError, match="already deleted by batch 'a'") as exc:
        run_batches(source, tmp_path / "x", twice, checks)
    assert exc.value.key == "batches[1].edits[0]"
    assert not (tmp_path / "x").exists()
