"""The kept set of two plans side by side (issue #31): the modules one side keeps and the other removes (or does
not have), each with both sides' reasons. A side is an analysis (a spec planned statically, no verification) or
the report.json of an earlier shrink, so a profile moved to a new release can be compared with the fork it made
before. Modules are compared by name (a file with no module, by path), so a release that moves its folders
still lines up."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from slimfork.decisions import RemovalKind
from slimfork.errors import SlimforkError
from slimfork.report.listing import planned_removals

_WHOLE_FILE = {RemovalKind.DROPPED, RemovalKind.UNREACHABLE, RemovalKind.KERNEL, RemovalKind.REGISTRY,
               RemovalKind.TEST}


@dataclass(frozen=True)
class Fate:
    fate: str  # "kept" or "removed"
    path: str
    reason: str
    kind: str = ""  # the removal's kind


@dataclass
class Side:
    label: str  # the spec or report it comes from
    source: str  # what was analysed: "pkg==1.0" or a folder
    fates: dict[str, Fate]  # module (or path) -> its fate
    stale: list[dict] = field(default_factory=list)  # the side's stale entries (errors.Stale.to_dict())

    @property
    def kept(self) -> set[str]:
        return {name for name, f in self.fates.items() if f.fate == "kept"}


def side_of_analysis(label: str, analysis) -> Side:
    fates: dict[str, Fate] = {}
    for r in planned_removals(analysis):
        if r.symbol is None and r.kind in _WHOLE_FILE:
            fates[r.module or r.path] = Fate("removed", r.path, r.reason, str(r.kind))
    for k in analysis.plan.kept:
        fates[k.module or k.path] = Fate("kept", k.path, k.reason)
    dist = analysis.tree.dist
    return Side(label, f"{dist.name}=={dist.version}" if dist else str(analysis.tree.root), fates,
                [e.to_dict() for e in analysis.stale])


def report_path(text: str) -> Path | None:
    """The report.json an argument names: the file, a report folder, or a fork with its '<fork>.report' beside it."""
    path = Path(text)
    for candidate in (path, path / "report.json", path.with_name(path.name + ".report") / "report.json"):
        if candidate.name == "report.json" and candidate.is_file():
            return candidate
    return None


def side_of_report(path: Path) -> Side:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        fates = {r.get("module") or r["path"]: Fate("removed", r["path"], r["reason"], r["kind"])
                 for r in data["removed"] if not r.get("symbol") and r["kind"] in _WHOLE_FILE}
        fates.update({k.get("module") or k["path"]: Fate("kept", k["path"], k["reason"]) for k in data["kept"]})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SlimforkError(f"{path}: not a slimfork report.json ({exc})",
                            hint="pass a spec, or the report.json (or report folder) of a shrink") from None
    source = data.get("source", {})
    return Side(str(path), source.get("distribution") or source.get("path", ""), fates, data.get("stale", []))


def kept_diff(a: Side, b: Side) -> dict:
    """What one side keeps and the other does not, with both reasons; the JSON ``slimfork diff`` prints."""
    def entries(this: Side, other: Side) -> list[dict]:
        out = []
        for name in sorted(this.kept - other.kept):
            mine, theirs = this.fates[name], other.fates.get(name)
            out.append({"name": name, "path": mine.path, "kept_because": mine.reason,
                        "other": {"fate": theirs.fate, "kind": theirs.kind, "path": theirs.path,
                                  "reason": theirs.reason} if theirs else
                        {"fate": "absent", "kind": "", "path": None, "reason": "not in the source"}})
        return out

    return {"a": {"label": a.label, "source": a.source, "kept": len(a.kept), "stale": a.stale},
            "b": {"label": b.label, "source": b.source, "kept": len(b.kept), "stale": b.stale},
            "kept_only_in_a": entries(a, b), "kept_only_in_b": entries(b, a),
            "kept_in_both": len(a.kept & b.kept)}


def diff_text(data: dict) -> str:
    lines = []
    for side in ("a", "b"):
        s = data[side]
        lines.append(f"{side.upper()}: {s['label']} ({s['source']}): {s['kept']} files kept")
    lines.append(f"kept in both: {data['kept_in_both']}")
    for key, this, other in (("kept_only_in_a", "A", "B"), ("kept_only_in_b", "B", "A")):
        items = data[key]
        lines += ["", f"kept in {this}, not in {other} ({len(items)}):"]
        for e in items:
            o = e["other"]
            where = f" ({e['path']})" if e["path"] != e["name"] else ""
            lines += [f"  {e['name']}{where}", f"    {this}: kept: {e['kept_because']}",
                      f"    {other}: " + (f"{o['fate']} ({o['kind']}): {o['reason']}" if o["fate"] == "removed"
                                         else "not in the source")]
        if not items:
            lines.append("  none")
    for side in ("a", "b"):
        stale = data[side]["stale"]
        if stale:
            lines += ["", f"stale entries of {side.upper()} (ignored there; rename or remove them):"]
            lines += [f"  {e['key']}: {e['message']}" + (f"; did you mean {e['suggestion']}?" if e["suggestion"]
                                                         else "") for e in stale]
    return "\n".join(lines)
