"""``slimfork shrink`` with no SPEC in a folder holding a ``slimfork.toml`` (what ``slimfork init --out
slimfork.toml`` writes) shrinks that spec, as ruff or vulture read the configuration where they run; elsewhere it
shrinks the bundled example. It wrote the example's ``mlserve-fork`` into the newcomer's project."""

from __future__ import annotations

from slimfork.cli import main


def test_shrink_with_no_spec_takes_the_slimfork_toml_of_the_current_folder(tmp_path, monkeypatch, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from . import used\n")
    (root / "pkg" / "used.py").write_text("X = 1\n")
    (root / "pkg" / "unused.py").write_text("Y = 2\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    monkeypatch.chdir(root)
    assert main(["shrink", "--no-verify", "--no-progress"]) == 0
    assert "shrinking " + str(root / "slimfork.toml") in capsys.readouterr().err
    fork = tmp_path / "proj-fork"  # beside the source, not in it
    assert (fork / "pkg" / "used.py").exists() and not (fork / "pkg" / "unused.py").exists()
    assert not (root / "mlserve-fork").exists()
