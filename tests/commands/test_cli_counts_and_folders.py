"""Usage errors a newcomer meets: ``--jobs 0``/``--jobs -1`` ran as if not given (rc 0), now exit 2 with argparse's
``error: argument --jobs``; ``slimfork why . pkg`` (a relative folder) was a ValueError traceback."""

from __future__ import annotations

import pytest

from slimfork.cli import main


@pytest.mark.parametrize("argv", [["shrink", "x.toml", "--jobs", "0"], ["plan", "x.toml", "--jobs", "-1"],
                                  ["diff", "a.toml", "b.toml", "--jobs", "0"], ["installed", "x.toml", "--runs", "0"]])
def test_a_count_below_one_is_a_usage_error(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "must be at least 1" in err and "Traceback" not in err


def test_why_on_a_relative_folder(tmp_path, capsys, monkeypatch):
    src = tmp_path / "bindings"  # a distribution in the one subfolder (the audit's bindings root): "." and an
    (src / "setup.py").parent.mkdir()  # absolute python root made the ValueError
    (src / "setup.py").write_text("from setuptools import setup\nsetup(name='pkg')\n")
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("from . import core\n")
    (src / "pkg" / "core.py").write_text("X = 1\n")
    monkeypatch.chdir(tmp_path)
    assert main(["why", ".", "pkg.core", "--json", "--no-progress"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["kept"] and [s["module"] for s in data["chain"]] == ["pkg", "pkg.core"]


def test_why_on_a_folder_names_the_closest_module_or_file(tmp_path, capsys):
    """mdurl 0.1.2: ``slimfork why . mdurl._parsee`` said only "give a module (pkg.mod) or a path"; on a spec it
    names the closest module, and now on a folder too."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import _parse\n")
    (tmp_path / "pkg" / "_parse.py").write_text("X = 1\n")
    assert main(["why", str(tmp_path), "pkg._parsee", "--no-progress"]) == 2
    assert "hint: did you mean pkg._parse?" in capsys.readouterr().err
    assert main(["why", str(tmp_path), "pkg/_pars.py", "--no-progress"]) == 2
    assert "hint: did you mean pkg/_parse.py?" in capsys.readouterr().err
