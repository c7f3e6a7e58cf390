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
ENV = {"GQ_MODE": "modern", "GQ_FAST": "0", "PYTHONHASHSEED": "0"}  # the spec's [facts.env]; a fixed hash seed


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


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.genequiv.harness [--count N] [--seed S] [--start K] [--flags a,b] [--out DIR]``: one
    project, its mismatches printed with the programs' folders (kept under DIR), exit 1 if any."""
    import argparse
    import dataclasses
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests.genequiv.harness")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--flags", default="", help="Flags fields to turn on: " +
                        ", ".join(f.name for f in dataclasses.fields(Flags)))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="genequiv-"))
    out.mkdir(parents=True, exist_ok=True)
    flags = Flags(**{name: True for name in filter(None, args.flags.split(","))})
    outcome = check(out, args.count, args.seed, flags, start=args.start)
    for name, (a, b) in outcome.mismatches.items():
        where = name.replace(".", "/")
        print(f"{name}: {out / 'src' / where} vs {out / 'fork' / where}\n  original {a}\n  fork     {b}")
    raised = {name: r["exc"] for name, r in outcome.original.items() if "exc" in r}
    for name, exc in raised.items():
        print(f"{name}: fails in the original (a generator bug): {exc}")
    data = outcome.result.data
    print(f"{len(outcome.programs)} programs, {len(outcome.mismatches)} mismatches, {len(raised)} failing originals, "
          f"{len(data['removed'])} files removed, lines {data['before']['lines']} -> {data['after']['lines']} ({out})")
    return 1 if outcome.mismatches or raised else 0


if __name__ == "__main__":
    raise SystemExit(main())
