"""``slimfork corpus [PROFILES...] [--set full] [--out DIR] [--json]``: shrink real projects and check each fork against the
project's own tests: lines and tests before/after, tests removed and why, new failures (must be 0)."""

from __future__ import annotations

import sys
from pathlib import Path

from slimfork.commands._output import console, print_json, positive_int

DEFAULT_PROFILES = ("profiles/click-posix.toml", "profiles/pygments-python.toml")
# --set full: every profile of docs/corpus.md (run from the repository root)
FULL_SET = (*DEFAULT_PROFILES, "profiles/init-colorama-accepted.toml", "profiles/init-send2trash-accepted.toml",
            "profiles/init-tzlocal-accepted.toml", "profiles/init-py-cpuinfo-accepted.toml", "profiles/corpus/*.toml")


def add_parser(sub):
    p = sub.add_parser("corpus", help="shrink real projects and run their own tests on each fork",
                       description=__doc__)
    p.add_argument("profiles", nargs="*", metavar="SPEC", help=f"keep specs (default: {', '.join(DEFAULT_PROFILES)})")
    p.add_argument("--set", choices=["full"], help="full: every profile of docs/corpus.md, after PROFILES")
    p.add_argument("--out", metavar="DIR", default="corpus-forks", help="folder for the forks (default: ./corpus-forks)")
    p.add_argument("--tests", action="append", default=[], help="run only these test paths or node ids "
                   "(repeatable; the reduced form)")
    p.add_argument("--jobs", type=positive_int, help="worker processes (default: one per core)")
    p.add_argument("--executor", choices=["local", "ray"], default=None,
                   help="where the checks run: local (default: a pool of --jobs workers) or ray (a Ray cluster; "
                        "pip install ray)")
    p.add_argument("--ray-address", help="the Ray cluster to use with --executor ray (default: $RAY_ADDRESS, else "
                   "a new local one)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    return p


def run(args) -> int:
    from slimfork.corpus.run import render_table, run_profile
    from slimfork.errors import SlimforkError
    from slimfork.verify.executor import check_executor

    names = [*args.profiles, *(FULL_SET if args.set == "full" else ())] or list(DEFAULT_PROFILES)
    profiles = [q for p in names for q in (sorted(Path().glob(p)) if "*" in p else [Path(p)])]
    for p in profiles:
        if not p.is_file():
            raise SlimforkError(f"profile not found: {p}", key="profiles", hint="pass keep spec files")
    check_executor(args.executor, args.ray_address)
    rows, errors = [], []
    for p in profiles:  # one profile's error does not stop the others
        try:
            rows.append(run_profile(p, Path(args.out).resolve(), args.jobs, tuple(args.tests), args.executor,
                                    args.ray_address))
        except SlimforkError as e:
            if len(profiles) == 1:
                raise
            errors.append(e)
    if args.json:
        print_json([r.to_dict() for r in rows])
    else:
        out = console()
        out.print(render_table(rows))
        for r in rows:
            for failure in r.new_failures[:20]:
                out.print(f"new failure in {r.profile}: {failure}")
    for error in errors:
        print(error.render(), file=sys.stderr)
    return 1 if any(r.new_failures for r in rows) else 2 if errors else 0
