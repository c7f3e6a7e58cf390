"""Time slimfork's index + plan on the unpacked sglang wheel, cold and warm, against the tools a user would
otherwise run on the same tree in the same run (vulture, pyflakes, grimp), and print the ratios.

    python benchmarks/index_bench.py [--spec profiles/sglang-deepseek.toml] [--skip-tools] [--json]

Cold: no index cache (every file parsed, in parallel processes). Warm: the cache of the cold run.
Goals (issue "end to end"): cold at most a quarter of vulture's time; warm under 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def time_slimfork(spec_path: Path, cache: Path) -> dict:
    """What `slimfork plan` does before folding: index (files the spec drops are only counted) + graph + plan."""
    from slimfork.api import analyse, open_source
    from slimfork.spec import load_spec

    from slimfork.source.cache import cache_dir

    spec = load_spec(spec_path)
    tree = open_source(spec)  # the download itself is not timed
    for name in ("sources", "downloads"):  # the fresh cache sees the unpacked source, but no index
        (cache / name).symlink_to(cache_dir(name), target_is_directory=True)
    os.environ["SLIMFORK_CACHE"] = str(cache)
    out = {"tree": str(tree.root)}
    for label in ("cold", "warm"):
        t0 = time.perf_counter()
        analysis = analyse(spec, fold=False)
        total = time.perf_counter() - t0
        index, timings = analysis.index, analysis.timings
        out[label] = {"index_s": round(timings["index"], 3), "plan_s": round(timings["plan"], 3),
                      "total_s": round(total, 3), "parsed": index.parsed, "files": len(index.files),
                      "removed": len(analysis.plan.removals)}
    return out


def time_tool(argv: list[str], cwd: Path, env: dict | None = None) -> float | None:
    t0 = time.perf_counter()
    try:
        subprocess.run(argv, cwd=cwd, capture_output=True, env={**os.environ, **(env or {})}, timeout=1800)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return None
    return round(time.perf_counter() - t0, 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default=str(ROOT / "profiles" / "sglang-deepseek.toml"))
    parser.add_argument("--skip-tools", action="store_true", help="time only slimfork")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        result = time_slimfork(Path(args.spec), Path(cache))
    tree = Path(result["tree"])
    package = next(p.name for p in tree.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    if not args.skip_tools:
        result["vulture_s"] = time_tool([sys.executable, "-m", "vulture", package], tree)
        result["pyflakes_s"] = time_tool([sys.executable, "-m", "pyflakes", package], tree)
        result["grimp_s"] = time_tool([sys.executable, "-c", f"import grimp; grimp.build_graph({package!r})"], tree,
                                      {"PYTHONPATH": str(tree)})
        cold = result["cold"]["total_s"]
        result["ratios"] = {f"cold/{tool}": round(cold / result[f"{tool}_s"], 3)
                            for tool in ("vulture", "pyflakes", "grimp") if result.get(f"{tool}_s")}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"tree: {tree} ({result['cold']['files']} Python files), {os.cpu_count()} cores")
    for label in ("cold", "warm"):
        r = result[label]
        print(f"slimfork {label}: index {r['index_s']} s (parsed {r['parsed']}), plan {r['plan_s']} s, "
              f"total {r['total_s']} s")
    for tool in ("vulture", "pyflakes", "grimp"):
        if f"{tool}_s" in result:
            print(f"{tool}: {result[f'{tool}_s']} s")
    for name, ratio in result.get("ratios", {}).items():
        print(f"ratio {name}: {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
