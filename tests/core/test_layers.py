"""The house rules, checked: the stages' layers (pyproject's [tool.importlinter]: a module imports only from the
layers below its own) and the type-clean packages ([tool.mypy] files)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


def test_layers_hold():
    run = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                          "lint_imports_command()"], cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_core_packages_type_check():
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull], cwd=ROOT, env=ENV,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout
