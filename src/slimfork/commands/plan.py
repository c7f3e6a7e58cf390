"""``slimfork plan SPEC``: what would be removed and why; writes nothing."""

from __future__ import annotations

from dataclasses import asdict

from slimfork.commands._output import console, print_json, print_stale, positive_int


def add_parser(sub):
    p = sub.add_parser("plan", help="show what would be removed and why (writes nothing)", description=__doc__)
    p.add_argument("spec", metavar="SPEC", help="keep spec")
    p.add_argument("--jobs", type=positive_int, help="worker processes (default: one per core)")
    p.add_argument("--strict", action="store_true",
                   help="stale entries are errors even where the spec sets allow_stale = true")
    p.add_argument("--allow-stale", action="store_true",
                   help="a spec entry that matches nothing in the source (a root, glob, registry, registry key or "
                        "fact a new release renamed or removed) is a warning and is ignored, not an error (exit 2)")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.add_argument("--all", action="store_true", help="list every removal (default: the first 40)")
    return p


def run(args) -> int:
    from slimfork.api import analyse
    from slimfork.report.listing import PENDING, fates, removals_data

    analysis = analyse(args.spec, jobs=args.jobs, strict=args.strict, allow_stale=args.allow_stale or None)
    if (verify := analysis.spec.sections.get("verify")) is not None:  # a requirements file that cannot be read
        verify.config(analysis.spec.base_dir)  # is exit 2 here as in shrink (plan said nothing, shrink stopped)
    plan = analysis.plan
    print_stale(analysis)
    if args.json:
        print_json({"removed": removals_data(analysis), "kept": [k.to_dict() for k in plan.kept],
                    "uncertain": [asdict(u) for u in plan.uncertain], "warnings": plan.warnings})
        return 0
    from rich.table import Table

    out = console()
    listed = fates(analysis)  # the plan's files and the tests stage's removals: all that shrink will attempt
    from slimfork.progress import counted

    table = Table(title=f"{counted(len(listed), 'removal')} shrink will attempt", title_justify="left")
    table.add_column("path", overflow="fold")
    table.add_column("lines", justify="right")
    table.add_column("fate")
    table.add_column("reason", overflow="fold")
    shown = listed if args.all else listed[:40]
    for r, fate, _ in shown:
        table.add_row(r.path + (f"::{r.symbol}" if r.symbol else ""), str(r.lines), fate, r.reason)
    if listed:
        out.print(table)
    else:  # an empty table said nothing of why (a draft's roots are the whole public API)
        out.print("nothing to remove: every file is reached from the roots or kept by the spec; narrow `roots`, "
                  "or accept a `drop`, fact or registry suggestion of `slimfork init`, to let code go")
    if len(shown) < len(listed):
        out.print(f"... and {len(listed) - len(shown)} more (--all or --json lists them)")
    pending = [why for _, fate, why in listed if fate == PENDING]
    if pending:
        out.print(f"{len(pending)} pending verification: {pending[-1]}")
    python = [r.lines for r, _, _ in listed if r.path.endswith((".py", ".pyi"))]
    other = sum(r.lines for r, _, _ in listed) - sum(python)
    total = sum(s.lines for s in analysis.index.files.values())
    out.print(f"{len(plan.kept)} files kept; {sum(python):,} of {total:,} Python lines removed"
              + (f" (and {other:,} lines of other files)" if other else "")
              + f"; {len(plan.uncertain)} uncertain; {counted(len(plan.warnings), 'warning')}")
    for w in plan.warnings[:10]:
        out.print(f"warning: {w}")
    return 0
