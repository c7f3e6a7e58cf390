"""Shared output helpers for subcommands: JSON to stdout, rich tables for people."""

from __future__ import annotations

import json
import os
import sys


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, indent=1, default=str) + "\n")


def console():
    from rich.console import Console

    # no markup: slimfork's text is never rich markup, and its messages name spec tables ("[verify]
    # requirements", "[symbols] drop", audit's "[new]") that rich's markup took for tags and dropped
    # off a terminal (a log, a file a reviewer reads, CI) rich's 80 columns cut a plan's paths and reasons to
    # "nameparser/config/pr…": 200 wide there, and a cell too long for it folds onto the next line, never cut
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    # no emoji codes either: "holidays.countries:Afghanistan: kept" holds ":Afghanistan:", a flag to rich
    return Console(highlight=False, soft_wrap=True, markup=False, emoji=False, width=200 if wide else None)


def comparison_table(title: str, before: dict, after: dict, key: str, limit: int = 15):
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for col in (key.replace("by_", ""), "files before", "files after", "lines before", "lines after", "removed"):
        table.add_column(col, justify="left" if col == key.replace("by_", "") else "right")
    names = sorted(set(before[key]) | set(after[key]), key=lambda n: -before[key].get(n, {"lines": 0})["lines"])
    for name in names[:limit]:
        b = before[key].get(name, {"files": 0, "lines": 0})
        a = after[key].get(name, {"files": 0, "lines": 0})
        pct = f"{100 * (b['lines'] - a['lines']) / b['lines']:.1f}%" if b["lines"] else "-"
        table.add_row(name, str(b["files"]), str(a["files"]), f"{b['lines']:,}", f"{a['lines']:,}", pct)
    pct = f"{100 * (before['lines'] - after['lines']) / before['lines']:.1f}%" if before["lines"] else "-"
    table.add_row("total", str(before["files"]), str(after["files"]), f"{before['lines']:,}", f"{after['lines']:,}",
                  pct, style="bold")
    return table


def print_stale(analysis) -> None:
    """Allowed stale spec entries, on stderr (stdout may be JSON): each as warning: KEY: message and its hint."""
    for entry in analysis.stale:
        sys.stderr.write(entry.render("warning") + "\n")


def positive_int(text: str) -> int:
    """An argparse type for counts (``--jobs``, ``--runs``): 0 or less is a usage error, exit 2 (``--jobs 0`` and
    ``--jobs -1`` ran with one worker per core, as if not given)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value} (leave it out for the default)")
    return value
