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
