"""``slimfork stats PATH``: files and lines by language and by top-level folder."""

from __future__ import annotations

from pathlib import Path

from slimfork.commands._output import console, print_json
from slimfork.errors import SlimforkError


def add_parser(sub):
    p = sub.add_parser("stats", help="count files and lines by language and folder", description=__doc__)
    p.add_argument("path", metavar="PATH", help="a folder (a fork, a source checkout)")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    return p


def run(args) -> int:
    from rich.table import Table

    from slimfork.api import stats

    if not Path(args.path).is_dir():
        raise SlimforkError(f"{args.path} is not a folder", key="PATH", hint="give a folder to count")
    data = stats(args.path).to_dict()
    if args.json:
        print_json(data)
        return 0
    out = console()
    for key in ("by_language", "by_folder"):
        table = Table(title=key.replace("by_", "by "), title_justify="left")
        for col in (key[3:], "files", "lines"):
            table.add_column(col, justify="left" if col == key[3:] else "right")
        for name, c in sorted(data[key].items(), key=lambda kv: -kv[1]["lines"]):
            table.add_row(name, str(c["files"]), f"{c['lines']:,}")
        out.print(table)
    out.print(f"total: {data['files']} files, {data['lines']:,} lines")
    return 0
