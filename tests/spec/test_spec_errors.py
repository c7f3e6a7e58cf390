"""A bad spec stops before any work: exit code 2, the key path, a hint, no traceback."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from slimfork.cli import main

EXAMPLE_SOURCE = '''source = "src_project"\nroots = ["app.main"]\n'''


@pytest.fixture
def project(tmp_path):
    pkg = tmp_path / "src_project" / "app"
    (pkg / "models").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "main.py").write_text("def run():\n    pass\n")
    (pkg / "models" / "__init__.py").write_text("")
    (pkg / "models" / "llama.py").write_text("")
    return tmp_path


CASES = [
    ("unknown key", EXAMPLE_SOURCE + 'rots = ["x"]\n', "rots: unknown key 'rots'", "did you mean 'roots'?"),
    ("wrong type", 'source = "src_project"\nroots = "app.main"\n', "roots: expected array of strings, got string",
     "hint: What must keep working"),
    ("item type", 'source = "src_project"\nroots = ["app.main", 3]\n', "roots[1]: expected a string, got integer",
     "hint:"),
    ("scalar type", EXAMPLE_SOURCE + "out = 5\n", "out: expected a string, got integer", "hint: Folder the fork"),
    ("missing source", 'roots = ["app.main"]\n', "source: missing required key", "hint: Where the code comes from"),
    ("source folder", 'source = "nope"\nroots = ["app.main"]\n', "source: source folder does not exist", "hint:"),
    ("pypi pin", 'source = "pypi:sglang"\nroots = ["app.main"]\n', "source: 'pypi:sglang' is not a pinned",
     "hint: write 'pypi:NAME==VERSION'"),
    ("dist choice", EXAMPLE_SOURCE + 'dist = "egg"\n', "dist: 'egg' is not one of wheel, sdist", "hint:"),
    ("choice typo", EXAMPLE_SOURCE + 'type_checking_imports = "ignroe"\n',
     "type_checking_imports: 'ignroe' is not one of keep, ignore", "did you mean 'ignore'?"),  # not the long doc
    ("type imports", EXAMPLE_SOURCE + 'type_checking_imports = "drop"\n',
     "type_checking_imports: 'drop' is not one of keep, ignore", "hint: 'keep' (default)"),
    ("root module", 'source = "src_project"\nroots = ["app.mian"]\n', "roots[0]: no module 'app.mian'",
     "did you mean app.main?"),
    ("root symbol", 'source = "src_project"\nroots = ["app.main:rnu"]\n', "roots[0]: module 'app.main' defines no 'rnu'",
     "did you mean run?"),
    ("root syntax", 'source = "src_project"\nroots = ["app/main.py"]\n', "roots[0]: 'app/main.py' is not a root",
     "hint: write"),
    ("requirements file", 'source = "src_project"\nroots = ["app.main"]\n[verify]\nrequirements = "pytest"\n',
     "verify.requirements: cannot read the requirements file", 'requirements = ["pytest"]'),
    # 'pkg:' kept the whole module silently (plan and shrink exit 0), as if the name were left out
    ("root symbol empty", 'source = "src_project"\nroots = ["app.main:"]\n',
     "roots[0]: 'app.main:' names no symbol after ':'", "hint: write 'app.main:NAME' for one of its names"),
    ("script", 'source = "src_project"\nroots = ["script:app"]\n', "roots[0]: the source declares no console scripts",
     "hint:"),
    ("registry package", EXAMPLE_SOURCE + '[[registries]]\npackage = "app.modles"\nkeep = ["llama"]\n',
     "registries[0].package: no package 'app.modles'", "did you mean app.models?"),
    ("registry keep", EXAMPLE_SOURCE + '[[registries]]\npackage = "app.models"\nkeep = ["deepseek*"]\n',
     'registries[0].keep[0]: key "deepseek*" matches no entry of the modules of app.models', "keys: llama"),
    ("registry regex", EXAMPLE_SOURCE + '[[registries]]\npackage = "app.models"\nkeep = ["re:(("]\n',
     "registries[0].keep[0]: bad regex", "hint:"),
    ("registry key", EXAMPLE_SOURCE + '[[registries]]\npackage = "app.models"\nkeep = ["llama"]\nkept = 1\n',
     "registries[0].kept: unknown key 'kept'", "did you mean 'keep'?"),
    ("not toml", 'source = \n', "not valid TOML", "hint:"),
]


@pytest.mark.parametrize("name,text,message,hint", CASES, ids=[c[0] for c in CASES])
def test_bad_spec_exits_2_with_key_and_hint(project, capsys, name, text, message, hint):
    spec = project / "slimfork.toml"
    spec.write_text(text)
    out_dir = project / "out"
    assert main(["shrink", str(spec), "--out", str(out_dir)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert hint in err
    assert not out_dir.exists()  # stopped before any work
    assert main(["plan", str(spec)]) == 2  # plan alike: `requirements = "pytest"` (a file) passed plan, exit 0
    assert message in capsys.readouterr().err


def test_pyproject_without_table(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert main(["plan", str(tmp_path)]) == 2
    assert "tool.slimfork: " in capsys.readouterr().err


def test_no_traceback_in_a_real_process(project):
    spec = project / "slimfork.toml"
    spec.write_text(textwrap.dedent(EXAMPLE_SOURCE + "colour = 1\n"))
    proc = subprocess.run([sys.executable, "-m", "slimfork", "plan", str(spec)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: colour: unknown key 'colour'")


def test_missing_spec_file(tmp_path, capsys):
    assert main(["plan", str(tmp_path / "nope.toml")]) == 2
    assert "spec file not found" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["why"])
    assert exc.value.code == 2


@pytest.mark.parametrize("text,message,hint", [
    ('source = "."\nroots = ["app"\n\n', "at the end of the file (its last line is 2: 'roots = [\"app\"')",
     "opened on line 2 or above it"),
    ('source = "."\nroots = \n', "(at line 2, column 9)", "check line 2: 'roots ='"),
])
def test_toml_error_names_its_line(project, capsys, text, message, hint):
    spec = project / "slimfork.toml"
    spec.write_text(text)
    assert main(["plan", str(spec)]) == 2
    err = capsys.readouterr().err
    assert message in err and hint in err
    assert "end of document" not in err and "named above" not in err
