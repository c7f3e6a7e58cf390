"""Markdown: one section per finding kind, a table of findings in each (for a PR comment or a doc)."""

from __future__ import annotations

from slimfork.audit.model import KINDS
from slimfork.audit.projection import projection_rows
from slimfork.progress import counted


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(result, new_only: bool = False) -> str:
    findings = [f for f in result.sorted() if not new_only or result.is_new(f)]
    lines = [f"# slimfork audit of `{result.root}`", ""]
    seconds = result.stats.get("total_seconds")
    lines.append(f"{len(findings)} findings" + (f" in {seconds} s" if seconds is not None else "") + ".")
    lines.append("")
    rows = projection_rows(result.stats)
    if rows:
        lines += [f"Acting on the findings of confidence {result.stats['projection']['min_confidence']} or more:", "",
                  "| | before | after | change |", "|---|---:|---:|---:|"]
        lines += [f"| {name} | {b} | {a} | {change} |" for name, b, a, change in rows]
        lines.append("")
    for kind, title in KINDS.items():
        these = [f for f in findings if f.kind == kind]
        if not these:
            continue
        lines += [f"## {kind}: {title} ({len(these)})", "", "| confidence | where | finding | reason |",
                  "|---:|---|---|---|"]
        for f in these:
            where = f"`{f.path}:{f.line}`" if f.path and f.line else f"`{f.path}`" if f.path else ""
            new = " **new**" if result.new is not None and result.is_new(f) else ""
            lines.append(f"| {f.confidence} | {where} | {_cell(f.message)}{new} | {_cell(f.reason)} |")
        lines.append("")
        if result.notes.get(kind):
            lines += [f"All {kind} findings: {result.notes[kind]}.", ""]
    for t in result.stats.get("hidden_root_triggers", []):
        lines.append(f"- hidden roots: {counted(t['modules'], 'module')} kept by {t['trigger']}")
    return "\n".join(lines) + "\n"
