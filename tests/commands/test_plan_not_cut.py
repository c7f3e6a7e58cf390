"""``slimfork plan`` off a terminal (a log, a file a reviewer reads) prints each path and reason whole: rich's
80 columns cut nameparser 2.6.0's removals to ``nameparser/config/pr…`` and ``(tests.v2.test_confi…``."""

from __future__ import annotations

from slimfork.cli import main

LONG = "pkg/a_rather_long_subpackage_name/another_long_folder_name/module_with_a_long_name.py"


def test_paths_and_reasons_are_not_cut(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    root = tmp_path / "p"
    for rel in ("pkg/__init__.py", "pkg/a_rather_long_subpackage_name/__init__.py",
                "pkg/a_rather_long_subpackage_name/another_long_folder_name/__init__.py", LONG):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("X = 1\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\n')
    assert main(["plan", str(root / "slimfork.toml"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert LONG in out and "…" not in out, out
