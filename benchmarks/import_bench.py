"""The import-modules check on a profile's original (issue #30): the import server (preloaded third-party modules,
zygotes for the ancestor packages, bytecode once per run) against a fresh interpreter per module, in one run.

    python benchmarks/import_bench.py PROFILE [--every 4] [--jobs 2]

Imports every ``--every``-th module the profile's ``[checks.import_modules]`` selects (by default every module), both ways, and prints the
wall time of each, their ratio and whether every outcome (ok, error, frames, loaded files) is the same.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profile")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from slimfork.pipeline.analyse import analyse
    from slimfork.spec.load import load_spec
    from slimfork.verify.build import build_checks, layout_of, verify_env
    from slimfork.verify.checks.import_modules import ImportModulesCheck
    from slimfork.verify.importer import import_modules
    from slimfork.verify.tree import open_tree

    spec = load_spec(args.profile)
    analysis = analyse(spec, jobs=args.jobs, fold=False)
    check = next((c for c in build_checks(spec, analysis.tree) if c.name == "import-modules"), None)
    if check is None:  # the profile does not run the check: every module of the analysed packages, as its default
        check = ImportModulesCheck(layout_of(analysis.tree), verify_env(spec))
    root = analysis.tree.root
    modules = check.select(open_tree(root, check.layout, original=True))[::args.every]
    python_root = check.layout.python_root
    env = check.env.process_env(root / python_root if python_root else root, check.spec.stubs)
    runs = {}
    for fresh in (True, False):
        with tempfile.TemporaryDirectory(prefix="slimfork-import-bench-") as tmp:
            start = time.monotonic()
            raw = import_modules(check.env.python, env, root, modules, args.jobs, check.spec.timeout,
                                 check.spec.preload, Path(tmp), fresh=fresh)
            runs[fresh] = (time.monotonic() - start, [(r.module, r.timed_out, r.data) for r in raw])
    same = sum(a == b for a, b in zip(runs[True][1], runs[False][1]))
    print(f"| {len(modules)} modules, {args.jobs} at a time | a fresh interpreter each | the import server |")
    print("|---|---:|---:|")
    print(f"| wall time | {runs[True][0]:,.0f} s | {runs[False][0]:,.0f} s ({runs[True][0] / runs[False][0]:.1f}x) |")
    print(f"| outcomes equal | | {same} of {len(modules)} |")
    for a, b in zip(runs[True][1], runs[False][1]):
        if a != b:
            print(f"differs: {a[0]}: fresh {a[1:]!r:.300} server {b[1:]!r:.300}")


if __name__ == "__main__":
    main()
