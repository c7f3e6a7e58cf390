"""Render the report data as Markdown: a summary (report.md), the removed files and the kept files."""

from __future__ import annotations

from collections.abc import Sequence


def _table(headers: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" if i else "---" for i in range(len(headers))) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def _compare(before: dict, after: dict, key: str) -> str:
    names = sorted(set(before[key]) | set(after[key]), key=lambda n: -before[key].get(n, {"lines": 0})["lines"])
    rows = []
    for name in names:
        b = before[key].get(name, {"files": 0, "lines": 0})
        a = after[key].get(name, {"files": 0, "lines": 0})
        pct = f"{100 * (b['lines'] - a['lines']) / b['lines']:.1f}%" if b["lines"] else "-"
        rows.append([name, b["files"], a["files"], f"{b['lines']:,}", f"{a['lines']:,}", pct])
    rows.append(["**total**", before["files"], after["files"], f"{before['lines']:,}", f"{after['lines']:,}",
                 f"{100 * (before['lines'] - after['lines']) / before['lines']:.1f}%" if before["lines"] else "-"])
    return _table([key.replace("by_", ""), "files before", "files after", "lines before", "lines after",
                   "lines removed"], rows)


def summary_markdown(data: dict, sections: Sequence[tuple[str, str]] = ()) -> str:
    src = data["source"]
    parts = [f"# slimfork report: {src['distribution'] or src['spec']}", "",
             f"Spec: `{data['spec']}`  ", f"Fork: `{data['out']}`  ",
             f"Reduction: {data['reduction']['python_lines']}% of Python lines, {data['reduction']['lines']}% of all "
             f"lines, {data['reduction']['files']}% of files.", "",
             "## Roots", "", *[f"- `{r['module']}`: {r['reason']}" for r in data["roots"]], "",
             "## By language", "", _compare(data["before"], data["after"], "by_language"), "",
             "## By folder", "", _compare(data["before"], data["after"], "by_folder"), ""]
    kinds: dict[str, list[int]] = {}
    for r in data["removed"]:
        kinds.setdefault(r["kind"], [0, 0])
        kinds[r["kind"]][0] += not r.get("symbol")  # a test function cut from a kept file is no file
        kinds[r["kind"]][1] += r["lines"]
    parts += ["## Removed, by kind", "", _table(["kind", "files", "Python lines"],
                                                [[k, v[0], f"{v[1]:,}"] for k, v in sorted(kinds.items())]), ""]
    parts += _kept_by_kind(data["kept"])
    for title, body in sections:
        parts += [f"## {title}", "", body, ""]
    parts += [f"## Uncertain ({len(data['uncertain'])})", "",
              "Places static analysis cannot decide; every module they might reach is kept, unless the spec declares "
              "otherwise (docs/soundness.md).", ""]
    parts += [_uncertain_line(u) for u in data["uncertain"]] or ["none"]
    parts += ["", f"## Imports already missing in the original ({len(data['missing_in_original'])})", ""]
    parts += [f"- `{m['path']}:{m['line']}` imports `{m['target']}`" for m in data["missing_in_original"]] or ["none"]
    stale = data.get("stale", [])
    parts += ["", f"## Stale spec entries ({len(stale)})", "",
              "Entries that match nothing in this source, ignored because stale entries were allowed "
              "(`--allow-stale`, `allow_stale = true`): rename or remove them.", ""] if stale else []
    parts += [f"- `{e['key']}`: {e['message']}" + (f" (did you mean `{e['suggestion']}`?)" if e["suggestion"]
              else f" ({e['hint']})" if e["hint"] else "") for e in stale]
    parts += ["", f"## Warnings ({len(data['warnings'])})", ""] + ([f"- {w}" for w in data["warnings"]] or ["none"])
    parts += ["", "Details: `removed.md`, `kept.md`, and everything as data in `report.json`.", ""]
    return "\n".join(parts)


def removed_markdown(data: dict) -> str:
    rows = [[f"`{r['path']}{'::' + r['symbol'] if r.get('symbol') else ''}`", r["kind"], r["lines"], r["reason"]]
            for r in data["removed"]]
    return f"# Removed files and tests ({len(rows)})\n\n" + _table(["path", "kind", "lines", "reason"], rows) + "\n"


def kept_markdown(data: dict) -> str:
    rows = [[f"`{k['path']}`", k["reason"]] for k in data["kept"]]
    return f"# Kept files ({len(rows)})\n\n" + _table(["path", "why kept"], rows) + "\n"


def _kept_by_kind(kept: list[dict]) -> list[str]:
    """The kept files counted by kind, with the lowest confidence of each (how sure slimfork is they are needed)."""
    kinds: dict[str, list[int]] = {}
    for k in kept:
        kinds.setdefault(k["kind"], [0, 100])
        kinds[k["kind"]][0] += 1
        kinds[k["kind"]][1] = min(kinds[k["kind"]][1], k["confidence"])
    rows = [[kind, n, low] for kind, (n, low) in sorted(kinds.items(), key=lambda kv: (-kv[1][0], kv[0]))]
    return ["## Kept, by kind", "", _table(["kind", "files", "confidence"], rows), ""]


def _uncertain_line(u: dict) -> str:
    kept = u.get("kept") or []
    shown = ", ".join(f"`{m}`" for m in kept[:8]) + (f" and {len(kept) - 8} more" if len(kept) > 8 else "")
    return (f"- `{u['path']}:{u['line']}` `{u['what']}`: {u['why']}" + (f"; kept: {shown}" if kept else "")
            + (f". To decide it: {u['declare']}" if u.get("declare") else ""))
