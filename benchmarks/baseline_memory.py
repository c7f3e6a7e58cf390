"""The main process's memory at the start of a verification (issue #30): a profile analysed (index and plan, no
stages), then the baselines of the checks named, computed as ``slimfork shrink`` computes them (in threads).

    python benchmarks/baseline_memory.py PROFILE ORIGINAL_TREE [--checks parse,imports,pyflakes]

ORIGINAL_TREE is the git tree of the original's copy (a fork's first commit: ``git -C FORK rev-parse
ROOT_COMMIT^{tree}``); it keys the cached baselines, so a check whose baseline is cached costs only its loading.
Prints the resident memory (MB) after each step and its peak, sampled every 0.2 s.
"""

from __future__ import annotations

import argparse
import threading
import time


def _rss() -> int:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) // 1024 for line in fh if line.startswith("VmRSS"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profile")
    parser.add_argument("original_tree")
    parser.add_argument("--checks", default="parse,imports,pyflakes")
    args = parser.parse_args()
    peak = [0]

    def sample() -> None:
        while True:
            peak[0] = max(peak[0], _rss())
            time.sleep(0.2)

    threading.Thread(target=sample, daemon=True).start()
    from slimfork.apply.ladder import Ladder
    from slimfork.pipeline.analyse import analyse
    from slimfork.source.cache import cache_dir
    from slimfork.spec.load import load_spec
    from slimfork.verify.build import build_checks
    from slimfork.verify.executor import LocalExecutor

    spec = load_spec(args.profile)
    analysis = analyse(spec, jobs=2, fold=False)
    print(f"| analysis (index, plan) | {_rss()} MB | peak {peak[0]} MB |")
    names = args.checks.split(",")
    checks = [c for c in build_checks(spec, analysis.tree) if c.name in names]
    ladder = Ladder(checks, cache_root=cache_dir("apply"), jobs=2, executor=LocalExecutor(2))
    start = time.perf_counter()
    ladder.compute_baselines(analysis.tree.root, args.original_tree)
    runs = ", ".join(f"{r.check} {r.seconds:.0f} s{' (cached)' if r.cached else ''}" for r in ladder.baseline_runs)
    print(f"| + baselines of {runs}, {time.perf_counter() - start:.0f} s | {_rss()} MB | peak {peak[0]} MB |")


if __name__ == "__main__":
    main()
