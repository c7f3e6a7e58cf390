"""Where a verified shrink spends its time (issue #30): per stage, per check on the original and per batch and
check, with peak memory, and vulture on the same original in the same run as the yardstick.

    python benchmarks/flagship_bench.py PROFILE OUT [--runs 2] [--shrink-args "..."]
    python benchmarks/flagship_bench.py --report OUT.report/report.json     # a run made before: its table only

With ``--runs 2`` the second run is the warm one (every cache filled by the first). The table is Markdown, for
docs/sglang.md and the README's benchmark section. Speed goals are ratios here, never timed tests.
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path


def shrink(profile: str, out: Path, extra: list[str]) -> tuple[float, float, dict]:
    """One ``slimfork shrink --json`` run: wall seconds, peak memory of the run (GB) and its report."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(Path(f"{out}.report"), ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "slimfork", "shrink", profile, "--json", "--no-progress", "--out", str(out),
                    *extra], check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1e6  # kB -> GB (Linux)
    return wall, peak, json.loads(Path(f"{out}.report/report.json").read_text())


def vulture_seconds(tree: Path) -> float | None:
    """vulture on the original tree: the time a user spends on the tool they would otherwise run."""
    start = time.monotonic()
    try:
        subprocess.run([sys.executable, "-m", "vulture", str(tree), "--min-confidence", "100"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    except OSError:
        return None
    return time.monotonic() - start


def table(report: dict, wall: float | None = None, peak: float | None = None) -> list[str]:
    apply = report.get("batches") or {}
    rows = [f"| stage: {name} | {seconds:,.0f} s |" for name, seconds in report.get("timings", {}).items()]
    parts = report.get("stage_seconds") or {  # a report from before stage_seconds: the two it had
        "fold": (report.get("facts") or {}).get("summary", {}).get("seconds"),
        "symbols": (report.get("symbols") or {}).get("seconds")}
    rows += [f"| stages: {name} | {seconds:,.0f} s |" for name, seconds in parts.items() if seconds is not None]
    rows += [f"| fold: {name} | {seconds:,.0f} s |"
             for name, seconds in (report.get("facts") or {}).get("summary", {}).get("phases", {}).items()]
    rows += [f"| original: {b['check']}{' (cached)' if b.get('cached') else ''}"
             f"{' (skipped)' if b.get('skipped') else ''} | {b['seconds']:,.0f} s |" for b in apply.get("baselines", [])]
    for batch in apply.get("batches", []):
        checks = ", ".join(f"{c['check']} {c['seconds']:,.0f}" for c in batch.get("checks", []) if c["seconds"] >= 1)
        rows.append(f"| batch {batch['name']} ({len(batch.get('removed', []))} removed) | {batch['seconds']:,.0f} s"
                    f"{f' ({checks})' if checks else ''} |")
    if wall is not None:
        rows.append(f"| **whole run** | **{wall:,.0f} s** ({wall / 60:.1f} min), peak {peak:.2f} GB |")
    return ["| part | time |", "|---|---|", *rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", nargs="?")
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--shrink-args", default="")
    parser.add_argument("--report", type=Path, help="print the table of an earlier run's report.json")
    args = parser.parse_args()
    if args.report:
        print("\n".join(table(json.loads(args.report.read_text()))))
        return 0
    if not (args.profile and args.out):
        parser.error("PROFILE and OUT are needed (or --report)")
    report: dict = {}
    for run in range(args.runs):
        wall, peak, report = shrink(args.profile, args.out, shlex.split(args.shrink_args))
        print(f"## run {run + 1} ({'cold' if run == 0 else 'warm'} caches)\n")
        print("\n".join(table(report, wall, peak)) + "\n")
    original = Path(report["batches"]["original"]) if report.get("batches") else None
    if original is not None:
        seconds = vulture_seconds(original)
        if seconds is not None:
            print(f"vulture on the same original: {seconds:,.0f} s; the last shrink took "
                  f"{wall / seconds:.1f}x that")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
