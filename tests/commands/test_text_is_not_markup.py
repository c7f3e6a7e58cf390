"""What the commands print is text, never rich markup: rich took the spec tables messages name ("[verify]
requirements", "([symbols] public_api = ...)") and audit's "[new]" mark for tags and dropped them, so a
baseline's new findings looked like the old ones in the table."""

from __future__ import annotations

from slimfork.cli import main
from slimfork.commands._output import console


def test_a_message_naming_a_spec_table_keeps_it(capsys):
    console().print('name them in [verify] requirements, or [checks] skip = ["pytest"] ([symbols] drop)')
    out = capsys.readouterr().out
    assert '[verify] requirements, or [checks] skip = ["pytest"] ([symbols] drop)' in out


def test_the_audit_table_marks_new_findings(tmp_path, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "pkg" / "old_unused.py").write_text("Y = 1\n")
    baseline = tmp_path / "baseline.json"
    main(["audit", str(root), "--baseline", str(baseline), "--no-progress"])
    capsys.readouterr()
    (root / "pkg" / "new_unused.py").write_text("Z = 1\n")
    main(["audit", str(root), "--baseline", str(baseline), "--no-progress"])
    lines = capsys.readouterr().out.splitlines()
    assert any("new_unused.py" in line and "[new]" in line for line in lines), "\n".join(lines)
    assert not any("old_unused.py" in line and "[new]" in line for line in lines)


def test_a_plan_with_nothing_to_remove_says_so(tmp_path, capsys):
    """A draft's plan (roots: the whole public API) printed an empty table under "0 removals shrink will
    attempt" and "1 warnings"."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from pkg import core\n")
    (root / "pkg" / "core.py").write_text("X = 1\n")
    (tmp_path / "spec.toml").write_text('source = "proj"\nroots = ["pkg.**"]\ntests = []\n')
    assert main(["plan", str(tmp_path / "spec.toml"), "--no-progress"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "nothing to remove: every file is reached from the roots" in out and "┏" not in out
    assert "; 0 warnings" in out
