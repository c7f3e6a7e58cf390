"""The fold report counts only files the fork keeps: a file folded and then left out as unreachable (only a dead
branch imported it) is counted apart, not among the branches folded."""

from __future__ import annotations

from tests.mapping.registrykit import write_project

from slimfork.api import shrink

FILES = {
    "pkg/__init__.py": "",
    "pkg/cli.py": """
        import sys

        if sys.platform == "win32":
            from pkg import winmod
        else:
            print("posix")
        """,
    "pkg/winmod.py": """
        import sys

        if sys.platform == "win32":
            A = 1
        else:
            A = 2
        """,
}


def test_branches_of_files_the_plan_removes_are_counted_apart(tmp_path):
    root = write_project(tmp_path, FILES, 'source = "."\nroots = ["pkg.cli"]\n\n[facts]\nsys_platform = "linux"\n')
    data = shrink(root / "slimfork.toml", tmp_path / "fork", dry_run=True).data
    summary = data["facts"]["summary"]
    assert summary["files_changed"] == 1 and summary["branches_folded"] == 1  # pkg/cli.py only
    assert summary["files_folded_then_removed"] == 1  # pkg/winmod.py: folded, then unreachable
    assert "pkg/winmod.py" in {r["path"] for r in data["removed"]}
