"""What a spec needs from outside slimfork is found before any work: exit 2 within seconds, or a check skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slimfork.cli import main
from slimfork.preflight import run_preflight
from slimfork.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = '''source = "src_project"
roots = ["app.main"]
out = "fork"

[checks]
skip = ["import-modules"]
'''


@pytest.fixture
def project(tmp_path):
    pkg = tmp_path / "src_project" / "app"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "main.py").write_text("def run():\n    pass\n")
    (pkg / "unused.py").write_text("x = 1\n")
    return tmp_path


def _spec(project: Path, extra: str) -> Path:
    (project / "slimfork.toml").write_text(SPEC + extra)
    return project / "slimfork.toml"


def _cli(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "slimfork", *args, "--no-progress"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})})
    return proc, time.monotonic() - start


def test_missing_program_of_a_check_is_exit_2_within_seconds(project):
    spec = _spec(project, '[[checks.command]]\nname = "tool"\nargv = ["no-such-tool-xyz", "--version"]\n')
    proc, seconds = _cli("shrink", str(spec))
    assert proc.returncode == 2 and seconds < 20
    assert "error: checks.command[0].argv: the command's program 'no-such-tool-xyz' is not found on PATH" \
        in proc.stderr
    assert 'requires = ["no-such-tool-xyz"]' in proc.stderr and "Traceback" not in proc.stderr
    assert not (project / "fork").exists()


def test_missing_script_under_spec_dir_is_exit_2(project, capsys):
    spec = _spec(project, '[[checks.command]]\nname = "s"\nargv = ["python", "{spec_dir}/checks/nope.py"]\n')
    assert main(["shrink", str(spec)]) == 2
    assert "checks.command[0].argv: '{spec_dir}/checks/nope.py' names" in capsys.readouterr().err


def test_missing_git_is_exit_2_unless_dry_run(project, monkeypatch, tmp_path, capsys):
    spec = _spec(project, "")
    bare = tmp_path / "bin"
    bare.mkdir()
    monkeypatch.setenv("PATH", str(bare))
    assert main(["shrink", str(spec)]) == 2
    err = capsys.readouterr().err
    assert "error: out: writing the fork needs git, which is not on PATH" in err and "--dry-run" in err
    assert main(["shrink", str(spec), "--dry-run", "--json"]) == 0


def test_required_tool_missing_skips_the_check_and_reports_it(project):
    spec = _spec(project, '[[checks.command]]\nname = "compile"\nargv = ["python", "-c", "print(1)"]\n'
                          'requires = ["no-such-compiler-xyz"]\n\n'
                          '[[checks.command]]\nname = "hello"\nargv = ["python", "-c", "print(2)"]\n')
    proc, _ = _cli("shrink", str(spec))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("notice: check 'compile' is skipped: it requires no-such-compiler-xyz, which is "
                                  "not on PATH")
    report = json.loads((project / "fork.report" / "report.json").read_text())
    runs = {b["check"]: b for b in report["batches"]["baselines"]}
    assert runs["command:compile"]["skipped"] and not runs["command:compile"]["usable"]
    assert runs["command:hello"]["usable"] and not runs["command:hello"]["skipped"]
    assert "| command:compile | SKIPPED |" in (project / "fork.report" / "report.md").read_text()
    passed = {c["check"] for b in report["batches"]["batches"] for c in b["checks"]}
    assert "command:hello" in passed and "command:compile" not in passed  # never counted as passed
    log = subprocess.run(["git", "-C", str(project / "fork"), "log", "--format=%B"], capture_output=True,
                         text=True).stdout
    assert "command:hello" in log and "command:compile" not in log


def test_present_required_tool_runs_the_check(project):
    spec = _spec(project, '[[checks.command]]\nname = "compile"\nargv = ["python", "-c", "print(1)"]\n'
                          f'requires = ["{Path(sys.executable).name}"]\n')
    ready = run_preflight(load_spec(spec), write=True, verify=True, quiet=True)
    assert ready.skipped == {} and ready.notices == []


def test_bad_requires_entry_is_a_spec_error(project, capsys):
    spec = _spec(project, '[[checks.command]]\nargv = ["python", "-V"]\nrequires = ["nv cc"]\n')
    assert main(["shrink", str(spec)]) == 2
    assert "checks.command[0].requires[0]: 'nv cc' is not a program name" in capsys.readouterr().err


def test_unresolvable_verify_requirement_is_exit_2(project, monkeypatch):
    """pip's dry run fails: the requirement and pip's message, exit 2, before any analysis."""
    spec = _spec(project, '[verify]\nrequirements = ["slimfork-no-such-package-xyz==1.0"]\n'
                          '[[checks.command]]\nname = "v"\nargv = ["python", "-V"]\n')
    proc, seconds = _cli("shrink", str(spec), env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(project)})
    assert proc.returncode == 2, proc.stderr
    assert "error: verify.requirements: pip cannot resolve the requirements of [verify] requirements" in proc.stderr
    assert "slimfork-no-such-package-xyz==1.0" in proc.stderr and "Traceback" not in proc.stderr
    assert seconds < 60


def test_a_requirement_pip_crashes_on_is_named(project):
    """stack_data 0.6.3's draft had ``pytest; typeguard; pygments``: pip stops with "ERROR: Exception:" and a
    traceback, and the error said only that."""
    spec = _spec(project, '[verify]\nrequirements = ["pytest; typeguard; pygments"]\n'
                          '[[checks.command]]\nname = "v"\nargv = ["python", "-V"]\n')
    proc, _ = _cli("shrink", str(spec), env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(project)})
    assert proc.returncode == 2, proc.stderr
    assert "ERROR: Exception: InvalidMarker: Invalid marker: 'typeguard; pygments'" in proc.stderr, proc.stderr


def test_no_verify_and_dry_run_need_no_check_tools(project):
    spec = _spec(project, '[[checks.command]]\nname = "tool"\nargv = ["no-such-tool-xyz"]\n')
    assert run_preflight(load_spec(spec), write=True, verify=False, quiet=True).skipped == {}
    proc, _ = _cli("shrink", str(spec), "--no-verify")
    assert proc.returncode == 0, proc.stderr


def _fake_smi(tmp_path: Path, output: str, code: int = 0) -> Path:
    bin_dir = tmp_path / "smi-bin"
    bin_dir.mkdir(exist_ok=True)
    smi = bin_dir / "nvidia-smi"
    smi.write_text(f"#!/bin/sh\nprintf '{output}'\nexit {code}\n")
    smi.chmod(0o755)
    return bin_dir


@pytest.mark.parametrize("output, code, visible, present", [
    ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-x)\\n", 0, None, True),
    ("No devices were found\\n", 6, None, False),     # a driver but no GPU
    ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-x)\\n", 0, "", False),   # hidden by CUDA_VISIBLE_DEVICES
])
def test_cuda_requirement_is_a_gpu_that_nvidia_smi_lists(tmp_path, monkeypatch, output, code, visible, present):
    from slimfork.verify.tools import cuda_present, missing_tools

    monkeypatch.setenv("PATH", str(_fake_smi(tmp_path, output, code)) + os.pathsep + os.environ["PATH"])
    if visible is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)
    assert cuda_present() is present
    # a program named "cuda" on PATH does not meet it: the name is a device, never looked up as a program
    (tmp_path / "smi-bin" / "cuda").write_text("#!/bin/sh\n")
    (tmp_path / "smi-bin" / "cuda").chmod(0o755)
    assert missing_tools(("cuda",)) == ([] if present else ["cuda"])


def test_cuda_requirement_without_a_gpu_skips_the_check_with_a_notice(project):
    spec = _spec(project, '[[checks.command]]\nname = "layer on gpu"\nargv = ["python", "-c", "print(1)"]\n'
                          'requires = ["cuda"]\n\n'
                          '[[checks.command]]\nname = "hello"\nargv = ["python", "-c", "print(2)"]\n')
    proc, _ = _cli("shrink", str(spec), env={"CUDA_VISIBLE_DEVICES": ""})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("notice: check 'layer on gpu' is skipped: it requires cuda: a CUDA GPU "
                                  "(nvidia-smi -L lists none) (the report lists it as SKIPPED, never as passed)")
    report = json.loads((project / "fork.report" / "report.json").read_text())
    runs = {b["check"]: b for b in report["batches"]["baselines"]}
    assert runs["command:layer on gpu"]["skipped"] and not runs["command:layer on gpu"]["usable"]
    assert "| command:layer on gpu | SKIPPED |" in (project / "fork.report" / "report.md").read_text()
    passed = {c["check"] for b in report["batches"]["batches"] for c in b["checks"]}
    assert "command:hello" in passed and "command:layer on gpu" not in passed
