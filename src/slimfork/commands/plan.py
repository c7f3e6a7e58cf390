"""``slimfork plan SPEC``: what would be removed and why; writes nothing."""

from __future__ import annotations

from dataclasses import asdict

from slimfork.commands._output import console, print_json


def add_parser(sub):
    p = sub.add_parser("plan", help="show what would be removed and why (writes nothing)", description=__doc__)
    p.add_argument("spec", help="keep spec")
    p.add_argument("--jobs", type=int, help="worker processes (default: one per core)")
    p.add_argument("--strict", action="store_true",
                   help="a fact whose name exists nowhere (a likely typo) is an error (exit 2)")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.add_argument("--all", action="store_true", help="list every removal (default: the first 40)")
    return p


def run(args) -> int:
    from slimfork.api import analyse

    analysis = analyse(args.spec, jobs=args.jobs, strict=args.strict)
    plan = analysis.plan
    if args.json:
        print_json({"removed": [asdict(r) for r in plan.removals], "kept": [asdict(k) for k in plan.kept],
                    "uncertain": [asdict(u) for u in plan.uncertain], "warnings": plan.warnings})
        return 0
    from rich.table import Table

    out = console()
    table = Table(title=f"{len(plan.removals)} files would be removed", title_justify="left")
    table.add_column("path")
    table.add_column("lines", justify="right")
    table.add_column("reason")
    shown = plan.removals if args.all else plan.removals[:40]
    for r in shown:
        table.add_row(r.path, str(r.lines), r.reason)
    out.print(table)
    if len(shown) < len(plan.removals):
        out.print(f"... and {len(plan.removals) - len(shown)} more (--all or --json lists them)")
    removed_lines = sum(r.lines for r in plan.removals)
    total = sum(s.lines for s in analysis.index.files.values())
    out.print(f"{len(plan.kept)} files kept; {removed_lines:,} of {total:,} Python lines removed; "
              f"{len(plan.uncertain)} uncertain; {len(plan.warnings)} warnings")
    for w in plan.warnings[:10]:
        out.print(f"warning: {w}")
    return 0
