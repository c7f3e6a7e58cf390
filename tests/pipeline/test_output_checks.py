"""Where the fork goes is checked before any work (exit 2, ``error: out: ...`` and a hint, nothing written): an
output that is a file, one inside the source, one no folder can be created in, one that is a user's folder. Each
used to be found after the whole analysis, the file and the unwritable folder as a traceback."""

from __future__ import annotations

import pytest

from slimfork.cli import main
from slimfork.errors import SlimforkError
from slimfork.pipeline import shrink as shrink_mod
from slimfork.spec import load_spec


def _project(tmp_path, spec_extra=""):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "slimfork.toml").write_text(f'source = "."\nroots = ["pkg"]\ntests = []\n{spec_extra}')
    return root


@pytest.fixture
def no_analysis(monkeypatch):
    def _fail(*args, **kwargs):
        raise AssertionError("the analysis ran before the output was checked")

    monkeypatch.setattr(shrink_mod, "analyse", _fail)


@pytest.mark.parametrize("where", ["file", "inside", "user"])
def test_a_bad_output_stops_before_any_work(tmp_path, capsys, no_analysis, where):
    root = _project(tmp_path)
    out = {"file": root / "slimfork.toml", "inside": root / "fork", "user": tmp_path / "mine"}[where]
    if where == "user":
        out.mkdir()
        (out / "notes.txt").write_text("mine\n")
    assert main(["shrink", str(root / "slimfork.toml"), "--no-verify", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: out: ") and "hint: " in err and "Traceback" not in err
    assert not (tmp_path / "fork").exists() and not (root / "fork").exists()


def test_an_output_no_folder_can_be_created_in_stops_before_any_work(tmp_path, capsys, no_analysis, monkeypatch):
    root = _project(tmp_path)

    def _refused(*args, **kwargs):
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr("tempfile.mkdtemp", _refused)
    assert main(["shrink", str(root / "slimfork.toml"), "--no-verify", "--out", str(tmp_path / "a" / "fork")]) == 2
    err = capsys.readouterr().err
    assert "error: out: cannot write the fork to" in err and "Read-only file system" in err and "hint: " in err
    assert not (tmp_path / "a").exists()


def test_the_probe_leaves_nothing_behind(tmp_path):
    shrink_mod._check_writable(tmp_path / "deep" / "fork")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(SlimforkError):
        shrink_mod._check_writable(tmp_path, tmp_path / "src")  # the source inside the output


def test_a_spec_inside_its_source_forks_beside_the_source_by_default(tmp_path):
    root = _project(tmp_path)
    assert load_spec(root / "slimfork.toml").out == tmp_path / "proj-fork"
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\nout = "../elsewhere"\n')
    assert load_spec(root / "slimfork.toml").out == tmp_path / "elsewhere"  # written: as written
    (tmp_path / "outside.toml").write_text('source = "proj"\nroots = ["pkg"]\n')
    assert load_spec(tmp_path / "outside.toml").out == tmp_path / "outside-fork"
