"""The apply report as Markdown, and the commit message of a batch."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from slimfork.decisions import PUT_BACK

if TYPE_CHECKING:
    from slimfork.apply.model import ApplyReport, BatchResult, RestoredEdit
    from slimfork.decisions import Batch, Edit


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _counts(items: list[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(Counter(items).items())) or "none"


def render_markdown(report: ApplyReport) -> str:
    lines = [f"# slimfork apply: {report.out}", "", f"Source: `{report.original}`  ",
             f"Base commit: `{report.base_commit[:12]}`, head: `{report.head[:12]}`, {report.seconds:.1f} s", ""]
    lines += ["## Checks on the original", "", "| check | used | seconds | note |", "|---|---|---|---|"]
    for b in report.baselines:
        cached = " (cached)" if b.cached else ""
        used = "SKIPPED" if getattr(b, "skipped", False) else "yes" if b.usable else "NO"
        lines.append(f"| {b.check} | {used} | {b.seconds:.2f}{cached} | {_cell(b.note)} |")
    lines += ["", "## Batches", "",
              "| # | batch | removed | restored | kinds | trees checked | seconds | checks | commit |",
              "|---|---|---|---|---|---|---|---|---|"]
    for i, batch in enumerate(report.batches, 1):
        checks = ", ".join(f"{c.check}{'' if c.ok else ' FAIL'}" for c in batch.checks) or "none"
        kinds = _counts([r["kind"] for r in batch.removed])
        resumed = " (resumed)" if batch.resumed else ""
        lines.append(f"| {i} | {_cell(batch.name)} | {len(batch.removed)} | {len(batch.restored)} | {kinds} | "
                     f"{batch.candidates} | {batch.seconds:.1f}{resumed} | {checks} | `{batch.commit[:12]}` |")
    restored = report.restored
    lines += ["", f"## Restored ({len(restored)})", ""]
    if not restored:
        lines.append("Every planned edit passed the checks.")
    for batch_name, r in restored:
        why = "; ".join(r.failures[:3]) or "failed"
        if r.kind == PUT_BACK:  # a test that failed once put back: it stays out
            lines.append(f"- `{r.path}` (batch {batch_name}): not put back, check **{r.check}** fails with it: "
                         f"{_cell(why)}")
            continue
        lines.append(f"- `{r.path}` ({r.kind}, {r.action}, batch {batch_name}): needed by check **{r.check}**: "
                     f"{_cell(why)}")
    flaky = [(b.name, c.detail.partition("; ")[2]) for b in report.batches for c in b.checks if "(flaky" in c.detail]
    if flaky:  # tests that failed and then passed on one tree: no batch was blamed for them
        lines += ["", f"## Flaky tests ({len(flaky)} {'batch' if len(flaky) == 1 else 'batches'})", ""]
        lines += [f"- batch {name}: {_cell(detail)}" for name, detail in flaky]
    if report.notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in report.notes]
    return "\n".join(lines) + "\n"


def _edit_line(edit: Edit) -> str:
    reason = edit.reason if len(edit.reason) <= 300 else edit.reason[:297] + "..."
    return f"- {edit.path} [{edit.kind}]: {reason}".rstrip()


def commit_message(batch: Batch, kept: list[Edit], restored: list[RestoredEdit], result: BatchResult) -> str:
    """The batch as a reviewer reads it: what was deleted, folded, rewritten and restored, each with its reason."""
    groups: dict[str, list[Edit]] = {"deleted": [], "folded": [], "rewritten": [], "put back": []}
    for e in kept:
        groups["deleted" if e.content is None else e.kind if e.kind in groups else "rewritten"].append(e)
    counts = [f"{verb} {len(edits)}" for verb, edits in groups.items() if edits]
    undone = [r for r in restored if r.kind != PUT_BACK]
    if undone:
        counts.append(f"restored {len(undone)}")
    if len(undone) < len(restored):
        counts.append(f"not put back {len(restored) - len(undone)}")
    lines = [f"slimfork {batch.name}: {', '.join(counts) or 'no change'}", ""]
    if batch.message.strip():
        lines += [batch.message.strip(), ""]
    for verb, edits in groups.items():
        if edits:
            lines += [f"{verb.capitalize()} ({len(edits)}):"] + [_edit_line(e) for e in edits] + [""]
    if undone:
        lines += [f"Restored because a check needed them ({len(undone)}):"]
        for r in undone:
            lines.append(f"- {r.path} [{r.kind}] check {r.check}: {'; '.join(r.failures[:2]) or 'failed'}")
        lines.append("")
    if len(undone) < len(restored):
        lines += [f"Not put back: a check fails with them ({len(restored) - len(undone)}):"]
        lines += [f"- {r.path} check {r.check}: {'; '.join(r.failures[:2]) or 'failed'}" for r in restored
                  if r.kind == PUT_BACK] + [""]
    lines += ["Checks passed: " + (", ".join(c.check for c in result.checks) or "none (no usable check)"),
              "", f"Slimfork-Batch: {result.digest}"]
    return "\n".join(line.rstrip() for line in lines) + "\n"
