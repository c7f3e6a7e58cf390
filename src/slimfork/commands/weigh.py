"""``slimfork weigh SPEC``: the kept modules that hold the most of the fork, and the imports that keep each.

A module's *retained* lines are its own and those of every module only reachable through it: what would leave
the fork if the imports listed under it were cut (by a fact, a registry or a drop). The place to start when a
fork is bigger than expected.
"""

from __future__ import annotations

from slimfork.commands._output import console, print_json


def add_parser(sub):
    p = sub.add_parser("weigh", help="rank kept modules by the lines that would leave with them",
                       description=__doc__)
    p.add_argument("spec", help="keep spec")
    p.add_argument("--top", type=int, default=25, metavar="N", help="how many modules to show (default 25)")
    p.add_argument("--min-importers", type=int, default=0, metavar="K",
                   help="only modules kept by at most K imports (0: any), the easiest to cut")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    return p


def run(args) -> int:
    from slimfork.api import weigh
    from slimfork.errors import SlimforkError

    if args.top < 1 or args.min_importers < 0:
        raise SlimforkError("--top must be at least 1 and --min-importers at least 0", key="--top")
    weights = [w for w in weigh(args.spec) if not args.min_importers or len(w.importers) <= args.min_importers]
    weights = weights[:args.top]
    if args.json:
        print_json([w.to_dict() for w in weights])
        return 0
    out = console()
    for w in weights:
        out.print(f"[bold]{w.retained:>9,d}[/bold] lines in {w.modules:,d} modules  {w.module}  "
                  f"[dim]({w.lines:,d} its own)[/dim]")
        for imp in w.importers[:6]:
            where = f"{imp['path']}:{imp['line']}" if imp["path"] else ""
            out.print(f"            [dim]{where}  {imp['how']}[/dim]")
        if len(w.importers) > 6:
            out.print(f"            [dim]... {len(w.importers) - 6} more imports[/dim]")
    return 0
