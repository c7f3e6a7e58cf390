"""`slimfork audit` end to end: the four output formats and the baseline gate used by CI and pre-commit."""

from __future__ import annotations

import json

from slimfork.cli import main


def _audit(capsys, *argv):
    code = main(["audit", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_baseline_gate_fails_only_on_new_findings(copy_fixture, capsys, tmp_path):
    root = copy_fixture("audit", "cleanup_lib")
    baseline = tmp_path / "baseline.json"
    code, _, err = _audit(capsys, str(root), "--baseline", str(baseline), "--fail-on-new")
    assert code == 0 and "recorded 10 findings" in err  # first run records today's findings
    recorded = json.loads(baseline.read_text())["findings"]
    assert "unused-file:cleanlib/guided/" in recorded and "orphaned-test:tests/test_ane.py" in recorded

    code, out, _ = _audit(capsys, str(root), "--baseline", str(baseline), "--fail-on-new", "--json")
    assert code == 0 and json.loads(out)["findings"] == []

    (root / "cleanlib" / "asr.py").write_text("def transcribe(audio):\n    return audio\n")
    code, out, err = _audit(capsys, str(root), "--baseline", str(baseline), "--fail-on-new", "--json")
    assert code == 1 and "1 new findings" in err
    assert [f["fingerprint"] for f in json.loads(out)["findings"]] == ["unused-file:cleanlib/asr.py"]

    # without --fail-on-new the run reports everything, marks what is new, and exits 0
    code, out, _ = _audit(capsys, str(root), "--baseline", str(baseline), "--json")
    findings = json.loads(out)["findings"]
    assert code == 0 and len(findings) == 11 and [f["subject"] for f in findings if f["new"]] == ["cleanlib/asr.py"]

    _audit(capsys, str(root), "--baseline", str(baseline), "--update-baseline")
    assert _audit(capsys, str(root), "--baseline", str(baseline), "--fail-on-new")[0] == 0


def test_bad_baseline_and_bad_path_exit_2(tmp_path, capsys, copy_fixture):
    root = copy_fixture("audit", "cleanup_lib")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = _audit(capsys, str(root), "--baseline", str(bad), "--fail-on-new")
    assert code == 2 and "error: --baseline: cannot read the baseline" in err and "Traceback" not in err
    code, _, err = _audit(capsys, str(tmp_path / "missing"))
    assert code == 2 and "not a folder" in err


def test_formats(copy_fixture, capsys):
    root = copy_fixture("audit", "gpu_lib")
    code, out, _ = _audit(capsys, str(root), "--format", "sarif", "--only", "unused-kernel")
    sarif = json.loads(out)
    run = sarif["runs"][0]
    assert code == 0 and sarif["version"] == "2.1.0" and run["tool"]["driver"]["name"] == "slimfork-audit"
    by_fp = {r["partialFingerprints"]["slimfork/v1"]: r for r in run["results"]}
    dead = by_fp["unused-kernel:jit:dead"]
    assert dead["ruleId"] == "unused-kernel" and dead["level"] == "warning"
    assert dead["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "gpulib/ops.py", "uriBaseId": "SRCROOT"}, "region": {"startLine": 47}}

    code, out, _ = _audit(capsys, str(root), "--format", "markdown", "--only", "unused-kernel")
    assert "## unused-kernel: GPU kernels with no launch site in reached code (12)" in out
    assert "| 80 | `gpulib/ops.py:47` | jit kernel dead has no launch site in reached code |" in out

    code, out, _ = _audit(capsys, str(root), "--only", "unused-kernel", "--min-confidence", "80")
    assert "_never_launched" in out and "orphan_kernel" not in out and "2 findings" in out

    table = root / "kernels.json"
    _audit(capsys, str(root), "--json", "--kernel-table", str(table))
    kernels = {k["id"]: k for k in json.loads(table.read_text())}
    assert kernels["jit:scale"]["uses"] == ["gpulib/ops.py:51 in scale (call)"]


def test_spec_mode_uses_the_spec_roots(copy_fixture, capsys, tmp_path):
    root = copy_fixture("audit", "cleanup_lib")
    spec = tmp_path / "slimfork.toml"
    spec.write_text(f'source = "{root.name}"\nroots = ["cleanlib.cli"]\n')
    code, out, _ = _audit(capsys, "--spec", str(spec), "--only", "unused-file", "--json")
    subjects = {f["subject"] for f in json.loads(out)["findings"]}
    # the spec's tests (its default: every test file) are roots of their own: hybrid.py only they reach
    assert code == 0 and "cleanlib/hybrid.py" in subjects and not any(s.startswith("tests") for s in subjects)
    code, _, err = _audit(capsys, str(root), "--spec", str(spec))
    assert code == 2 and "give a PATH or --spec, not both" in err


def test_why_works_on_a_folder_without_a_spec(copy_fixture, capsys):
    root = copy_fixture("audit", "cleanup_lib")
    code = main(["why", str(root), "cleanlib/plugins/csv_plugin.py", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["kept"] and [s["module"] for s in data["chain"]][-1] == "cleanlib.plugins.csv_plugin"
    assert "directory scan" in data["chain"][-1]["reason"]
    code = main(["why", str(root), "cleanlib.packing"])
    assert code == 0 and "not reached from the audit's roots" in capsys.readouterr().out
