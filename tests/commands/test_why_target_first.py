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
