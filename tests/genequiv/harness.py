"""Generate a project of programs, shrink it with the real pipeline, run every program on both sides, compare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tests.genequiv.generator import Flags, Program, generate, write_project

RUNNER = Path(__file__).with_name("runner.py")
ENV = {"GQ_MODE": "modern", "PYTHONHASHSEED": "0"}  # what the spec's [facts.env] says; a fixed hash seed


@dataclass
class Outcome:
    programs: list[Program]
    original: dict
    fork: dict
    result: object  # slimfork.api.ShrinkResult
    mismatches: dict = field(default_factory=dict)  # package -> (original, fork)


def run_programs(tree: Path, programs: list[Program], scratch: Path) -> dict:
    """Every program's result in ``tree`` (one subprocess for all of them)."""
    listing = scratch / "programs.json"
    listing.write_text(json.dumps({p.name: p.api for p in programs}))
    env = {**os.environ, **ENV, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, str(RUNNER), str(listing)], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)


def check(tmp: Path, count: int, seed: int, flags: Flags = Flags(), verify: bool = True, start: int = 0) -> Outcome:
    from slimfork.api import shrink

    programs = [generate(i, seed, flags) for i in range(start, start + count)]
    src = tmp / "src"
    spec = write_project(src, programs)
    (tmp / "run").mkdir(exist_ok=True)
    original = run_programs(src, programs, tmp / "run")
    result = shrink(spec, tmp / "fork", verify=verify)
    fork = run_programs(result.out, programs, tmp / "run")
    outcome = Outcome(programs, original, fork, result)
    outcome.mismatches = {p.name: (original[p.name], fork[p.name]) for p in programs
                          if original[p.name] != fork[p.name]}
    return outcome
