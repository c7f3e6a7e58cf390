"""A readable table per finding kind (rich), for a terminal."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from slimfork.audit.model import KINDS
from slimfork.audit.projection import projection_rows
from slimfork.progress import counted


def render(result, new_only: bool = False, width: int | None = None) -> str:
    findings = [f for f in result.sorted() if not new_only or result.is_new(f)]
    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 160, force_terminal=False, color_system=None,
                      markup=False, emoji=False)  # "[new]" and ":name:" are text, not rich's tags or emoji
    for kind, title in KINDS.items():
        these = [f for f in findings if f.kind == kind]
        if not these:
            continue
        table = Table(title=f"{kind}: {title} ({len(these)})", title_justify="left", show_lines=False)
        table.add_column("conf", justify="right")
        table.add_column("where", overflow="fold")
        table.add_column("finding", overflow="fold")
        table.add_column("reason", overflow="fold")
        for f in these:
            where = f"{f.path}:{f.line}" if f.path and f.line else f.path or ""
            mark = " [new]" if result.new is not None and result.is_new(f) else ""
            table.add_row(str(f.confidence), where, f.message + mark, f.reason)
        console.print(table)
        if result.notes.get(kind):
            console.print(f"  {kind}: {result.notes[kind]}")
    stats = result.stats
    rows = projection_rows(stats)
    if rows:
        table = Table(title=f"projection: acting on findings of confidence {stats['projection']['min_confidence']}+",
                      title_justify="left")
        for col in ("", "before", "after", "change"):
            table.add_column(col, justify="right" if col else "left")
        for name, b, a, change in rows:
            table.add_row(name, str(b), str(a), change)
        console.print(table)
    for t in stats.get("hidden_root_triggers", [])[:10]:
        console.print(f"hidden roots: {counted(t['modules'], 'module')} kept by {t['trigger']}")
    summary = ", ".join(f"{k}: {v}" for k, v in stats.get("findings", {}).items())
    console.print(f"{len(findings)} finding{'' if len(findings) == 1 else 's'} ({summary}) in {stats.get('total_seconds', '?')} s")
    return buffer.getvalue()
