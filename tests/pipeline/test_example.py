"""The bundled example through the CLI: shrink, plan, why, stats, --json, --dry-run."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from slimfork.cli import main
from tests.conftest import EXAMPLE


@pytest.fixture
def example(tmp_path):
    dest = tmp_path / "mlserve"
    shutil.copytree(EXAMPLE, dest)
    return dest


def test_shrink_example(example, tmp_path, capsys):
    out = tmp_path / "fork"
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    removed = {r["path"]: r for r in data["removed"]}
    assert removed["src/mlserve/models/llama.py"]["kind"] == "unreachable"
    assert removed["src/mlserve/models/rope_llama.py"]["reason"].startswith("unreachable: only imported by")
    assert removed["src/mlserve/legacy/api_v1.py"]["reason"] == "dropped by drop[0] 'src/mlserve/legacy'"
    assert removed["src/mlserve/core/profiling.py"]["kind"] == "unreachable"
    assert (out / "src/mlserve/models/deepseek_v3.py").is_file()
    assert (out / "src/mlserve/core/engine.py").is_file()  # namespace package member, reached via __init__
    assert not (out / "src/mlserve/legacy").exists()
    assert 'version = "1.2.0+slimfork"' in (out / "pyproject.toml").read_text()
    report = tmp_path / "fork.report"
    assert {p.name for p in report.iterdir()} == {"report.json", "report.md", "removed.md", "kept.md"}
    md = (report / "report.md").read_text()
    assert "| Python | 19 | 11 |" in md
    assert data["before"]["by_language"]["Python"]["files"] == 19
    # folding is_hip() to False deletes the ROCm branch; the HIP kernels and the platform module then go
    assert "if _is_hip" not in (out / "src/mlserve/core/engine.py").read_text()
    assert removed["src/mlserve/core/kernels_hip.py"]["kind"] == "unreachable"
    assert removed["src/mlserve/platform.py"]["kind"] == "unreachable"
    assert data["facts"]["summary"]["branches_folded"] == 1 and data["facts"]["unmatched_facts"] == []
    batches = [b["name"] for b in data["batches"]["batches"]]
    assert batches == ["folded", "dropped", "unreachable src/mlserve", "packaging"]
    log = subprocess.run(["git", "log", "--format=%s"], cwd=out, capture_output=True, text=True).stdout.splitlines()
    assert len(log) == 5 and log[-1].startswith("slimfork: copy of")


def test_fork_runs_like_the_original(example, tmp_path):
    out = tmp_path / "fork"
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(out), "--no-progress"]) == 0
    for tree in (example, out):
        proc = subprocess.run([sys.executable, "-c", "from mlserve.cli import main; main(['run', 'deepseek-v2', 'a b'])"],
                              cwd=tree, env={"PYTHONPATH": str(tree / "src")}, capture_output=True, text=True)
        assert proc.stdout == "deepseek-v2: cuda(2*2)\n", proc.stderr
    models = subprocess.run([sys.executable, "-c", "from mlserve.cli import main; main(['models'])"],
                            env={"PYTHONPATH": str(out / "src")}, capture_output=True, text=True)
    assert models.stdout == "deepseek-v2 deepseek-v3\n"


def test_rerun_replaces_a_previous_fork_but_never_a_foreign_folder(example, tmp_path, capsys):
    out = tmp_path / "fork"
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(out)]) == 0
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(out)]) == 0
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "precious.txt").write_text("keep me")
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(foreign)]) == 2
    assert "exists and was not written by slimfork" in capsys.readouterr().err
    assert (foreign / "precious.txt").read_text() == "keep me"


def test_dry_run_writes_nothing(example, tmp_path):
    out = tmp_path / "fork"
    assert main(["shrink", str(example / "slimfork.toml"), "--out", str(out), "--dry-run"]) == 0
    assert not out.exists() and not (tmp_path / "fork.report").exists()


def test_plan_json(example, capsys):
    assert main(["plan", str(example / "slimfork.toml"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {r["path"] for r in data["removed"] if r["kind"] == "unreachable"} == {
        "src/mlserve/models/llama.py", "src/mlserve/models/mistral.py", "src/mlserve/models/rope_llama.py",
        "src/mlserve/core/profiling.py", "src/mlserve/core/kernels_hip.py", "src/mlserve/platform.py"}


def test_why_kept_chain(example, capsys):
    assert main(["why", str(example / "slimfork.toml"), "mlserve.core.kernels_cuda", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kept"] is True
    assert [s["module"] for s in data["chain"]] == ["mlserve.cli", "mlserve", "mlserve.core.engine",
                                                    "mlserve.core.kernels_cuda"]
    assert data["chain"][-1]["reason"] == "imported by mlserve.core.engine (src/mlserve/core/engine.py:3)"


def test_why_kept_chain_without_facts(example, capsys):
    spec = example / "slimfork.toml"
    spec.write_text(spec.read_text().split("[facts]")[0])
    assert main(["why", str(spec), "mlserve.core.kernels_hip", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chain"][-1]["reason"] == ("imported by mlserve.core.engine (src/mlserve/core/engine.py:8) "
                                           "(if _is_hip)")


def test_why_registry_and_removed(example, capsys):
    assert main(["why", str(example / "slimfork.toml"), "src/mlserve/models/deepseek_v2.py", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "registry mlserve.models keeps 'deepseek*'" in data["chain"][-1]["reason"]
    assert main(["why", str(example / "slimfork.toml"), "mlserve.models.llama", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kept"] is False and data["reason"].startswith("removed (unreachable)")


def test_why_symbol_and_errors(example, capsys):
    assert main(["why", str(example / "slimfork.toml"), "mlserve.core.engine:Engine"]) == 0
    assert "Engine" in capsys.readouterr().out
    assert main(["why", str(example / "slimfork.toml"), "mlserve.core.engin"]) == 2
    assert "did you mean mlserve.core.engine?" in capsys.readouterr().err
    assert main(["why", str(example / "slimfork.toml"), "mlserve.core.engine:Nope"]) == 2


def test_stats(example, capsys):
    assert main(["stats", str(example), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["by_language"]["Python"]["files"] == 19
    assert main(["stats", str(example / "nope")]) == 2
