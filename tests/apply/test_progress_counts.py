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


def test_each_batch_line_says_what_is_left_and_about_how_long():
    """scikit-build-core 1.1.2's checked run (its tests build with CMake) showed no estimate in 15 minutes."""
    from slimfork.apply.pace import pace

    # before a batch is timed, no estimate: zc.lockfile 4.0's one batch was estimated at 31 s and took 2 s
    assert pace(0, 9, [], [50.0, 70.0]) == ("; 8 batches left after it (no batch timed yet: the checks took 2 min on "
                                           "the original, their setting up included)")
    assert pace(0, 1, [], [31.0]) == ("; the last (no batch timed yet: the checks took 31 s on the original, their "
                                      "setting up included)")
    assert pace(2, 4, [30.0, 10.0], [99.0]) == "; 1 batch left after it, about 20 s each so far: about 40 s to go"
    assert pace(3, 4, [30.0], [1.0]) == "; the last, about 30 s as each so far"
    assert pace(1, 3, [], []) == "; 1 batch left after it"
    assert pace(0, 1, [], []) == ""
