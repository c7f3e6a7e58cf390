"""The shrink phase lines count checks and planned edits in words a reader accepts as written: "1 check",
"1 planned edit" (the bundled example's packaging batch said "1 planned edits")."""

from __future__ import annotations

import subprocess
import sys

from slimfork.apply.engine import counted


def test_counted_singular_and_plural():
    assert counted(1, "planned edit") == "1 planned edit"
    assert counted(0, "check") == "0 checks"
    assert counted(3, "check") == "3 checks"


def test_a_one_edit_batch_says_one_planned_edit(tmp_path):
    src = tmp_path / "proj"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("from pkg import used\n")
    (src / "pkg" / "used.py").write_text("X = 1\n")
    (src / "pkg" / "_unused.py").write_text("Y = 2\n")
    spec = tmp_path / "s.toml"
    spec.write_text('source = "proj"\nroots = ["pkg"]\n')
    proc = subprocess.run([sys.executable, "-m", "slimfork", "shrink", str(spec), "--out", str(tmp_path / "fork"),
                           "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    phases = [line for line in proc.stderr.splitlines() if line.startswith("slimfork: ")]
    assert any("1 planned edit):" in line for line in phases), phases
    assert not any("1 planned edits" in line or "(1 checks)" in line for line in phases), phases
    # the batch's line says how many are left and about how long they may take (here: the last)
    assert any(line.startswith("slimfork: batch 1/1 ") and "; the last (no batch timed yet: the checks took " in line
               for line in phases), phases
    # and before it, what the whole run may take
    assert any(line.startswith("slimfork: the checks took ") and "; 1 batch to check: about " in line
               for line in phases), phases


def _timed(installs: list[bool], seconds: dict[str, float], took: list[float]):
    from slimfork.apply.pace import Pace

    pace = Pace(installs, seconds)
    for index, spent in enumerate(took):
        pace.record(index, spent)
    return pace


def test_each_batch_line_says_what_is_left_and_about_how_long():
    """scikit-build-core 1.1.2's checked run (its tests build with CMake) showed no estimate in 15 minutes."""
    plain = [False] * 9
    # before a batch is timed, no estimate: zc.lockfile 4.0's one batch was estimated at 31 s and took 2 s
    assert _timed(plain, {"a": 50.0, "b": 70.0}, []).line(0) == (
        "; 8 batches left after it (no batch timed yet: the checks took 2 min on the original, their setting up "
        "included)")
    assert _timed([False], {"a": 31.0}, []).line(0) == (
        "; the last (no batch timed yet: the checks took 31 s on the original, their setting up included)")
    assert _timed(plain[:4], {"a": 99.0}, [30.0, 10.0]).line(2) == (
        "; 1 batch left after it, about 20 s each so far: about 40 s to go")
    assert _timed(plain[:4], {"a": 1.0}, [30.0]).line(3) == "; the last, about 30 s as each so far"
    assert _timed(plain[:3], {}, []).line(1) == "; 1 batch left after it"
    assert _timed([False], {}, []).line(0) == ""


def test_a_batch_that_installs_again_is_estimated_apart():
    """autocommand 2.2.2: the packaging batch, which installs the fork again, took 45 s after a 2 s batch, and the
    line said "the last, about 2 s as each so far". Now the install's time on the original is added to it."""
    seconds = {"import-modules": 5.0, "install": 38.0, "pytest": 20.0}
    pace = _timed([False, False, True], seconds, [2.0])
    assert pace.line(1) == ("; 1 batch left after it, about 2 s each so far; 1 batch installs the fork again: about "
                            "40 s each (the install took 38 s on the original): about 42 s to go")
    pace.record(1, 2.0)
    assert pace.line(2) == ("; the last, which installs the fork again: about 40 s (the install took 38 s on the "
                            "original)")
    pace = _timed([False, True, False], seconds, [2.0, 45.0])
    assert pace.line(2) == "; the last, about 2 s as each so far"


def test_the_outlook_says_up_front_what_the_batches_may_take():
    """python-gnupg 0.5.7 (its tests make gpg keys: minutes on the original) and typer 0.29.2 ran past 10 minutes
    with no word of what the whole run would take. After the checks on the original, one line says it, and names
    the ways to a shorter run where it is long."""
    from slimfork.apply.pace import Pace

    quick = Pace([False, True], {"install": 30.0, "pytest": 20.0}).outlook()
    assert quick == ("the checks took 50 s on the original; 2 batches to check: about 70 s (the install check reruns "
                     "only where a batch changes the build), more where a batch fails and is bisected")
    slow = Pace([False, False, True], {"install": 30.0, "pytest": 400.0}).outlook()
    assert "about 20 min (the install" in slow and "[checks.pytest] tests or k" in slow and "--no-verify" in slow
    assert Pace([False], {}).outlook() == ""


def test_which_batches_install_again():
    from slimfork.apply.pace import reinstalls
    from slimfork.decisions import Batch, Edit

    def batch(*edits: Edit) -> Batch:
        return Batch("b", "", list(edits))

    assert reinstalls(batch(Edit("setup.cfg", b"x", "", "packaging")), [])
    assert reinstalls(batch(Edit("src/pkg/_version.py", None, "", "dropped")), ["src"])  # a folder the build names
    assert not reinstalls(batch(Edit("pkg/mod.py", None, "", "dropped"), Edit("docs/conf.py", b"x", "", "folded")),
                          ["pkg/_version.py"])
