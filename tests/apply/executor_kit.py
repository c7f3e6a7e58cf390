"""A run of the batch engine on tests/apply/fixtures/executor_proj with slimfork's real checks, for comparing
executors: one batch deletes six modules nothing needs and two that the command and the imports need, so the
batch fails and its bisection checks candidate trees in parallel."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from slimfork.apply.engine import run_batches
from slimfork.decisions import Batch, Edit
from slimfork.verify.checks.command import CommandCheck
from slimfork.verify.checks.import_modules import ImportModulesCheck
from slimfork.verify.checks.imports import ImportsCheck
from slimfork.verify.checks.parse import ParseCheck
from slimfork.verify.env import current_env
from slimfork.verify.spec import CommandSpec, ImportModulesSpec
from slimfork.verify.tree import TreeLayout

PROJECT = Path(__file__).parent / "fixtures" / "executor_proj"
LAYOUT = TreeLayout("", ("pkg",))
DELETED = ["pkg/extra.py", "pkg/util.py", *[f"pkg/unused_{n}.py" for n in range(1, 7)]]


def checks(spec_dir: Path) -> list:
    return [ParseCheck(LAYOUT), ImportsCheck(LAYOUT),
            ImportModulesCheck(LAYOUT, current_env(), ImportModulesSpec(modules=("pkg.**",), jobs=1)),
            CommandCheck(LAYOUT, current_env(), CommandSpec("cli", ("python", "-m", "pkg.cli", "you")), spec_dir)]


def shrink_fixture(tmp_path: Path, name: str, executor) -> dict:
    """The batch engine's report on the fixture (no cache: every tree is checked where ``executor`` says), as
    the data that must not depend on where the checks ran, and the fork's final git tree."""
    original = tmp_path / "original"
    if not original.exists():
        shutil.copytree(PROJECT, original)
    batch = Batch("deletions", "delete modules", [Edit(p, None, "unused", "module") for p in DELETED])
    report = run_batches(original, tmp_path / name, [batch], checks(tmp_path), cache=False,
                         executor=executor, jobs=executor.workers)
    data = report.to_dict()
    for run in data["baselines"]:
        run.pop("seconds")
        run["note"] = re.sub(r"\d+\.\d+s\b", "<t>s", run["note"])
    for result in data["batches"]:
        for key in ("seconds", "commit"):
            result.pop(key)
        for run in result["checks"] + ([result["first_failure"]] if result["first_failure"] else []):
            run.pop("seconds")
    for key in ("seconds", "head", "base_commit", "original", "out"):
        data.pop(key)
    data["tree"] = subprocess.run(["git", "-C", str(tmp_path / name), "rev-parse", "HEAD^{tree}"], check=True,
                                  capture_output=True, text=True).stdout.strip()
    return data
