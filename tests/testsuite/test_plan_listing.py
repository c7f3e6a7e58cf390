"""`slimfork plan` lists every removal `slimfork shrink` attempts, the tests stage's included, and says which are
certain and which a check decides (tests/testsuite/fixtures/minicli: tests, facts and a mapping registry)."""

from __future__ import annotations

import json
from pathlib import Path

from slimfork.cli import main
from slimfork.report.stats import walk_files

FIXTURE = Path(__file__).parent / "fixtures" / "minicli"


def _key(r: dict) -> tuple:
    return r["kind"], r["path"], r["symbol"]


def test_plan_lists_what_shrink_removes(tmp_path, capsys):
    spec = str(FIXTURE / "slimfork.toml")
    assert main(["plan", spec, "--json", "--jobs", "1"]) == 0
    planned = json.loads(capsys.readouterr().out)["removed"]
    out = tmp_path / "fork"
    assert main(["shrink", spec, "--out", str(out), "--no-verify", "--json", "--jobs", "1"]) == 0
    shrunk = json.loads(capsys.readouterr().out)["removed"]
    assert sorted(map(_key, planned)) == sorted(map(_key, shrunk))
    # and that is what the fork lacks: every whole file plan lists is gone, and nothing else is
    gone = set(walk_files(FIXTURE)) - set(walk_files(out))
    assert {r["path"] for r in planned if not r["symbol"]} == gone
    assert {"tests/test_winconsole.py", "tests/data/yaml/sample.yaml"} <= gone  # removed by the tests stage
    cut = {(r["path"], r["symbol"]) for r in planned if r["symbol"]}
    assert ("tests/test_formats.py", "test_yaml_class") in cut
    assert "def test_yaml_class" not in (out / "tests" / "test_formats.py").read_text()


def test_plan_marks_what_a_check_decides(capsys):
    assert main(["plan", str(FIXTURE / "slimfork.toml"), "--json", "--jobs", "1"]) == 0
    planned = {(r["path"], r["symbol"]): r for r in json.loads(capsys.readouterr().out)["removed"]}
    spec_file = planned[("slimfork.toml", None)]  # dropped: the spec asks for it and nothing kept imports it
    assert not spec_file["pending"] and spec_file["fate"].startswith("certain")
    for key in [("src/minicli/fmt_yaml.py", None), ("tests/test_winconsole.py", None),
                ("tests/test_formats.py", "test_yaml_class")]:
        assert planned[key]["pending"], key
        assert planned[key]["fate"] == ("pending verification: shrink's checks (parse, imports, pyflakes, pytest) "
                                        "decide: a failing check restores it")


def test_a_drop_kept_code_imports_is_pending_and_nothing_is_without_checks(tmp_path, capsys):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "main.py").write_text("from pkg import extra, notes\n")
    (tmp_path / "pkg" / "extra.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "notes.py").write_text("Y = 1\n")
    (tmp_path / "pkg" / "old.py").write_text("Z = 1\n")
    spec = tmp_path / "slimfork.toml"
    spec.write_text('source = "."\nroots = ["pkg.main"]\ndrop = ["pkg/extra.py"]\n')

    def fates() -> dict[str, str]:
        assert main(["plan", str(spec), "--json", "--jobs", "1"]) == 0
        return {r["path"]: r["fate"] for r in json.loads(capsys.readouterr().out)["removed"]}

    found = fates()
    assert found["pkg/extra.py"].startswith("pending verification: kept module pkg.main imports it (pkg/main.py:1)")
    assert found["pkg/old.py"].startswith("pending verification: shrink's checks (parse, imports, pyflakes, "
                                          "import-modules) decide")
    assert found["slimfork.toml"] == "certain: the spec drops it and no kept code imports it"
    spec.write_text(spec.read_text() + '\n[checks]\nskip = ["parse", "imports", "pyflakes", "import-modules"]\n')
    assert set(fates().values()) == {"certain: no check is enabled"}


def test_a_test_edit_a_check_restored_is_no_removal():
    from types import SimpleNamespace

    from slimfork.pipeline.shrink import _restore_in_plan
    from slimfork.apply.model import RestoredEdit
    from slimfork.decisions import Plan, Removal

    plan = Plan(removals=[Removal("unreachable", "pkg/a.py", "unreachable")])
    stages = SimpleNamespace(test_removals=[Removal("test", "tests/t.py", "uses pkg.a"),
                                            Removal("test", "tests/u.py", "uses pkg.a", symbol="test_x")])
    undone = RestoredEdit("tests/u.py", "test", "rewrite", "uses pkg.a", "pytest", ["tests/u.py::test_y failed"])
    _restore_in_plan(plan, SimpleNamespace(restored=[("tests", undone)]), stages)
    assert [r.path for r in stages.test_removals] == ["tests/t.py"] and len(plan.removals) == 1
