"""``slimfork diff``: the same profile on two releases of a package, compared by module, each difference with
both sides' reasons (issue #31); a side may be an earlier shrink's report.json."""

from __future__ import annotations

import json

from slimfork.api import kept_diff, shrink
from slimfork.cli import main
from tests.pipeline.releases import releases


def _by_name(entries: list[dict]) -> dict[str, dict]:
    return {e["name"]: e for e in entries}


def test_the_kept_modules_of_two_releases_with_both_reasons(tmp_path):
    on_v1, on_v2 = releases(tmp_path)
    data = kept_diff(on_v1, on_v2, jobs=1)
    only_a, only_b = _by_name(data["kept_only_in_a"]), _by_name(data["kept_only_in_b"])
    assert set(only_a) == {"pkg.helpers", "pkg.models.deepseek_v3", "pkg.tools"}
    # v2 renamed deepseek_v3 to deepseek_v32, which the registry of pkg.models does not keep: its scan and its
    # computed import (import_module(f"pkg.models.{m.name}")) keep only the members (session 43)
    assert set(only_b) == {"pkg.rocm_ops"}
    helpers = only_a["pkg.helpers"]  # v2's cli stopped importing it
    assert helpers["kept_because"].startswith("imported by pkg.cli (src/pkg/cli.py:1)")
    assert helpers["other"]["fate"] == "removed" and helpers["other"]["kind"] == "unreachable"
    assert only_a["pkg.tools"]["other"]["fate"] == "absent"
    # v1's fact is stale on v2 (is_rocm was renamed): the branch it folded on v1 stays on v2.
    rocm = only_b["pkg.rocm_ops"]
    assert "(if is_hip_rocm())" in rocm["kept_because"] and rocm["other"]["fate"] == "removed"
    assert data["a"]["stale"] == [] and "facts.functions.pkg.plat.is_rocm" in {e["key"] for e in data["b"]["stale"]}
    assert data["kept_in_both"] == data["a"]["kept"] - len(only_a) == data["b"]["kept"] - len(only_b)


def test_the_same_plan_on_both_sides_is_no_difference(tmp_path, capsys):
    on_v1, _ = releases(tmp_path)
    assert main(["diff", str(on_v1), str(on_v1), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "kept in A, not in B (0):" in out and "kept in B, not in A (0):" in out


def test_against_the_report_of_an_earlier_fork(tmp_path, capsys):
    on_v1, on_v2 = releases(tmp_path)
    shrink(on_v1, tmp_path / "old-fork", verify=False, jobs=1)
    assert (tmp_path / "old-fork.report" / "report.json").is_file()
    assert main(["diff", str(tmp_path / "old-fork"), str(on_v2), "--json", "--jobs", "1"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["a"]["label"].endswith("old-fork.report/report.json")
    assert "pkg.helpers" in _by_name(data["kept_only_in_a"])
    assert "pkg.rocm_ops" in _by_name(data["kept_only_in_b"])
    assert main(["diff", str(tmp_path / "v1" / "src"), str(on_v2)]) == 2  # neither a spec nor a report
    assert "error: " in capsys.readouterr().err
