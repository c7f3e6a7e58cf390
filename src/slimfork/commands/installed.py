"""``slimfork installed SPEC [FORK]``: the original and the fork pip-installed as a user installs them, in the
spec's verification environment: install size and median import times, side by side (reported, not compared)."""

from __future__ import annotations

from pathlib import Path

from slimfork.commands._output import console, print_json, positive_int
from slimfork.errors import SlimforkError


def add_parser(sub):
    p = sub.add_parser("installed", help="install size and import times of the original and the fork",
                       description=__doc__)
    p.add_argument("spec", metavar="SPEC", help="the keep spec (its source is the original, its [verify] the environment)")
    p.add_argument("fork", nargs="?", metavar="FORK", help="the fork's folder (default: the spec's out)")
    p.add_argument("--import", dest="modules", action="append", metavar="MODULE",
                   help="a module to time (repeatable; default: the spec's root modules)")
    p.add_argument("--runs", type=positive_int, default=3, help="fresh processes per module and tree; the median is shown "
                   "(default 3)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    return p


def run(args) -> int:
    from slimfork.api import installed_numbers

    if args.runs < 1:
        raise SlimforkError(f"--runs must be at least 1, got {args.runs}", key="--runs", hint="e.g. --runs 3")
    if args.fork is not None and not Path(args.fork).is_dir():
        raise SlimforkError(f"{args.fork} is not a folder", key="FORK", hint="the fork a shrink wrote")
    data = installed_numbers(args.spec, args.fork, args.modules, args.runs)
    if data["original"]["error"]:
        raise SlimforkError(f"the original does not install: {data['original']['error']}", key="source",
                            hint="a folder with pyproject.toml or setup.py, or a pypi: wheel")
    broken = _fork_failures(data)
    if args.json:
        print_json(data)
    else:
        _show(data, broken)
    return 1 if broken else 0


def _fork_failures(data: dict) -> list[str]:
    fork = data["fork"]
    if fork["error"]:
        return [f"the fork does not install: {fork['error']}"]
    return [f"import {m} fails in the fork: {fork['imports'][m]['error']}" for m in data["modules"]
            if fork["imports"][m]["error"] and not data["original"]["imports"][m]["error"]]


def _show(data: dict, broken: list[str]) -> None:
    from rich.table import Table

    out = console()
    sides = [s for s in ("original", "fork") if not data[s]["error"]]
    table = Table(title=f"installed (median of {data['runs']} imports)", title_justify="left")
    table.add_column("")
    for side in sides:
        table.add_column(f"{side} {data[side]['version']}", justify="right")
    table.add_row("files", *[f"{data[s]['files']:,}" for s in sides])
    table.add_row("MB", *[f"{data[s]['bytes'] / 1e6:,.1f}" for s in sides])
    table.add_row("MB without .pyc", *[f"{(data[s]['bytes'] - data[s]['pyc_bytes']) / 1e6:,.1f}" for s in sides])
    table.add_row("console scripts", *[", ".join(data[s]["scripts"]) or "-" for s in sides])
    for module in data["modules"]:
        cells = []
        for side in sides:
            timing = data[side]["imports"][module]
            cells.append("fails" if timing["error"] else f"{timing['median']:.2f} s")
        table.add_row(f"import {module}", *cells)
    out.print(table)
    for line in broken:
        out.print(line)
