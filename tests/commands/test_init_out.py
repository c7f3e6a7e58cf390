"""``slimfork init --out FILE`` checks FILE can be written before any work: a missing folder, a folder given for
the file, a place nothing can be written are exit 2 with ``error: out:`` and a hint (they were a traceback after
the whole draft, a ``pypi:`` download included)."""

from __future__ import annotations

import pytest

from slimfork.cli import main
from slimfork.commands import init as init_cmd


@pytest.fixture
def project(tmp_path):
    (tmp_path / "proj" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pkg" / "__init__.py").write_text("X = 1\n")
    return tmp_path / "proj"


@pytest.fixture
def no_draft(monkeypatch):
    monkeypatch.setattr("slimfork.init.draft_spec", lambda *a, **k: (_ for _ in ()).throw(AssertionError("drafted")))


@pytest.mark.parametrize("out", ["missing/sub/spec.toml", "."])
def test_an_out_that_cannot_be_a_file_stops_before_the_draft(project, tmp_path, capsys, no_draft, out, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["init", str(project), "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: out: ") and "hint: " in err and "Traceback" not in err


def test_an_unwritable_folder_stops_before_the_draft(project, tmp_path, capsys, no_draft, monkeypatch):
    def _refused(*args, **kwargs):
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr("tempfile.mkstemp", _refused)
    assert main(["init", str(project), "--out", str(tmp_path / "spec.toml")]) == 2
    assert "error: out: cannot write" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [project]


def test_a_writable_out_gets_the_draft(project, tmp_path):
    assert main(["init", str(project), "--out", str(tmp_path / "spec.toml")]) == 0
    assert 'roots = ["pkg' in (tmp_path / "spec.toml").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "spec.toml"]
    assert init_cmd  # the module under test


def test_an_existing_spec_is_not_replaced_without_force(project, tmp_path, capsys, no_draft):
    spec = tmp_path / "slimfork.toml"
    spec.write_text("# my edits\n")
    assert main(["init", str(project), "--out", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: out: ") and "already exists" in err and "--force" in err and "Traceback" not in err
    assert spec.read_text() == "# my edits\n"  # untouched, and refused before any work (no_draft)


def test_force_replaces_it_whole(project, tmp_path, capsys):
    spec = tmp_path / "slimfork.toml"
    spec.write_text("# my edits\n")
    assert main(["init", str(project), "--out", str(spec), "--force"]) == 0
    assert 'roots = ["pkg"]' in spec.read_text() or "pkg" in spec.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "slimfork.toml"]  # no temporary file left


def test_a_failed_write_leaves_the_old_spec(project, tmp_path, capsys, monkeypatch):
    spec = tmp_path / "slimfork.toml"
    spec.write_text("# my edits\n")

    def _full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", _full)
    with pytest.raises(OSError):
        init_cmd._write(spec, "new text\n")
    assert spec.read_text() == "# my edits\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["proj", "slimfork.toml"]


def test_a_written_draft_says_where_and_what_next_and_its_roots_note_is_true(project, tmp_path, capsys):
    """``init --out`` wrote the file without a word (no path, no next step), and the roots' note said "console
    scripts, then the public API" for projects without a console script (hyperframe 6.1.0, lz4 4.4.5)."""
    out = tmp_path / "spec.toml"
    assert main(["init", str(project), "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"wrote {out}: 1 root, 0 commented-out suggestions; next: `slimfork plan {out}`" in err
    text = out.read_text()
    assert "## roots: no console script; the public API" in text and "console scripts, then" not in text
    assert "narrow roots" in text
