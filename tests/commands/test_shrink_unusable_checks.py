"""A check that cannot run on the original (every root module fails to import: the project's dependencies are not
installed where the checks run) verified nothing; ``slimfork shrink`` says so on stderr with what to do, in text
and ``--json`` runs alike (stdout stays the JSON). It said nothing: python-slugify 8.0.4's verified fork came out
"0 uncertain, 0 warnings" with its import check unusable (no ``text_unidecode``)."""

from __future__ import annotations

import json

from slimfork.cli import main


def test_an_unusable_check_on_the_original_is_a_warning_with_a_hint(tmp_path, capsys):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("import not_installed_dependency_xyz\n")
    (root / "slimfork.toml").write_text('source = "."\nroots = ["pkg"]\ntests = []\n'
                                        '[checks]\nskip = ["install", "pytest"]\n')
    assert main(["shrink", str(root / "slimfork.toml"), "--out", str(tmp_path / "fork"), "--json"]) == 0
    out, err = capsys.readouterr()
    json.loads(out)
    assert "warning: check 'import-modules' could not run on the original" in err
    assert "not_installed_dependency_xyz" in err and "hint: " in err and "[verify]" in err


def test_the_projects_own_unbuilt_extension_gets_its_own_hint(capsys):
    from slimfork.commands.shrink import print_unusable

    note = "0 of 2 modules import in the original; not counted: bits (ModuleNotFoundError: No module named 'bits._ext')"
    print_unusable({"roots": [{"module": "bits", "reason": "root"}],
                    "batches": {"baselines": [{"check": "import-modules", "usable": False, "note": note}]}})
    err = capsys.readouterr().err
    assert "warning: check 'import-modules'" in err and "compiled extension is not built" in err
