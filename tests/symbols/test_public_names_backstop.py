"""The plan's promised public API (``prune.inputs.promised_names``) reaches the import-modules check: a symbol cut
that deletes a promised name (a broken rule, simulated here) is caught and its file restored; where the spec
withdraws the name (``[symbols] drop``, ``public_api = "roots"``) the cut stands and nothing fails."""

from __future__ import annotations

import json

import slimfork.prune.stage as stage
from slimfork.cli import main

MOD = "def _unused():\n    return 0\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n"


def _project(tmp_path, roots: str, symbols: str = ""):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from pkg import main\n")
    (root / "pkg" / "mod.py").write_text(MOD)
    (root / "pkg" / "main.py").write_text("from pkg.mod import g\n\nVALUE = g()\n")
    (root / "slimfork.toml").write_text(f'source = "."\nroots = {roots}\ntests = []\n[symbols]\n{symbols}\n'
                                        '[checks]\nskip = ["install", "pytest"]\n')
    return root / "slimfork.toml"


def _shrink(spec, out, capsys) -> dict:
    assert main(["shrink", str(spec), "--out", str(out), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _break_cut(monkeypatch):
    real = stage.prune_source

    def broken(data, cuts, path="<file>"):
        result = real(data, cuts, path)
        if path == "pkg/mod.py" and result.new is not None:  # the cut of _unused takes f along
            result.new = result.new.replace(b"def f():\n    return 1\n", b"")
        return result

    monkeypatch.setattr(stage, "prune_source", broken)


def test_a_cut_that_deletes_a_promised_name_is_restored(tmp_path, capsys, monkeypatch):
    _break_cut(monkeypatch)
    spec = _project(tmp_path, '["pkg"]')
    data = _shrink(spec, tmp_path / "fork", capsys)
    assert (tmp_path / "fork" / "pkg" / "mod.py").read_text() == MOD  # restored whole
    assert "pkg.mod lost public name 'f'" in json.dumps(data)


def test_names_the_spec_withdraws_are_not_checked(tmp_path, capsys):
    for name, roots, symbols in (("drop", '["pkg"]', 'drop = ["pkg.mod:f"]'),
                                 ("roots", '["pkg.main"]', 'public_api = "roots"')):
        spec = _project(tmp_path / name, roots, symbols)
        data = _shrink(spec, tmp_path / name / "fork", capsys)
        text = (tmp_path / name / "fork" / "pkg" / "mod.py").read_text()
        assert "def f" not in text and "def g" in text, name  # f was no API: pruned, and the check agrees
        assert "lost public name" not in json.dumps(data), name


def test_without_verification_the_static_guard_stops_the_write(tmp_path, capsys, monkeypatch):
    _break_cut(monkeypatch)
    spec = _project(tmp_path, '["pkg"]')
    assert main(["shrink", str(spec), "--out", str(tmp_path / "fork"), "--no-verify"]) != 0
    assert "pkg/mod.py: pkg.mod lost public name 'f'" in capsys.readouterr().err
    assert not (tmp_path / "fork" / "pkg").exists()
