"""report.md counts in words a reader accepts as written: the bundled example's said "1 files of the fork
changed, 1 branches folded, ... 1 more files were folded (0 branches)" and "1 root modules imported"; an audit
said "folder docs/ (1 Python files, 72 lines)" and "hidden roots: 1 modules kept by ..."."""

from __future__ import annotations

from slimfork.cli import main


def test_one_folded_file_one_branch_one_root_module(tmp_path, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from pkg import core\n")
    (root / "pkg" / "core.py").write_text("import sys\n\nif sys.platform == 'win32':\n    X = 1\nelse:\n    X = 2\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n[facts]\nsys_platform = "linux"\n'
                                        '[checks]\nskip = ["pytest", "import-modules", "install"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--jobs", "1",
                 "--no-progress"]) == 0
    capsys.readouterr()
    report = " ".join((tmp_path / "fork.report" / "report.md").read_text().split())
    assert "1 file of the fork changed, 1 branch folded, " in report
    assert "0 files left unmodified" in report
    assert "1 files" not in report and "1 branches" not in report


def test_an_audit_folder_of_one_file_says_one_python_file(tmp_path, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("X = 1\n")
    (root / "attic" / "old").mkdir(parents=True)
    (root / "attic" / "old" / "__init__.py").write_text("")
    (root / "attic" / "old" / "thing.py").write_text("Y = 1\n")
    assert main(["audit", str(root), "--format", "markdown", "--no-progress"]) in (0, 1)
    out = " ".join(capsys.readouterr().out.split())
    assert "attic/" in out
    assert "1 Python files" not in out and "1 lines" not in out and "1 modules" not in out
