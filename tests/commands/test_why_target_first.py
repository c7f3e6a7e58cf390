"""``slimfork why SPEC TARGET`` with a TARGET the source lacks stops with exit 2 before the planning stages (the
fold on a scratch copy: minutes on a large project), as bad input does; it ran them first."""

from __future__ import annotations

from slimfork.cli import main
from slimfork.pipeline import analyse as analyse_mod


def test_a_target_the_source_lacks_stops_before_the_stages(tmp_path, capsys, monkeypatch):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from . import core\n")
    (root / "pkg" / "core.py").write_text("X = 1\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    monkeypatch.setattr(analyse_mod, "run_stages", lambda *a, **k: (_ for _ in ()).throw(AssertionError("staged")))
    assert main(["why", str(root / "slimfork.toml"), "pkg.cor"]) == 2
    err = capsys.readouterr().err
    assert "error: TARGET: no module 'pkg.cor' in the source" in err and "did you mean pkg.core?" in err
    assert "planning on a folded copy" not in err


def test_why_says_kind_and_confidence_and_a_symbols_own_reason(tmp_path, capsys):
    """The text answer gave the chain only: no kind or confidence (report.json and --json have them), and for
    ``pkg.mod:name`` not why the name stays (bottle 0.13.4's names are all kept: its module uses exec())."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from . import core\n")
    (root / "pkg" / "core.py").write_text("def helper():\n    return 1\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    assert main(["why", str(root / "slimfork.toml"), "pkg.core", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "pkg.core: kept (imported, confidence 100)" in out
    assert main(["why", str(root / "slimfork.toml"), "pkg.core:helper", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "pkg.core:helper: kept (" in out and "'helper' is kept" in out


def test_a_missing_file_target_is_a_file_error(tmp_path, capsys):
    """``why SPEC nothere.py`` said "no module 'nothere.py'" with the hint "give a dotted module name", though a
    file is a TARGET too."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "setup.py").write_text("")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    assert main(["why", str(root / "slimfork.toml"), "setpu.py", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "error: TARGET: no file 'setpu.py' in the source" in err and "did you mean setup.py?" in err
    assert main(["why", str(root / "slimfork.toml"), "pkg.nothere", "--no-progress"]) == 2
    assert "pkg/mod.py" in capsys.readouterr().err


def test_a_removed_file_says_its_kind_once(tmp_path, capsys):
    """findpython 0.6.2: ``why narrow.toml src/findpython/pep514tools/__main__.py`` printed "removed (unreachable,
    confidence 90)" and then "removed (unreachable): unreachable: no module imports it ..."."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "spare.py").write_text("X = 1\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n')
    assert main(["why", str(root / "slimfork.toml"), "pkg/spare.py", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "pkg/spare.py: removed (unreachable, confidence" in out
    assert "removed (unreachable):" not in out and "\nunreachable: " in out
